#!/bin/sh
# Runs an MPI test program and checks its exit status and what it printed:
#   test_mpi_writers.sh WANT REFUSE -- COMMAND...
# WANT: an extended regular expression the output must contain; REFUSE: one
# it must not (either may be "-" for none). stdout and stderr both count.
set -u
want=$1 refuse=$2
shift 3
# Open MPI's session directory of its own: mpiruns that start at the same
# instant race to create /tmp/ompi.HOST.UID ("File exists", orte_init fails).
session=$(mktemp -d "${TMPDIR:-/tmp}/sp_mpi_session_XXXXXX")
trap 'rm -rf "$session"' EXIT
OMPI_MCA_orte_tmpdir_base="$session"
export OMPI_MCA_orte_tmpdir_base
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ $rc -ne 0 ]; then echo "FAIL: exit status $rc"; exit 1; fi
if [ "$want" != "-" ] && ! printf '%s\n' "$out" | grep -Eq -- "$want"; then
    echo "FAIL: the output lacks: $want"; exit 1
fi
if [ "$refuse" != "-" ] && printf '%s\n' "$out" | grep -Eq -- "$refuse"; then
    echo "FAIL: the output has: $refuse"; exit 1
fi
echo "PASS"
