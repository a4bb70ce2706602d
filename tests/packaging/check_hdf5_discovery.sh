#!/bin/sh
# The build configures wherever HDF5 comes from: without any HDF5 pkg-config
# module (CMake's FindHDF5, as on RHEL or with modules; then the library is
# built and linked), and with only a module named `hdf5` (Spack, conda).
set -eu
source_dir="$1"
work="$(mktemp -d "${TMPDIR:-/tmp}/sp_hdf5_XXXXXX")"
trap 'rm -rf "$work"' EXIT
# A pkg-config search path holding every system module except HDF5's.
mkdir "$work/pc_none" "$work/pc_hdf5"
for dir in $(pkg-config --variable pc_path pkg-config | tr ':' ' '); do
    [ -d "$dir" ] || continue
    for pc in "$dir"/*.pc; do
        [ -e "$pc" ] || continue
        case "$(basename "$pc")" in hdf5*) continue ;; esac
        cp -n "$pc" "$work/pc_none/" 2>/dev/null || true
        cp -n "$pc" "$work/pc_hdf5/" 2>/dev/null || true
    done
done
cp "$(pkg-config --variable pcfiledir hdf5-serial)/hdf5-serial.pc" "$work/pc_hdf5/hdf5.pc"
options="-DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF -DSP_BUILD_BENCH=OFF -DSP_BUILD_MPI=OFF"

# shellcheck disable=SC2086
PKG_CONFIG_LIBDIR="$work/pc_none" cmake -S "$source_dir" -B "$work/b_none" $options \
    > "$work/none.log" 2>&1 || { echo "configure without an HDF5 module failed:"; cat "$work/none.log"; exit 1; }
grep -q "(FindHDF5)" "$work/none.log" || { echo "FindHDF5 was not used:"; cat "$work/none.log"; exit 1; }
PKG_CONFIG_LIBDIR="$work/pc_none" cmake --build "$work/b_none" --target scope_profiler -j2 \
    > "$work/none_build.log" 2>&1 || { echo "build with FindHDF5's HDF5 failed:"; tail -20 "$work/none_build.log"; exit 1; }
grep -q 'hdf5' "$work/b_none/scope_profiler.pc" || { echo "scope_profiler.pc names no HDF5"; exit 1; }

# shellcheck disable=SC2086
PKG_CONFIG_LIBDIR="$work/pc_hdf5" cmake -S "$source_dir" -B "$work/b_hdf5" $options \
    > "$work/hdf5.log" 2>&1 || { echo "configure with hdf5.pc failed:"; cat "$work/hdf5.log"; exit 1; }
grep -q "pkg-config module hdf5)" "$work/hdf5.log" || { echo "hdf5.pc was not used:"; cat "$work/hdf5.log"; exit 1; }
grep -q '^Requires.private: hdf5 ' "$work/b_hdf5/scope_profiler.pc" ||
    { echo "scope_profiler.pc does not require hdf5:"; cat "$work/b_hdf5/scope_profiler.pc"; exit 1; }
echo "HDF5 found through FindHDF5 and through hdf5.pc"
