"""pip install --no-build-isolation ./bindings/python: the scope_profiler module.

It links the libscope_profiler found first of: $SCOPE_PROFILER_PREFIX (an
install prefix), $SCOPE_PROFILER_BUILD_DIR (a build directory of this
checkout), pkg-config scope_profiler, or this checkout's build/ (after
`cmake -S . -B build && cmake --build build`). The library's directory is
the extension's run path, so nothing else needs setting (docs/python.md).
"""

import glob
import os
import shlex
import subprocess

import numpy
from setuptools import Extension, setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKOUT = os.path.normpath(os.path.join(HERE, "..", ".."))


def pkg_config(*args):
    try:
        out = subprocess.run(["pkg-config", *args, "scope_profiler"], capture_output=True,
                             text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return shlex.split(out)


def locate():
    """(include dirs, library dir, CLI path) of the libscope_profiler to link."""
    prefix = os.environ.get("SCOPE_PROFILER_PREFIX")
    if prefix:
        libs = [d for d in glob.glob(os.path.join(prefix, "lib*")) + glob.glob(
            os.path.join(prefix, "lib", "*-linux-gnu"))
            if glob.glob(os.path.join(d, "libscope_profiler.so*"))]
        if not libs:
            raise SystemExit(f"SCOPE_PROFILER_PREFIX={prefix}: no libscope_profiler.so under it")
        return [os.path.join(prefix, "include")], libs[0], os.path.join(prefix, "bin",
                                                                          "scope-profiler")
    build = os.environ.get("SCOPE_PROFILER_BUILD_DIR")
    if build:
        if not glob.glob(os.path.join(build, "libscope_profiler.so*")):
            raise SystemExit(f"SCOPE_PROFILER_BUILD_DIR={build}: no libscope_profiler.so in it")
        return [os.path.join(CHECKOUT, "include")], build, os.path.join(build, "scope-profiler")
    cflags, libdir = pkg_config("--cflags"), pkg_config("--variable=libdir")
    if cflags is not None and libdir:
        prefix = (pkg_config("--variable=prefix") or [""])[0]
        return ([f[2:] for f in cflags if f.startswith("-I")], libdir[0],
                os.path.join(prefix, "bin", "scope-profiler"))
    build = os.path.join(CHECKOUT, "build")
    if glob.glob(os.path.join(build, "libscope_profiler.so*")):
        return [os.path.join(CHECKOUT, "include")], build, os.path.join(build, "scope-profiler")
    raise SystemExit(
        "scope_profiler: libscope_profiler not found. Install the project (cmake --install), "
        "set SCOPE_PROFILER_PREFIX to its prefix, or build this checkout first: "
        "cmake -S . -B build && cmake --build build")


INCLUDES, LIBDIR, CLI = locate()


class build_py_with_info(build_py):
    """Also writes scope_profiler/_build_info.py: the CLI `python3 -m scope_profiler` runs."""

    def run(self):
        super().run()
        target = os.path.join(self.build_lib, "scope_profiler", "_build_info.py")
        with open(target, "w") as f:
            f.write(f"# Written by setup.py: the command-line tool python3 -m scope_profiler runs.\n"
                    f"CLI = {CLI!r}\n")


setup(
    name="scope_profiler",
    version="0.1.0",
    description="The scope-profiler Python API on the C core (libscope_profiler)",
    packages=["scope_profiler"],
    ext_modules=[
        Extension(
            "scope_profiler._core",
            sources=sorted(glob.glob(os.path.join("src", "*.c"))),
            include_dirs=INCLUDES + [numpy.get_include()],
            library_dirs=[LIBDIR],
            runtime_library_dirs=[LIBDIR],
            libraries=["scope_profiler"],
            extra_compile_args=["-std=gnu11"],
        )
    ],
    cmdclass={"build_py": build_py_with_info},
    python_requires=">=3.9",
    install_requires=["numpy"],
)
