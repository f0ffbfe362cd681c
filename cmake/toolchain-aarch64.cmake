# Cross-compiles for aarch64 Linux (GH200/Grace nodes) on a Debian amd64 machine, against the
# arm64 packages of Debian's multiarch (dpkg --add-architecture arm64; see .ci/install-deps):
#   cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64.cmake -DSTACKLINE_GUI=OFF
# The binaries run on the build machine under qemu-user (qemu-aarch64 BINARY), which finds the
# arm64 loader and libraries where libc6:arm64 and libstdc++6:arm64 put them.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# The arm64 packages' pkg-config files, not the build machine's.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
# Tests registered with a target as their command run through qemu.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64)
