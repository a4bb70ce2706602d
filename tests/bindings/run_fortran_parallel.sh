#!/bin/sh
# The Fortran MPI tutorial linked with libscope_profiler_mpi_parallel_fortran:
#   run_fortran_parallel.sh FILE PROGRAM CHECKER CLI RUN_AND_CHECK
# One HDF5 library (the parallel one) and no libscope_profiler among the
# program's libraries; the profile checked like every tutorial's and written
# by the parallel writer (/metadata mpi_writer).
set -eu
file="$1" program="$2" checker="$3" cli="$4" run_and_check="$5"
libs="$(ldd "$program")"
hdf5="$(printf '%s\n' "$libs" | grep -c 'libhdf5[_a-z]*\.so' || true)"
if [ "$hdf5" -ne 1 ] || ! printf '%s\n' "$libs" | grep -q 'libhdf5_openmpi\.so'; then
    echo "expected exactly one HDF5 library, the parallel one; ldd says:" >&2
    printf '%s\n' "$libs" | grep libhdf5 >&2 || true
    exit 1
fi
if printf '%s\n' "$libs" | grep -q 'libscope_profiler\.so'; then
    echo "libscope_profiler.so (serial HDF5) must not be loaded" >&2
    exit 1
fi
SCOPE_PROFILER_MPI_WRITER=parallel
export SCOPE_PROFILER_MPI_WRITER
sh "$run_and_check" "$file" 2 "$program" "$checker" fortran setup timestep assemble solve residual
writer="$("$cli" metadata "$file" -o - | grep '"mpi_writer"' || true)"
case "$writer" in
*'"parallel"'*) ;;
*)
    echo "the profile was not written by the parallel writer: ${writer:-no mpi_writer}" >&2
    exit 1
    ;;
esac
echo "tutorial_fortran_mpi_parallel: one HDF5 (openmpi), written by the parallel writer"
