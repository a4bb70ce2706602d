#!/bin/sh
# One viewer test: exports PROFILE as FORMAT with the built scope-profiler and
# opens the result in speedscope (view_in_speedscope.js).
#
#   run_viewer_test.sh BIN_DIR WORK_DIR FORMAT PROFILE TITLE FRAME...
set -eu
bin=$1 work=$2 format=$3 profile=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -d "$here/node_modules/playwright-core" ] || [ ! -d "$here/node_modules/speedscope" ]; then
    echo "FAIL: tests/browser/node_modules is missing: run scripts/install-deps (npm ci in tests/browser)"
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin/scope-profiler" export "$format" "$work/$profile" -o "$tmp/export"
node "$here/view_in_speedscope.js" "$tmp/export" "$@" --screenshot "$tmp/view.png"
