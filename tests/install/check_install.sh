#!/bin/sh
# Installs the built tree into a scratch prefix, then builds a consumer with
# find_package(ScopeProfiler) (shared, static and MPI targets) and another
# with pkg-config, and runs them.
set -eu
build_dir="$1"
source_dir="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/sp_install_XXXXXX")"
trap 'rm -rf "$work"' EXIT
cmake --install "$build_dir" --prefix "$work/prefix" > "$work/install.log"
cmake -S "$source_dir/consumer" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$work/prefix" \
      > "$work/configure.log"
cmake --build "$work/consumer" > "$work/build.log"
# No LD_LIBRARY_PATH anywhere: the binaries must find the libraries by rpath.
unset LD_LIBRARY_PATH
"$work/consumer/app" "$work/a.h5"
"$work/consumer/app_static" "$work/b.h5"
"$work/consumer/app_mpi"
PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"
export PKG_CONFIG_PATH
# shellcheck disable=SC2046
cc -o "$work/app_pc" "$source_dir/consumer/app.c" $(pkg-config --cflags --libs scope_profiler)
"$work/app_pc" "$work/c.h5"
# The MPI module names no particular MPI implementation's module (ompi-c,
# mpich): its flags come from the MPI the library was built with.
if pkg-config --print-requires scope_profiler_mpi | grep -Eq 'ompi|mpich'; then
    echo "scope_profiler_mpi.pc requires an MPI implementation's module:" \
         "$(pkg-config --print-requires scope_profiler_mpi)"
    exit 1
fi
# shellcheck disable=SC2046
cc -o "$work/app_mpi_pc" "$source_dir/consumer/app_mpi.c" $(pkg-config --cflags --libs scope_profiler_mpi)
"$work/app_mpi_pc"
echo "install, find_package and pkg-config: passed"
