#!/bin/sh
# `events` shows progress on stderr when stderr is a terminal and the work
# has run SCOPE_PROFILER_PROGRESS_AFTER seconds (2 by default; 0 here), then
# clears the line; never when stderr is not a terminal; stdout is the same.
set -eu
cli="$1"
fixture="$2"
work="$(mktemp -d "${TMPDIR:-/tmp}/sp_prog_XXXXXX")"
trap 'rm -rf "$work"' EXIT
cd "$work"
cp "$fixture" f.h5
"$cli" events f.h5 > plain.csv 2> plain.err
[ ! -s plain.err ] || { echo "FAIL: stderr without a terminal: $(cat plain.err)"; exit 1; }
SCOPE_PROFILER_PROGRESS_AFTER=0 script -qec "'$cli' events f.h5 > tty.csv" typescript > /dev/null
grep -q 'scope-profiler: events: 0 of [0-9]* calls' typescript ||
    { echo "FAIL: no progress line on the terminal:"; cat -v typescript; exit 1; }
cat -v typescript | grep -q '\^M\^\[\[K$' ||
    { echo "FAIL: the progress line was not cleared:"; cat -v typescript; exit 1; }
cmp -s plain.csv tty.csv || { echo "FAIL: stdout differs with progress shown"; exit 1; }
script -qec "'$cli' events f.h5 > tty2.csv" typescript2 > /dev/null
if grep -q 'scope-profiler: events:' typescript2; then
    echo "FAIL: progress shown for work shorter than 2 s"; exit 1
fi
echo "progress: on a terminal only, after the delay, cleared"
