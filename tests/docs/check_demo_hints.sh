#!/bin/sh
# The demo's output must leave a new user with commands that work as
# printed: the hints in the summary box (`scope-profiler inspect FILE`, ...)
# once the printed `export PATH=...` line is run, and the by-path command.
set -eu
demo="$1"
work="$(mktemp -d "${TMPDIR:-/tmp}/sp_demo_XXXXXX")"
trap 'rm -rf "$work"' EXIT
cd "$work"
PATH=/usr/bin:/bin "$demo" > out.txt 2>&1
export_line=$(grep -E '^  export PATH=' out.txt) || { echo "no export PATH line:"; cat out.txt; exit 1; }
by_path=$(grep -E '^  /.*/scope-profiler inspect ' out.txt) || { echo "no by-path command:"; cat out.txt; exit 1; }
hints=$(grep -E '^[^a-z]*[A-Z][a-z]+: +scope-profiler ' out.txt |
        grep -oE 'scope-profiler [a-z]+ [^│]*[^│ ]')
[ -n "$hints" ] || { echo "no hints in the summary box:"; cat out.txt; exit 1; }
echo "$hints" | while IFS= read -r hint; do
    PATH=/usr/bin:/bin sh -c "$export_line && $hint" > hint.out 2> hint.err ||
        { echo "hint fails: $hint"; cat hint.err; exit 1; }
done
PATH=/usr/bin:/bin sh -c "$by_path" > /dev/null || { echo "fails: $by_path"; exit 1; }
echo "the demo's hints run as printed"
