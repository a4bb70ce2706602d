#!/bin/sh
# Runs test_parallel_writer on NP ranks, then checks the two files it wrote
# independently of our reader: h5dump prints the same text for both (every
# dataset, attribute and value), and h5py finds the same datasets, storage
# and values.
#   test_parallel_writer.sh PROGRAM NP SCALE MPIEXEC [MPIEXEC FLAGS...]
set -eu
program=$1 np=$2 scale=$3
shift 3
dir=$(mktemp -d "${TMPDIR:-/tmp}/sp_writers_XXXXXX")
trap 'rm -rf "$dir"' EXIT
# Open MPI's session directory of its own: mpiruns that start at the same
# instant race to create /tmp/ompi.HOST.UID ("File exists", orte_init fails).
OMPI_MCA_orte_tmpdir_base="$dir"
export OMPI_MCA_orte_tmpdir_base
"$@" -np "$np" "$program" "$dir" "$scale"
h5dump "$dir/stream.h5" | sed 1d >"$dir/stream.txt"
h5dump "$dir/parallel.h5" | sed 1d >"$dir/parallel.txt"
if ! diff "$dir/stream.txt" "$dir/parallel.txt" >"$dir/diff.txt"; then
    echo "h5dump: the files differ:"
    head -40 "$dir/diff.txt"
    exit 1
fi
echo "h5dump: identical ($(wc -l <"$dir/stream.txt") lines)"
/usr/bin/python3 "$(dirname "$0")/compare_h5.py" "$dir/stream.h5" "$dir/parallel.h5"
