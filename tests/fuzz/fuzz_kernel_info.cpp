// libFuzzer target: the kernel information registry. Input bytes are a kernel_info.json.
// Properties: a refused input raises InputError naming the file; on an accepted one every lookup
// the processor and the viewer make either answers or raises RegistryError naming the graph (a
// graph whose value is not an object), and every stack it returns can be written out as JSON.
#include <string>
#include <vector>

#include "fuzz_support.h"
#include "io/trace_bytes.h"
#include "kernel_info/kernel_info.h"
#include "python/python_values.h"

using namespace stackline;

namespace {

const std::string kName = "fuzz_kernel_info.json";

void writeOut(const OrderedJson* stack) {
    if (!stack) return;
    // As the processor writes args.stack, and as the details panel shows an entry.
    FUZZ_CHECK(!stack->dump().empty());
    (void)stack->dump(1, ' ', false, OrderedJson::error_handler_t::replace);
}

// The kernel names a lookup can be made with: each kernel key, each "name" before one of its
// colons (the reference's prefix match), and names the registry does not hold.
std::vector<std::string> kernelNames(const OrderedJson& graph) {
    std::vector<std::string> names{"", "triton_poi_fused_add_0", "extern_kernels.mm"};
    if (!graph.is_object()) return names;
    for (auto it = graph.begin(); it != graph.end() && names.size() < 64; ++it) {
        const std::string& key = it.key();
        names.push_back(key);
        names.push_back(key + ":0");
        for (std::size_t colon = key.find(':'); colon != std::string::npos;
             colon = key.find(':', colon + 1))
            names.push_back(key.substr(0, colon));
    }
    return names;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text = stackline::fuzz::asText(data, size);
    KernelInfo info;
    try {
        info = KernelInfo::parse(text, kName);
    } catch (const InputError& e) {
        FUZZ_CHECK(std::string(e.what()).rfind(kName, 0) == 0, e.what());
        return 0;
    }
    for (const std::string& note : info.notes()) FUZZ_CHECK(!note.empty());
    const OrderedJson& registry = info.registryJson();
    FUZZ_CHECK(registry.is_object() && registry.size() == info.graphCount());
    FUZZ_CHECK(info.graphKeys().size() == info.graphCount());
    (void)registry.dump();
    if (const OrderedJson* kernelOnly = info.kernelOnlyJson()) (void)kernelOnly->dump();
    (void)info.raisingKeys();
    // The registry's graph keys, and forward and backward keys of a region it may not hold (the
    // kernel-only part answers for forward keys the registry lacks).
    std::vector<std::string> keys = info.graphKeys();
    for (bool backward : {false, true})
        keys.push_back(pyGraphKey("Torch-Compiled Region: 0/0", backward));
    for (const std::string& key : keys) {
        GraphKeyParse outcome;
        std::optional<GraphKey> parsed = parseGraphKey(key, &outcome);
        FUZZ_CHECK(parsed.has_value() == (outcome == GraphKeyParse::Key));
        // The backward keys of the region this key names (as the processor asks), and of the text.
        for (const std::string& name : {parsed ? parsed->name : key, key})
            for (const std::string& k : info.backwardKeys(name)) (void)k;
        const OrderedJson* graph =
            registry.contains(key) ? &registry.at(key) : info.kernelOnlyJson();
        try {
            writeOut(info.singleStack(key));
            std::vector<std::string> names = kernelNames(graph ? *graph : OrderedJson());
            for (const std::string& kernel : names) {
                bool has = info.hasKernelInfo(key, kernel);
                const OrderedJson* entry = info.kernelEntry(key, kernel);
                if (entry) FUZZ_CHECK(has, kernel);
                writeOut(entry);
                writeOut(info.stackForKernel(key, kernel));
            }
        } catch (const RegistryError& e) {
            FUZZ_CHECK(graph && !graph->is_object(), e.what());
            // what() ends at a NUL the key may hold ("\u0000" in the JSON).
            FUZZ_CHECK(
                std::string(e.what()).find(key.substr(0, key.find('\0'))) != std::string::npos,
                e.what());
        }
    }
    return 0;
}
