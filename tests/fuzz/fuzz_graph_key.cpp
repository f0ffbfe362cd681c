// libFuzzer target: the graph-key parser (Python's ast.literal_eval of "('name', False)").
// Properties: no crash, and the outcome is consistent; a key that parses, written back the way the
// reference builds keys (str((name, flag))), parses to the same key.
#include <string>

#include "fuzz_support.h"
#include "python/graph_key.h"
#include "python/python_values.h"

using namespace stackline;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text = stackline::fuzz::asText(data, size);
    GraphKeyParse outcome;
    std::optional<GraphKey> key = parseGraphKey(text, &outcome);
    FUZZ_CHECK(key.has_value() == (outcome == GraphKeyParse::Key));
    if (!key || !stackline::fuzz::validUtf8(key->name)) return 0;
    std::string repr = pyGraphKey(key->name, key->backward);
    GraphKeyParse again;
    std::optional<GraphKey> reparsed = parseGraphKey(repr, &again);
    FUZZ_CHECK(reparsed.has_value() && again == GraphKeyParse::Key, repr);
    FUZZ_CHECK(reparsed->name == key->name && reparsed->backward == key->backward, repr);
    return 0;
}
