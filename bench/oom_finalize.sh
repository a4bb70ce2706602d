#!/bin/sh
# Finalize under address-space caps at full scale (issue 22 item 1): 10 M and
# 90 M calls, journal and memory modes, each cap with and without the
# finalize reserve; prints what the test asserts and how long each size took.
#
#   bench/oom_finalize.sh BUILD_DIR
set -u
b=${1:-build}
here=$(dirname "$0")
for spec in "10000000:96 128 192 256" "90000000:256 512 1024 1536"; do
    calls=${spec%%:*} caps=${spec#*:}
    start=$(date +%s.%N)
    sh "$here/../tests/robustness/oom_cap.sh" "$b/scope-profiler" "$b/tests/robustness/oom_child" \
        "$calls" "$caps"
    rc=$?
    end=$(date +%s.%N)
    echo "$calls calls: exit $rc, $(echo "$end - $start" | bc) s"
done
