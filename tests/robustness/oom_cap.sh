#!/bin/sh
# Out of memory at finalize never loses the run (issue 22 item 1): under an
# address-space cap (prlimit --as, what `ulimit -v` and batch systems set) a
# run that fills the cap with its calls still gets its profile, every call
# either in it or counted as not stored; a finalize that fails anyway (its
# reserve switched off) keeps the journal and names the recover command,
# which gives back every recorded call. Journal and memory modes.
#
#   oom_cap.sh CLI OOM_CHILD [CALLS] [CAPS_MB]
set -u
cli=$1 child=$2
calls=${3:-10000000}
caps=${4:-"96 128 192"}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fails=0 kept=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
py=/usr/bin/python3

count_calls() { # FILE: calls of a and b in the profile
    "$cli" stats "$1" -o - 2>/dev/null | "$py" -c '
import json, sys
s = json.load(sys.stdin)["files"][0]["region_statistics"]
print(sum(s[r]["count"] for r in ("a", "b") if r in s))'
}
not_stored() { # STDERR: the count finalize reported, or 0
    sed -n 's/^scope-profiler: \([0-9]*\) call(s) were counted but not stored.*/\1/p' "$1" |
        head -1 | grep . || echo 0
}

run() { # MODE(1 journal, 0 memory) CAP_MB RESERVE_MB(empty = default)
    d=$tmp/j$1-c$2-r${3:-d}
    mkdir -p "$d"
    if [ -n "$3" ]; then
        SCOPE_PROFILER_FINALIZE_RESERVE_MB=$3 SCOPE_PROFILER_JOURNAL=$1 TMPDIR=$d \
            prlimit --as=$(($2 * 1048576)) "$child" "$d/out.h5" "$calls" >/dev/null 2>"$d/err"
    else
        SCOPE_PROFILER_JOURNAL=$1 TMPDIR=$d \
            prlimit --as=$(($2 * 1048576)) "$child" "$d/out.h5" "$calls" >/dev/null 2>"$d/err"
    fi
    rc=$?
    what="journal=$1 cap=${2}MB reserve=${3:-default}"
    lost=$(not_stored "$d/err")
    journal=$(ls "$d" | grep 'out.h5.journal-' | head -1)
    if [ "$rc" = 0 ]; then
        [ -f "$d/out.h5" ] || { fail "$what: SP_OK but no profile: $(cat "$d/err")"; return; }
        [ -z "$journal" ] || fail "$what: the journal $journal is left after a good finalize"
        got=$(count_calls "$d/out.h5")
        [ "$got" -gt 0 ] && [ $((got + lost)) -eq "$calls" ] ||
            fail "$what: $got calls in the profile + $lost not stored != $calls: $(cat "$d/err")"
        return
    fi
    [ -n "$3" ] || fail "$what: finalize failed (exit $rc) with its reserve: $(cat "$d/err")"
    [ "$1" = 1 ] || return # memory mode, no reserve: nothing to keep, but it said so
    [ -n "$journal" ] || { fail "$what: finalize failed and the journal is gone: $(cat "$d/err")"; return; }
    kept=$((kept + 1))
    grep -qxF "scope-profiler: the journal $d/$journal is kept: scope-profiler recover $d/$journal -o FILE.h5 turns it into a profile" "$d/err" ||
        fail "$what: the kept journal is not named with its recover command: $(cat "$d/err")"
    "$cli" recover "$d/$journal" -o "$d/recovered.h5" >/dev/null 2>"$d/rerr" ||
        { fail "$what: recover failed: $(cat "$d/rerr")"; return; }
    got=$(count_calls "$d/recovered.h5")
    [ "$got" -gt 0 ] && [ $((got + lost)) -eq "$calls" ] ||
        fail "$what: recovered $got calls + $lost not stored != $calls"
}

for mode in 1 0; do
    for cap in $caps; do
        run $mode "$cap" ""
        run $mode "$cap" 0
    done
done
# without the reserve some finalize must have failed, or this test tests nothing
[ "$kept" -gt 0 ] || fail "no finalize failed without its reserve: lower the caps"

# the target's directory is gone: the profile goes to $TMPDIR, under the cap too
d=$tmp/fallback
mkdir -p "$d"
TMPDIR=$d prlimit --as=$((128 * 1048576)) "$child" "$d/missing/out.h5" "$calls" >/dev/null 2>"$d/err"
rc=$?
saved=$(ls "$d" | grep '^out\..*\.h5$' | head -1)
[ -n "$saved" ] && grep -qF "the profile was saved to $d/$saved instead" "$d/err" ||
    fail "no fallback profile in \$TMPDIR (exit $rc): $(cat "$d/err")"

echo "oom_cap: $calls calls, caps $caps MB, $kept failed finalize(s) kept their journal, $fails failure(s)"
[ "$fails" = 0 ]
