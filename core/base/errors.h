// The three ways core work stops short, for every layer and both programs: stackline-cli maps
// InputError to exit 2 and OutputError to exit 1, the viewer shows either in a dialog, and
// Cancelled ends a job the user stopped.
#pragma once

#include <stdexcept>

namespace stackline {

// An input that cannot be read or is not what it should be. The message names the file and, where
// there is one, the position.
struct InputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The output could not be written; the message names the file and the reason.
struct OutputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Thrown by work that stopped because it was cancelled through Progress::cancel.
struct Cancelled {};

}  // namespace stackline
