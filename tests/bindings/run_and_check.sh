#!/bin/sh
# Runs an example that writes FILE, then check_tutorial on it:
#   run_and_check.sh FILE NP PROGRAM CHECKER LANGUAGE SETUP TIMESTEP ASSEMBLE SOLVE [INNER]
# NP 0 runs the program directly; otherwise under $SP_MPIEXEC (with its flags) with NP ranks.
set -eu
file="$1" np="$2" program="$3" checker="$4" language="$5"
shift 5
rm -f "$file"
if [ "$np" -eq 0 ]; then
    "$program" "$file" quiet
    ranks=1
else
    # shellcheck disable=SC2086
    $SP_MPIEXEC -np "$np" "$program" "$file" quiet
    ranks="$np"
fi
"$checker" "$file" "$language" "$ranks" "$@"
