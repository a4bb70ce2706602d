#!/bin/sh
# Runs test_fortran, then checks its report and profile with the CLI:
#   test_fortran.sh TEST_FORTRAN SCOPE_PROFILER SOURCE_DIR
set -eu
program="$1" cli="$2" source_dir="$3"
work="$(mktemp -d "${TMPDIR:-/tmp}/sp_fortran_XXXXXX")"
trap 'rm -rf "$work"' EXIT
"$program" "$work/f.h5" > "$work/out" 2> "$work/err" || { cat "$work/out" "$work/err"; exit 1; }
cat "$work/out"
line=$(grep -n "sp_end(h, SP_LOC)" "$source_dir/test_fortran.F90" | cut -d: -f1)
grep -q "sp_end(\"handle\") at .*test_fortran.F90:$line matches no open call" "$work/err" ||
    { echo "mismatch report without the Fortran line $line:"; cat "$work/err"; exit 1; }
"$cli" inspect "$work/f.h5" > "$work/inspect"
grep -q "source_language *: fortran" "$work/inspect" || { echo "language"; exit 1; }
"$cli" inspect "$work/f.h5" --format csv > "$work/csv"
grep -q '^handle,1,7,' "$work/csv" || { echo "handle calls"; cat "$work/csv"; exit 1; }
grep -q '^by name,1,7,' "$work/csv" || { echo "by-name calls"; cat "$work/csv"; exit 1; }
grep -q '^outer,1,1,' "$work/csv" || { echo "outer calls"; cat "$work/csv"; exit 1; }
grep -q '^scope_profiler.session,1,1,' "$work/csv" || { echo "session root"; exit 1; }
[ "$(grep -c . "$work/csv")" -eq 5 ] || { echo "regions"; cat "$work/csv"; exit 1; }
for want in "problem_size *: 64" "cells *: 1000000000000" "dt *: 0.25" "mesh *: ring\$"; do
    grep -q "$want" "$work/inspect" || { echo "metadata $want"; cat "$work/inspect"; exit 1; }
done
"$cli" stats "$work/f.h5" --tag solver -o - | grep -q '"handle"' || { echo "tag"; exit 1; }
echo "test_fortran.sh: passed"
