// stackline-cli's commands, one file each; main() dispatches to them. Each returns the exit
// status, or throws InputError / OutputError.
#pragma once

namespace cli {

struct Args;

int annotate(const Args& a);
int summary(const Args& a);
int hotspots(const Args& a);
int merge(const Args& a);
int kernelInfo(const Args& a);
int kernelCode(const Args& a);
int diff(const Args& a);

}  // namespace cli
