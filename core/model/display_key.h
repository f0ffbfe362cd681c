// How a pid or tid is shown and compared: the timeline's tracks, the metadata that names them and
// the counters all key processes and threads by it.
#pragma once

#include <cstdint>
#include <string>

#include "model/event_table.h"

namespace stackline {

// A pid or tid as shown: ints, and decimal strings (legacy traces write tid "24572" for the thread
// their flow events call 24572), compare as numbers; any other value by its text.
struct DisplayKey {
    bool isInt = true;
    int64_t value = 0;
    std::string text;

    std::string label() const { return isInt ? std::to_string(value) : text; }
    bool operator==(const DisplayKey& o) const {
        return isInt == o.isInt && (isInt ? value == o.value : text == o.text);
    }
    // Ints first, by value; then strings by text.
    bool operator<(const DisplayKey& o) const {
        if (isInt != o.isInt) return isInt;
        return isInt ? value < o.value : text < o.text;
    }
};

// The display form of a raw pid or tid key.
DisplayKey displayKey(const KeyPool& keys, KeyId id);

}  // namespace stackline
