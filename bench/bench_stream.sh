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
printf '%-24s %9s %9s %10s %10s\n' command "wall s" "CPU s" "peak MB" "peak B/call"
run() {
    name=$1
    shift
    if /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$@" > /dev/null 2> "$work/err"; then
        status=ok
    else
        status="failed: $(head -c 200 "$work/err" | tr '\n' ' ')"
    fi
    # GNU time puts "Command exited with non-zero status N" first when the command fails
    read -r wall user sys kib <<EOF_TIME
$(tail -n 1 "$work/time")
EOF_TIME
    awk -v n="$name" -v w="$wall" -v u="$user" -v s="$sys" -v k="$kib" -v c="$calls" \
        -v st="$status" 'BEGIN { printf "%-24s %9.2f %9.2f %10.1f %10.2f %s\n",
                                 n, w, u + s, k / 1024, k * 1024 / c, (st == "ok" ? "" : st) }'
}
run events "$cli" events "$file"
for format in chrome-trace perfetto speedscope folded; do
    run "export $format" "$cli" export "$format" "$file" -o - --max-size 0
done
run "plot gantt" "$cli" plot gantt "$file" -o "$work/plots"
run inspect "$cli" inspect "$file"
run stats "$cli" stats "$file" -o "$work/region_statistics.json"
