#include "annotate/diagnostic_groups.h"

#include <algorithm>
#include <unordered_map>

namespace stackline {

namespace {

struct MessageKey {
    DiagnosticKind kind;
    std::string_view message;
    bool operator==(const MessageKey&) const = default;
};
struct MessageKeyHash {
    std::size_t operator()(const MessageKey& k) const {
        return std::hash<std::string_view>()(k.message) * 31 + std::size_t(k.kind);
    }
};

}  // namespace

const DiagnosticGroups::Position* DiagnosticGroups::find(uint32_t row) const {
    auto it = std::lower_bound(firstByRow.begin(), firstByRow.end(), row,
                               [](const auto& entry, uint32_t r) { return entry.first < r; });
    return it != firstByRow.end() && it->first == row ? &it->second : nullptr;
}

DiagnosticGroups groupDiagnostics(const std::vector<Diagnostic>& diagnostics) {
    DiagnosticGroups g;
    std::vector<int> kindIndex(std::size(kDiagnosticKinds), -1);
    // Each message group gets a number across kinds, and its place (kind, message).
    std::unordered_map<MessageKey, uint32_t, MessageKeyHash> messageNumber;
    std::vector<std::pair<uint32_t, uint32_t>> messagePlace;
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
        auto [number, newMessage] =
            messageNumber.try_emplace({d.kind, d.message}, uint32_t(messagePlace.size()));
        if (newMessage) {
            messagePlace.emplace_back(uint32_t(k), uint32_t(kind.messages.size()));
            kind.messages.push_back({i, 0, {}});
        }
        const uint32_t m = messagePlace[number->second].second;
        DiagnosticGroups::Message& message = kind.messages[m];
        ++message.occurrences;
        if (d.row == kNoRow) continue;
        auto [e, newEvent] = eventIndex.try_emplace((uint64_t(number->second) << 32) | d.row,
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
