# bench_time.sh: sourced by the CLI benchmarks (bench_stream.sh,
# bench_big_cli.sh). bench_run NAME CMD... runs CMD with its output to
# /dev/null under GNU time and prints one line: wall s, CPU s, peak RSS in MB
# and in bytes per call ($calls). Needs $work (a scratch directory).
bench_header() {
    printf 'load average at start: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
    printf '%-24s %9s %9s %10s %10s\n' command "wall s" "CPU s" "peak MB" "peak B/call"
}
bench_run() {
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
