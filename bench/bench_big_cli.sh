#!/bin/sh
# bench_big_cli.sh: inspect, stats and report of a many-rank profile in time
# and memory (issue 29, item 6; targets 3 s and 1 GB each at 16,384 x 200 x 2).
# Writes the file with bench_big_read (which prints its open/summary times and
# the bytes per call), then prints per command the wall and CPU seconds and
# the peak resident size (GNU time's %M).
#   bench/bench_big_cli.sh [RANKS [REGIONS [CALLS [BUILD_DIR]]]]
#   (default 16384 200 2 build)
set -eu
export SCOPE_PROFILER_CLI_TIMEOUT=0
ranks=${1:-16384}
regions=${2:-200}
per_row=${3:-2}
build=${4:-build}
cli=$build/scope-profiler
work=$(mktemp -d "${TMPDIR:-/tmp}/bench_big_cli.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
file=$work/profile.h5
calls=$((ranks * regions * per_row))
"$build/bench/bench_big_read" "$ranks" "$regions" "$per_row" "$file"
. "$(dirname "$0")/bench_time.sh"
bench_header
bench_run inspect "$cli" inspect "$file"
bench_run stats "$cli" stats "$file" -o "$work/region_statistics.json"
bench_run report "$cli" report "$file" -o "$work/report.html"
