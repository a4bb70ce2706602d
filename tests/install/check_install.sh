#!/bin/sh
# Installs the built tree into a scratch prefix, then builds consumers with
# find_package(ScopeProfiler): a C project (shared, static and MPI targets),
# a C++-only and a Fortran-only project (each also with MPI), and the same
# programs with pkg-config, and runs them; where the parallel MPI variant was
# built, also that one (alone, with exactly one HDF5 library).
set -eu
build_dir="$1"
source_dir="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/sp_install_XXXXXX")"
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
cmake --install "$build_dir" --prefix "$prefix" > "$work/install.log"
lib="$prefix/lib"
[ -d "$prefix/lib64" ] && lib="$prefix/lib64"
# No LD_LIBRARY_PATH anywhere: the binaries must find the libraries by rpath.
unset LD_LIBRARY_PATH

consume() { # consume NAME: configure and build tests/install/NAME
    cmake -S "$source_dir/$1" -B "$work/$1" -DCMAKE_PREFIX_PATH="$prefix" > "$work/$1.configure.log" ||
        { cat "$work/$1.configure.log"; exit 1; }
    cmake --build "$work/$1" > "$work/$1.build.log" || { cat "$work/$1.build.log"; exit 1; }
}
consume consumer
"$work/consumer/app" "$work/a.h5"
"$work/consumer/app_static" "$work/b.h5"
"$work/consumer/app_mpi"
# The parallel variant, where it was built: it stands alone, with one HDF5.
one_hdf5() { # one_hdf5 BINARY: exactly one HDF5 C library among its dependencies
    n=$(ldd "$1" | grep -Ec 'libhdf5(_serial|_openmpi|_mpich)?\.so')
    [ "$n" -eq 1 ] || { echo "$1 loads $n HDF5 libraries:"; ldd "$1" | grep hdf5; exit 1; }
}
if [ -f "$lib/pkgconfig/scope_profiler_mpi_parallel.pc" ]; then
    "$work/consumer/app_mpi_parallel"
    one_hdf5 "$work/consumer/app_mpi_parallel"
    if ldd "$work/consumer/app_mpi_parallel" | grep -q 'libscope_profiler\.so'; then
        echo "app_mpi_parallel also loads libscope_profiler (serial HDF5)"; exit 1
    fi
fi
if command -v c++ > /dev/null && [ -f "$prefix/include/scope_profiler.hpp" ]; then
    consume consumer_cxx
    "$work/consumer_cxx/app_cxx" "$work/cxx.h5"
    "$work/consumer_cxx/app_cxx_mpi"
fi
fortran=""
if [ -f "$lib/pkgconfig/scope_profiler_fortran.pc" ]; then
    consume consumer_fortran
    "$work/consumer_fortran/app_fortran" "$work/f.h5"
    "$work/consumer_fortran/app_fortran_mpi"
    if [ -f "$lib/pkgconfig/scope_profiler_mpi_parallel_fortran.pc" ]; then
        "$work/consumer_fortran/app_fortran_mpi_parallel"
        one_hdf5 "$work/consumer_fortran/app_fortran_mpi_parallel"
    fi
    fortran=yes
fi

# scope-profiler run preloads the installed library, found beside the installed tool.
preloaded=$("$prefix/bin/scope-profiler" run --quiet -o "$work/run.h5" -- sh -c 'echo "$LD_PRELOAD"')
case $preloaded in
"$lib/libscope_profiler_preload.so"* | "$prefix/bin/../${lib#"$prefix"/}/libscope_profiler_preload.so"*) ;;
*) echo "scope-profiler run preloaded \"$preloaded\", not $lib/libscope_profiler_preload.so"; exit 1 ;;
esac
"$prefix/bin/scope-profiler" run --quiet -o "$work/run.h5" -- "$work/consumer/app" "$work/own.h5"
[ -f "$work/own.h5" ] || { echo "scope-profiler run (installed): the program's own profile is missing"; exit 1; }

PKG_CONFIG_PATH="$lib/pkgconfig"
export PKG_CONFIG_PATH
# The installed .pc files name the real directories: no "pkgconfig/../.." in
# any program's run path. A moved install is found with --define-prefix.
for pc in "$lib"/pkgconfig/scope_profiler*.pc; do
    m=$(basename "$pc" .pc)
    [ "$(pkg-config --variable=libdir "$m")" = "$lib" ] ||
        { echo "$m.pc: libdir $(pkg-config --variable=libdir "$m"), expected $lib"; exit 1; }
    case "$(pkg-config --libs "$m")" in
    *..*) echo "$m.pc: --libs has a relative path: $(pkg-config --libs "$m")"; exit 1 ;;
    esac
done
cp -a "$prefix" "$work/moved"
moved=$(PKG_CONFIG_PATH="$work/moved/${lib#"$prefix"/}/pkgconfig" pkg-config --define-prefix --variable=libdir scope_profiler)
[ "$moved" = "$work/moved/${lib#"$prefix"/}" ] || { echo "--define-prefix of a moved install: libdir $moved"; exit 1; }
rm -rf "$work/moved"
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
if [ -f "$lib/pkgconfig/scope_profiler_mpi_parallel.pc" ]; then
    # shellcheck disable=SC2046
    cc -o "$work/app_mpi_parallel_pc" "$source_dir/consumer/app_mpi.c" \
        $(pkg-config --cflags --libs scope_profiler_mpi_parallel)
    "$work/app_mpi_parallel_pc"
    one_hdf5 "$work/app_mpi_parallel_pc"
fi
if [ -d "$work/consumer_cxx" ]; then
    # shellcheck disable=SC2046
    c++ -std=c++11 -o "$work/app_cxx_pc" "$source_dir/consumer_cxx/app.cpp" \
        $(pkg-config --cflags --libs scope_profiler)
    "$work/app_cxx_pc" "$work/cxx_pc.h5"
fi
if [ -n "$fortran" ]; then
    # shellcheck disable=SC2046
    gfortran -cpp -ffree-line-length-none -o "$work/app_f_pc" \
        "$source_dir/consumer_fortran/app.F90" $(pkg-config --cflags --libs scope_profiler_fortran)
    "$work/app_f_pc" "$work/f_pc.h5"
    # shellcheck disable=SC2046
    mpif90 -o "$work/app_f_mpi_pc" "$source_dir/consumer_fortran/app_mpi.f90" \
        $(pkg-config --cflags --libs scope_profiler_mpi_fortran)
    "$work/app_f_mpi_pc"
    if [ -f "$lib/pkgconfig/scope_profiler_mpi_parallel_fortran.pc" ]; then
        # shellcheck disable=SC2046
        mpif90 -o "$work/app_f_mpi_parallel_pc" "$source_dir/consumer_fortran/app_mpi.f90" \
            $(pkg-config --cflags --libs scope_profiler_mpi_parallel_fortran)
        "$work/app_f_mpi_parallel_pc"
        one_hdf5 "$work/app_f_mpi_parallel_pc"
    fi
fi
echo "install, find_package (C, C++, Fortran; serial and MPI) and pkg-config: passed"
