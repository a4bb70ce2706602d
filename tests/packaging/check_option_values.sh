#!/bin/sh
# A typo in a build option's value stops the configure with one line that
# names the option and its choices (it used to be accepted silently).
#   check_option_values.sh SOURCE_DIR
set -u
src="$1"
work="$(mktemp -d "${TMPDIR:-/tmp}/sp_options_XXXXXX")"
trap 'rm -rf "$work"' EXIT
status=0
check() { # check OPTION=VALUE EXPECTED-TEXT
    if cmake -S "$src" -B "$work/b" -D"$1" > "$work/log" 2>&1; then
        echo "-D$1 was accepted"; status=1
    elif ! tr '\n' ' ' < "$work/log" | tr -s ' ' | grep -q "$2"; then
        echo "-D$1: no line naming it:"; cat "$work/log"; status=1
    fi
    rm -rf "$work/b"
}
check SP_HDF5_FROM=bogus "SP_HDF5_FROM=bogus is not a way to find HDF5 .*choose one of auto, cmake"
check SP_HDF5_PARALLEL=maybe "SP_HDF5_PARALLEL=maybe is not a choice .*choose one of AUTO, ON, OFF"
check SP_SANITIZE=memory "SP_SANITIZE=memory is not a sanitizer set .*address, thread"
[ $status -eq 0 ] && echo "unknown option values refused"
exit $status
