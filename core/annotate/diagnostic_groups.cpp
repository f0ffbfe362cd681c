#include "annotate/diagnostic_groups.h"

#include <algorithm>
#include <unordered_map>
#include <utility>

namespace stackline {

namespace {

// The fields a message reads (Diagnostic::sameText).
struct MessageKey {
    DiagnosticMessage message;
    uint32_t name, number;
    bool operator==(const MessageKey&) const = default;
};
struct MessageKeyHash {
    std::size_t operator()(const MessageKey& k) const {
        const uint64_t fields = (uint64_t(k.name) << 32 | k.number) * 0x9E3779B97F4A7C15ull;
        return std::size_t(fields ^ (fields >> 29) ^ uint64_t(k.message));
    }
};

}  // namespace

const DiagnosticGroups::Position* DiagnosticGroups::find(uint32_t row) const {
    auto it = std::lower_bound(firstByRow.begin(), firstByRow.end(), row,
                               [](const auto& entry, uint32_t r) { return entry.first < r; });
    return it != firstByRow.end() && it->first == row ? &it->second : nullptr;
}

MessageNumbers numberMessages(std::span<const Diagnostic> diagnostics) {
    MessageNumbers out;
    out.of.reserve(diagnostics.size());
    std::unordered_map<MessageKey, uint32_t, MessageKeyHash> numberOf;
    for (uint32_t i = 0; i < diagnostics.size(); ++i) {
        const Diagnostic& d = diagnostics[i];
        auto [it, added] =
            numberOf.try_emplace({d.message, d.name, d.number}, uint32_t(out.first.size()));
        if (added) out.first.push_back(i);
        out.of.push_back(it->second);
    }
    return out;
}

DiagnosticGroups groupDiagnostics(std::span<const Diagnostic> diagnostics) {
    DiagnosticGroups g;
    const MessageNumbers numbers = numberMessages(diagnostics);
    std::vector<int> kindIndex(std::size(kDiagnosticKinds), -1);
    // Each message's place in the groups: its index in its kind's messages.
    std::vector<uint32_t> messagePlace(numbers.first.size(), UINT32_MAX);
    std::unordered_map<uint64_t, uint32_t> eventIndex;  // (message number, row) -> event index
    std::unordered_map<uint32_t, DiagnosticGroups::Position> first;
    for (uint32_t i = 0; i < diagnostics.size(); ++i) {
        const Diagnostic& d = diagnostics[i];
        int& k = kindIndex[std::size_t(d.kind)];
        if (k < 0) {
            k = int(g.kinds.size());
            g.kinds.push_back({d.kind, 0, {}});
        }
        DiagnosticGroups::Kind& kind = g.kinds[std::size_t(k)];
        ++kind.occurrences;
        const uint32_t number = numbers.of[i];
        if (messagePlace[number] == UINT32_MAX) {
            messagePlace[number] = uint32_t(kind.messages.size());
            kind.messages.push_back({i, 0, {}});
        }
        const uint32_t m = messagePlace[number];
        DiagnosticGroups::Message& message = kind.messages[m];
        ++message.occurrences;
        if (d.row == kNoRow) continue;
        auto [e, newEvent] = eventIndex.try_emplace((uint64_t(number) << 32) | d.row,
                                                    uint32_t(message.events.size()));
        if (newEvent) {
            message.events.push_back({i, 0});
            first.try_emplace(d.row, DiagnosticGroups::Position{uint32_t(k), m, e->second});
        }
        ++message.events[e->second].occurrences;
    }
    g.firstByRow.assign(first.begin(), first.end());
    std::sort(g.firstByRow.begin(), g.firstByRow.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    return g;
}

}  // namespace stackline
