"""Builds the Python package stackline (packaging/python) into a wheel with the project's CMake:

    /usr/bin/python3 -m pip wheel --no-build-isolation --no-deps -w DIST .

The wheel holds stackline/ with its native module _core, the profiler handler stackline_handler
and stackline-cli, installed as data into the environment's bin/ (setuptools' scripts= takes no
ELF binaries). CMake configures a build of its own (no viewer) under build-wheel/, unless
STACKLINE_BUILD_DIR names a build folder where stackline_core_module and stackline-cli are
already built (the tests do that, to package what they just built). CMAKE_ARGS adds arguments to
that configure; STACKLINE_WHEEL_BUILD_BASE moves build-wheel/ (the tests build out of the tree).
"""

import os
import re
import shlex
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))
BUILD_BASE = os.environ.get("STACKLINE_WHEEL_BUILD_BASE", "build-wheel")
# Relative to the source folder, as data_files takes it.
CLI = os.path.relpath(os.path.join(ROOT, BUILD_BASE, "cli", "stackline-cli"), ROOT)


def project_version():
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        return re.search(r"project\(stackline VERSION ([0-9.]+)", f.read()).group(1)


class CMakeBuild(build_ext):
    """Builds stackline._core and stackline-cli with CMake and puts them where the wheel takes
    them from."""

    def build_extension(self, ext):
        build_dir = os.environ.get("STACKLINE_BUILD_DIR")
        if not build_dir:
            build_dir = os.path.join(ROOT, BUILD_BASE, "cmake")
            configure = ["cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
                         "-DSTACKLINE_GUI=OFF", "-DCMAKE_DISABLE_FIND_PACKAGE_Qt6=ON",
                         "-DSTACKLINE_PYTHON=ON", f"-DPython3_EXECUTABLE={sys.executable}"]
            if shutil.which("ninja"):
                configure += ["-G", "Ninja"]
            subprocess.check_call(configure + shlex.split(os.environ.get("CMAKE_ARGS", "")))
            subprocess.check_call(["cmake", "--build", build_dir, "--target",
                                   "stackline_core_module", "stackline-cli"])
        module_dir = os.path.join(build_dir, "packaging", "python")
        modules = [f for f in os.listdir(module_dir) if f.startswith("_core.") and f.endswith(".so")]
        if len(modules) != 1:
            raise RuntimeError(f"{module_dir}: expected one built _core module, found {modules}"
                               " (configure with pybind11-dev and python3-dev installed)")
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(os.path.join(module_dir, modules[0]), target)
        os.makedirs(os.path.dirname(os.path.join(ROOT, CLI)), exist_ok=True)
        shutil.copy2(os.path.join(build_dir, "app", "stackline-cli", "stackline-cli"),
                     os.path.join(ROOT, CLI))


setup(
    version=project_version(),
    package_dir={"": "packaging/python"},
    packages=["stackline"],
    py_modules=["stackline_handler"],
    ext_modules=[Extension("stackline._core", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    data_files=[("bin", [CLI])],
    options={"build": {"build_base": BUILD_BASE}, "egg_info": {"egg_base": BUILD_BASE}},
    zip_safe=False,
)
