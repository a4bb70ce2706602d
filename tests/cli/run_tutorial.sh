#!/bin/sh
# Runs examples/tutorial_postprocessing in a scratch directory, with a small
# fixed environment (so that the full metadata's extra fields are known),
# and checks its output against tutorial.template: structure and counts
# exactly, times within tolerance (check_template.c).
#
#   run_tutorial.sh EXAMPLE CHECK_TEMPLATE TEMPLATE
set -u
example=$1
checker=$2
template=$3
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
env -i PATH=/usr/bin:/bin USER=tester HOME="$dir" "$example" >out.txt 2>err.txt
rc=$?
if [ "$rc" != 0 ] || [ -s err.txt ]; then
    echo "FAIL: the example exited with $rc:"
    cat err.txt
    exit 1
fi
for f in profiling_data.h5 full.h5 metadata.json region_statistics.json; do
    if [ ! -s "$f" ]; then
        echo "FAIL: the example did not write $f"
        exit 1
    fi
done
"$checker" "$template" out.txt || { echo "--- output:"; cat out.txt; exit 1; }
