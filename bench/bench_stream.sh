#!/bin/sh
# bench_stream.sh: the analysis of a large file in time and memory (issue 29,
# item 5). Writes a synthetic profile of MILLIONS million calls (100 ranks x
# 100 regions x MILLIONS*100 calls per row; bench_make_profile), then runs
# events, every export, plot gantt, inspect and stats on it, each into
# /dev/null or a scratch directory, and prints per command the wall and CPU
# seconds and the peak resident size (GNU time's %M), in MB and bytes per call.
#   bench/bench_stream.sh [MILLIONS [BUILD_DIR]]      (default 20, build)
# Needs /usr/bin/time and about 40 bytes per call of free disk in $TMPDIR.
set -eu
# a 100 M-call export on a loaded machine can outlast the CLI's 600 s read guard
export SCOPE_PROFILER_CLI_TIMEOUT=0
millions=${1:-20}
build=${2:-build}
cli=$build/scope-profiler
make=$build/bench/bench_make_profile
work=$(mktemp -d "${TMPDIR:-/tmp}/bench_stream.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
file=$work/profile.h5
calls=$((millions * 1000000))
"$make" 100 100 $((millions * 100)) "$file"
. "$(dirname "$0")/bench_time.sh"
bench_header
run() { bench_run "$@"; }
run events "$cli" events "$file"
for format in chrome-trace perfetto speedscope folded; do
    run "export $format" "$cli" export "$format" "$file" -o - --max-size 0
done
run "plot gantt" "$cli" plot gantt "$file" -o "$work/plots"
run inspect "$cli" inspect "$file"
run stats "$cli" stats "$file" -o "$work/region_statistics.json"
