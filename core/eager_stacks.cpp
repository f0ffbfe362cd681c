#include "eager_stacks.h"

#include <charconv>

namespace stackline {

EagerStacks EagerStacks::build(const Trace&, const Provenance&, const TrackIndex&,
                               const FlowIndex&) {
    return {};  // issue 17 point 4: being written
}

uint32_t EagerStacks::stackOf(uint32_t row) const {
    return row < stackOf_.size() ? stackOf_[row] : 0;
}

std::span<const uint32_t> EagerStacks::frames(uint32_t stack) const {
    if (stack == 0 || stack + 1 >= frameStart_.size()) return {};
    return std::span<const uint32_t>(frameRows_)
        .subspan(frameStart_[stack], frameStart_[stack + 1] - frameStart_[stack]);
}

EagerOrigin EagerStacks::origin(uint32_t row) const {
    return row < origin_.size() ? origin_[row] : EagerOrigin::None;
}

SourceFrame pythonFunctionFrame(std::string_view name) {
    // "<file>(<line>): <function>"
    const size_t colon = name.find("): ");
    const size_t open = colon == std::string_view::npos ? colon : name.rfind('(', colon);
    int line = 0;
    if (open != std::string_view::npos && open > 0) {
        auto [end, error] = std::from_chars(name.data() + open + 1, name.data() + colon, line);
        if (error == std::errc() && end == name.data() + colon)
            return {std::string(name.substr(0, open)), line, std::string(name.substr(colon + 3)),
                    ""};
    }
    return {std::string(name), 0, "", ""};
}

}  // namespace stackline
