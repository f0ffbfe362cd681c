#include "import/nsight/python_backtraces.h"

#include <string>
#include <unordered_map>

#include "import/nsight/sqlite_db.h"

namespace stackline::nsight {

namespace {

bool endsWith(std::string_view s, std::string_view end) {
    return s.size() >= end.size() && s.substr(s.size() - end.size()) == end;
}

}  // namespace

void readPythonBacktraces(const Database& db, const std::vector<CallchainOfCall>& calls,
                          const std::function<uint32_t(int64_t)>& stringOf, StringPool& strings,
                          LaunchStacks& out) {
    if (calls.empty() || !db.hasTable("CUDA_CALLCHAINS")) return;
    std::unordered_map<int64_t, uint32_t> wanted;  // callchain id -> stack id (0: none yet)
    for (const CallchainOfCall& c : calls) wanted.emplace(c.callchain, 0);
    const bool hasUnresolved = db.hasColumn("CUDA_CALLCHAINS", "unresolved");
    const bool hasLine = db.hasColumn("CUDA_CALLCHAINS", "originalIP");
    Statement s(db, std::string("SELECT id, symbol, module, ") +
                        (hasUnresolved ? "unresolved" : "NULL") + ", " +
                        (hasLine ? "originalIP" : "NULL") +
                        " FROM CUDA_CALLCHAINS ORDER BY id, stackDepth");
    // Frame names by (symbol, module, line); most frames repeat across chains.
    struct Key {
        int64_t symbol, module, line;
        bool operator==(const Key&) const = default;
    };
    struct KeyHash {
        std::size_t operator()(const Key& k) const {
            return std::hash<int64_t>()((k.symbol * 0x9E3779B97F4A7C15ll ^ k.module) * 31 ^ k.line);
        }
    };
    std::unordered_map<Key, uint32_t, KeyHash> names;  // -> pool id, 0: not a Python frame
    std::vector<uint32_t> frames;
    int64_t current = 0;
    bool inChain = false, want = false;
    auto finish = [&] {
        if (want && !frames.empty()) wanted[current] = out.addStack(frames);
        frames.clear();
    };
    while (s.step()) {
        const int64_t id = s.integer(0);
        if (!inChain || id != current) {
            finish();
            current = id;
            inChain = true;
            want = wanted.contains(id);
        }
        if (!want || (!s.isNull(3) && s.integer(3) != 0)) continue;
        const Key key{s.integer(1), s.integer(2), s.isNull(4) ? 0 : s.integer(4)};
        auto it = names.find(key);
        if (it == names.end()) {
            const std::string symbol(strings.at(stringOf(key.symbol)));
            const std::string_view module = strings.at(stringOf(key.module));
            uint32_t name = 0;
            if (endsWith(module, ".py") || module.starts_with('<'))
                name = strings.intern(std::string(module) + "(" + std::to_string(key.line) +
                                      "): " + symbol);
            else if (module.empty() && !symbol.empty())
                name = strings.intern(symbol);
            it = names.emplace(key, name).first;
        }
        if (it->second) frames.push_back(it->second);
    }
    finish();
    for (const CallchainOfCall& c : calls)
        if (const uint32_t stack = wanted[c.callchain]) out.setStack(c.row, stack);
}

}  // namespace stackline::nsight
