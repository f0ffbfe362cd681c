// The args of a Kineto JSON event, read from its bytes when asked: the event table keeps only
// their span.
#pragma once

#include <memory>

#include "model/event_args.h"

namespace stackline {

// One reader for every Kineto JSON trace (it holds nothing of its own).
std::shared_ptr<const ArgsReader> kinetoArgsReader();

}  // namespace stackline
