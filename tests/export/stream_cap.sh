#!/bin/sh
# stream_cap.sh CLI MAKE_PROFILE (issue 29 item 5): events, the exports and
# plot gantt of a CALLS-call file under an address-space cap (prlimit --as)
# of CAP_MB, far below the 16 bytes per call a whole read holds. Each must
# complete and write exactly what the whole read writes without the cap
# (SCOPE_PROFILER_STREAM=0); the whole read must fail under the cap, or the
# cap proves nothing.
set -eu
cli=$1
make=$2
ranks=10 regions=50 per_row=12000 # 6,000,000 calls
cap_mb=56                         # 9.8 bytes per call
calls=$((ranks * regions * per_row))
d=$(mktemp -d "${TMPDIR:-/tmp}/stream_cap.XXXXXX")
trap 'rm -rf "$d"' EXIT INT TERM
"$make" $ranks $regions $per_row "$d/p.h5"
cap=$((cap_mb * 1048576))
echo "$calls calls, cap $cap_mb MiB = $(awk -v c=$cap -v n=$calls 'BEGIN { printf "%.1f", c / n }') bytes per call"
if SCOPE_PROFILER_STREAM=0 prlimit --as=$cap "$cli" events "$d/p.h5" >/dev/null 2>"$d/err"; then
    echo "FAIL: the whole read fits under the cap; raise the calls or lower the cap"
    exit 1
fi
grep -q "out of memory" "$d/err" || { echo "FAIL: whole read under the cap: $(cat "$d/err")"; exit 1; }
fail=0
check() { # NAME ARGS...: stdout of the capped streamed run against the uncapped whole run
    name=$1
    shift
    want=$(SCOPE_PROFILER_STREAM=0 "$cli" "$@" 2>/dev/null | sha256sum)
    if got=$(prlimit --as=$cap "$cli" "$@" 2>"$d/err" | sha256sum) &&
        [ "$got" = "$want" ]; then
        echo "ok   $name"
    else
        echo "FAIL $name: $(head -c 300 "$d/err")"
        fail=1
    fi
}
check events events "$d/p.h5"
for format in chrome-trace perfetto speedscope folded; do
    check "export $format" export $format "$d/p.h5" -o - --max-size 0
done
check "export folded --max-events" export folded "$d/p.h5" -o - --max-events 1000 --max-size 0
# gantt writes a file: compare the files
SCOPE_PROFILER_STREAM=0 "$cli" plot gantt "$d/p.h5" -o "$d/whole" >/dev/null
if prlimit --as=$cap "$cli" plot gantt "$d/p.h5" -o "$d/capped" >/dev/null 2>"$d/err" &&
    cmp -s "$d/whole/gantt.svg" "$d/capped/gantt.svg"; then
    echo "ok   plot gantt"
else
    echo "FAIL plot gantt: $(head -c 300 "$d/err")"
    fail=1
fi
exit $fail
