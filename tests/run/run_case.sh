#!/bin/sh
# run_case.sh CASE SCOPE_PROFILER BUILD_DIR PYTHON CHECK_PY: one case of
# tests/run (CMakeLists.txt); exits non-zero with the reason on stderr.
set -u
case_name=$1 tool=$2 bin=$3 python=$4 check=$5
work=$(mktemp -d "${TMPDIR:-/tmp}/sp_run_${case_name}.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
unset SCOPE_PROFILER_OUTPUT SCOPE_PROFILER_QUIET SCOPE_PROFILER_RUN_PID SCOPE_PROFILER_RUN_OUTPUT LD_PRELOAD
fail() { echo "run_$case_name: $*" >&2; exit 1; }
check() { "$python" "$check" "$@" || fail "profile check failed: $*"; }
mpirun_4() {
    n=$1; shift
    root=""; [ "$(id -u)" = 0 ] && root=--allow-run-as-root
    timeout 150 "$SP_RUN_MPIEXEC" --oversubscribe $root -np "$n" "$@"
}
# expect_error STATUS TEXT COMMAND...: exit STATUS, exactly one stderr line containing TEXT
expect_error() {
    want=$1 text=$2; shift 2
    "$@" >out.txt 2>err.txt
    rc=$?
    [ "$rc" = "$want" ] || fail "$*: exit $rc, expected $want"
    [ "$(wc -l <err.txt)" = 1 ] || fail "$*: expected one line on stderr, got: $(cat err.txt)"
    grep -q "$text" err.txt || fail "$*: stderr lacks \"$text\": $(cat err.txt)"
}

# hooked FILE PROGRAM: PROGRAM under `run --quiet --functions -o FILE`; in a sanitizer build
# through LD_PRELOAD by hand, the sanitizer's runtime first
hooked() {
    if [ -n "${SP_RUN_SANITIZER_RUNTIME:-}" ]; then
        LD_PRELOAD="$SP_RUN_SANITIZER_RUNTIME:$SP_RUN_PRELOAD" SCOPE_PROFILER_FUNCTIONS=1 \
            SCOPE_PROFILER_RUN_OUTPUT="$1" SCOPE_PROFILER_RUN_QUIET=1 "$2"
    else
        "$tool" run --quiet --functions -o "$1" -- "$2"
    fi
}

case $case_name in
plain)
    "$tool" run -o plain.h5 -- "$bin/run_plain" >out.txt 2>err.txt || fail "exit $?"
    [ "$(cat out.txt)" = "plain says hello" ] || fail "stdout changed: $(cat out.txt)"
    grep -q "scope_profiler.session" err.txt || fail "no summary on stderr"
    check plain.h5 --exact --ranks 1 scope_profiler.session=1
    "$tool" run --quiet --label first -o 'q_{pid}.h5' -- "$bin/run_plain" >out.txt 2>err.txt
    [ ! -s err.txt ] || fail "--quiet printed: $(cat err.txt)"
    ls q_*.h5 >/dev/null 2>&1 || fail "the {pid} placeholder made no file"
    "$tool" metadata q_*.h5 | grep -q first || fail "--label not stored"
    ;;
exit_status)
    "$tool" run --quiet -o s.h5 -- "$bin/run_plain" 3 >out.txt 2>&1
    [ $? = 3 ] || fail "the program's exit status was not kept"
    check s.h5 --exact scope_profiler.session=1
    ;;
bad_input)
    expect_error 2 "no such file" "$tool" run -- ./missing_program
    expect_error 2 "not found in PATH" "$tool" run -- no_such_command_sp
    printf 'int x;\n' >not_exec && chmod -x not_exec
    expect_error 2 "not an executable" "$tool" run -- ./not_exec
    expect_error 2 "no PROGRAM" "$tool" run --quiet
    expect_error 2 "unknown option" "$tool" run --bogus -- "$bin/run_plain"
    expect_error 2 "needs a value" "$tool" run -o
    ;;
static)
    expect_error 2 "statically linked" "$tool" run -- "$bin/run_static"
    ;;
env_preload)
    env LD_PRELOAD="$SP_RUN_PRELOAD" SCOPE_PROFILER_RUN_OUTPUT=env.h5 SCOPE_PROFILER_RUN_QUIET=1 \
        "$bin/run_plain" >out.txt 2>&1 || fail "exit $?"
    check env.h5 --exact scope_profiler.session=1
    ;;
own_session)
    "$tool" run --quiet -o not_mine.h5 -- "$bin/run_own_session" own.h5 >out.txt 2>&1 ||
        fail "exit $?: $(cat out.txt)"
    [ ! -e not_mine.h5 ] || fail "a second session wrote not_mine.h5"
    check own.h5 --exact scope_profiler.session=1 mine=1
    ;;
fork_exec)
    "$tool" run --quiet -o fork.h5 -- "$bin/run_forker" >out.txt 2>&1 || fail "exit $?"
    grep -q "parent saw 0" out.txt || fail "child failed: $(cat out.txt)"
    check fork.h5 --exact scope_profiler.session=1
    ! ls fork.exec*.h5 >/dev/null 2>&1 || fail "the child was profiled without --follow-exec"
    [ "$(ls | grep -c '\.h5$')" = 1 ] || fail "files: $(ls)"
    "$tool" run --quiet --follow-exec -o follow.h5 -- "$bin/run_forker" >out.txt 2>&1 ||
        fail "exit $?"
    check follow.h5 --exact scope_profiler.session=1
    set -- follow.exec*.h5
    [ $# = 1 ] && [ -e "$1" ] || fail "--follow-exec: expected one child file, got: $(ls)"
    check "$1" --exact scope_profiler.session=1
    ;;
functions)
    SCOPE_PROFILER_THROTTLE_CALLS=0 "$tool" run --quiet --functions -o fn.h5 -- \
        "$bin/run_functions" >out.txt 2>err.txt || fail "exit $?: $(cat err.txt)"
    check fn.h5 --exact main=1 square=3 fib=177 lib_scale=3 tiny=5000
    "$tool" run --quiet --include 'f*' --include 'lib_*' -o inc.h5 -- "$bin/run_functions" \
        >out.txt 2>&1 || fail "exit $?"
    check inc.h5 --exact fib=177 lib_scale=3
    "$tool" run --quiet --functions --exclude 'tiny' --exclude 'sq*' -o exc.h5 -- \
        "$bin/run_functions" >out.txt 2>&1 || fail "exit $?"
    check exc.h5 --exact main=1 fib=177 lib_scale=3
    ;;
throttle)
    SCOPE_PROFILER_THROTTLE_CALLS=1024 SCOPE_PROFILER_THROTTLE_NS=100000 "$tool" run \
        --functions -o th.h5 -- "$bin/run_functions" >out.txt 2>err.txt || fail "exit $?"
    grep -q "1 function(s) throttled" err.txt || fail "no throttling note: $(cat err.txt)"
    grep -q "tiny \[throttled: +3976 calls" err.txt || fail "the table lacks the note"
    check th.h5 --exact main=1 square=3 fib=177 lib_scale=3 'tiny [throttled: +3976 calls*=1024'
    ;;
threads)
    # four threads at once, every call recorded; then tiny throttled by whichever thread passes
    # 1,024 calls first: the others' calls from then on are counted, so that recorded and
    # counted calls still add up to 4 x 5,000
    SCOPE_PROFILER_THROTTLE_CALLS=0 hooked thr.h5 "$bin/run_threads" >out.txt 2>err.txt ||
        fail "exit $?: $(cat err.txt)"
    [ "$(cat out.txt)" = "threads total 50350220" ] || fail "stdout: $(cat out.txt)"
    check thr.h5 --exact main=1 worker=4 ping=1200 pong=1200 fib=708 tiny=20000
    SCOPE_PROFILER_THROTTLE_CALLS=1024 SCOPE_PROFILER_THROTTLE_NS=100000 \
        hooked tt.h5 "$bin/run_threads" >out.txt 2>err.txt || fail "exit $?: $(cat err.txt)"
    check tt.h5 main=1 worker=4 ping=1200 pong=1200 fib=708
    "$python" - "$check" tt.h5 <<'EOF' || fail "throttled calls do not add up"
import os, re, sys
sys.path.insert(0, os.path.dirname(sys.argv[1]))
from check_profile import load
regions, _ = load(sys.argv[2])
[name] = [n for n in regions if n.startswith("tiny [throttled: +")]
counted = int(re.match(r"tiny \[throttled: \+(\d+) calls", name).group(1))
recorded = regions[name]["calls"]
if recorded < 1024 or recorded + counted != 20000:
    sys.exit(f"{name}: {recorded} recorded + {counted} counted, expected 20000")
EOF
    ;;
deep)
    # main is level 1: down() is recorded on levels 2 to 1,024 (1,023 calls a descent), not
    # the 477 below nor bottom(); after() is recorded again, so the stack was kept in step
    SCOPE_PROFILER_THROTTLE_CALLS=0 hooked deep.h5 "$bin/run_deep" >out.txt 2>err.txt ||
        fail "exit $?: $(cat err.txt)"
    [ "$(cat out.txt)" = "deep total 3008" ] || fail "stdout: $(cat out.txt)"
    check deep.h5 --exact main=1 down=2046 after=3
    ;;
cxx)
    "$tool" run --quiet --functions -o cxx.h5 -- "$bin/run_templates" >out.txt 2>err.txt ||
        fail "exit $?: $(cat err.txt)"
    [ "$(cat out.txt)" = "caught 2, 4 3.0" ] || fail "stdout: $(cat out.txt)"
    check cxx.h5 --exact main=1 'thrower(int)=8' 'int twice<int>(int)=1' \
        'double twice<double>(double)=1'
    ;;
openmp)
    OMP_NUM_THREADS=2 "$tool" run --quiet --functions -o omp.h5 -- "$bin/run_openmp" \
        >out.txt 2>err.txt || fail "exit $?: $(cat err.txt)"
    # GCC does not instrument the outlined body (main._omp_fn.0): work() on both threads
    check omp.h5 --exact main=1 work=8
    ;;
signal)
    # SIGTERM ends the program inside work(): its status stays the signal's, the journal is
    # kept, and recover gives the five leaf() calls under their names
    "$tool" run --quiet --functions -o sig.h5 -- "$bin/run_signal" >out.txt 2>err.txt
    rc=$?
    [ "$rc" = 143 ] || fail "exit $rc, expected 143 (SIGTERM): $(cat err.txt)"
    [ "$(cat out.txt)" = "signal: 30, terminating" ] || fail "stdout: $(cat out.txt)"
    [ ! -e sig.h5 ] || fail "a profile was written although the program was killed"
    set -- sig.h5.journal-*
    [ -f "$1" ] || fail "no journal kept: $(ls)"
    "$tool" recover "$1" -o rec.h5 >rec.txt 2>&1 || fail "recover failed: $(cat rec.txt)"
    grep -q "received signal 15 (SIGTERM)" rec.txt || fail "recover does not name the signal: $(cat rec.txt)"
    check rec.h5 --exact leaf=5
    ;;
ompt)
    "$tool" run --quiet -o ompt.h5 -- "$bin/run_ompt" >out.txt 2>err.txt || fail "exit $?: $(cat err.txt)"
    [ "$(cat out.txt)" = "ompt done on 3 threads" ] || fail "stdout: $(cat out.txt)"
    [ ! -s err.txt ] || fail "stderr: $(cat err.txt)"
    check ompt.h5 --exact "omp parallel @ main=2" "omp implicit task @ main=6" \
        "omp barrier wait=6" "omp parallel @ sweep=1" "omp implicit task @ sweep=3"
    # the tree: every thread's task under the construct that forked it, the waits inside
    "$tool" export folded ompt.h5 -o - 2>/dev/null | sed 's/ [0-9]*$//' >stacks.txt
    printf '%s\n' "scope_profiler.session" "scope_profiler.session;omp parallel @ main" \
        "scope_profiler.session;omp parallel @ main;omp implicit task @ main" \
        "scope_profiler.session;omp parallel @ main;omp implicit task @ main;omp barrier wait" \
        "scope_profiler.session;omp parallel @ sweep" \
        "scope_profiler.session;omp parallel @ sweep;omp implicit task @ sweep" >want.txt
    diff want.txt stacks.txt >&2 || fail "call paths differ (above)"
    # OpenMP thread t sleeps 20 + 40 t ms before the barrier, twice (the file's thread
    # numbers follow the order the threads first recorded): own times 40 to 200 ms, and
    # the busiest thread waits least
    "$tool" events ompt.h5 --format csv >ev.csv || fail "events failed"
    awk -F, '$1 == "omp implicit task @ main" { own[$7 + 0] += $6 }
             $1 == "omp barrier wait" { wait[$7 + 0] += $6; own[$7 + 0] -= $6 }
             END { lo = hi = 0
                   for (t = 1; t < 3; t++) { if (own[t] < own[lo]) lo = t; if (own[t] > own[hi]) hi = t }
                   if (own[hi] - own[lo] < 0.1 || own[hi] < 0.18) { print "own", own[0], own[1], own[2]; exit 1 }
                   if (!(wait[lo] > wait[hi])) { print "waits", wait[0], wait[1], wait[2]; exit 1 } }' ev.csv >&2 ||
        fail "no thread imbalance in the implicit tasks (above)"
    # --no-openmp: the run alone
    "$tool" run --quiet --no-openmp -o off.h5 -- "$bin/run_ompt" >out.txt 2>err.txt || fail "exit $?"
    check off.h5 --exact scope_profiler.session=1
    ;;
mpi_c)
    mpirun_4 4 "$tool" run --quiet -o c.h5 -- "$bin/run_mpi_c" io.dat >out.txt 2>err.txt ||
        fail "exit $?: $(cat err.txt)"
    [ "$(cat out.txt)" = "mpi_c done on 4 ranks" ] || fail "stdout: $(cat out.txt)"
    check c.h5 --exact --ranks 4 scope_profiler.session=4 \
        MPI_Allgatherv=4=8,16,24,32 MPI_Gatherv=4=8,16,24,32 MPI_Scatterv=4=8,16,24,32 \
        MPI_Alltoallv=4=64,64,64,64 MPI_Reduce_scatter=4=32,32,32,32 \
        MPI_Isend=4=24,24,24,24 MPI_Irecv=4=24,24,24,24 MPI_Test=4=0,0,0,0 \
        MPI_Waitall=4=0,0,0,0 MPI_Testall=4=0,0,0,0 MPI_Testany=4=0,0,0,0 \
        MPI_Testsome=4=0,0,0,0 MPI_Send=4=32,32,32,32 MPI_Probe=4=0,0,0,0 \
        MPI_Iprobe=4=0,0,0,0 MPI_Recv=4=32,32,32,32 MPI_Sendrecv_replace=4=64,64,64,64 \
        MPI_Win_fence=12=0,0,0,0 MPI_Put=4=40,40,40,40 MPI_Get=4=40,40,40,40 \
        MPI_Win_lock=4=0,0,0,0 MPI_Accumulate=4=40,40,40,40 MPI_Win_unlock=4=0,0,0,0 \
        MPI_File_open=4=0,0,0,0 MPI_File_write_at_all=4=800,800,800,800 \
        MPI_File_write_at=4=80,80,80,80 MPI_File_iwrite_at=4=80,80,80,80 MPI_Wait=4=0,0,0,0 \
        MPI_File_read_at_all=4=800,800,800,800 MPI_File_read_at=4=80,80,80,80 \
        MPI_File_close=4=0,0,0,0
    ;;
mpi_fortran1 | mpi_fortran2 | mpi_fortran3)
    mpirun_4 4 "$tool" run --quiet -o f.h5 -- "$bin/run_$case_name" >out.txt 2>err.txt ||
        fail "exit $?: $(cat err.txt)"
    [ "$(cat out.txt)" = "fortran done" ] || fail "stdout: $(cat out.txt)"
    check f.h5 --exact --ranks 4 scope_profiler.session=4 MPI_Send=2=56,-,56,- \
        MPI_Recv=2=-,56,-,56 MPI_Allreduce=4=80,80,80,80 MPI_Allgatherv=4=8,16,24,32 \
        MPI_Win_fence=8=0,0,0,0 MPI_Put=4=40,40,40,40 MPI_File_open=4=0,0,0,0 \
        MPI_File_write_at_all=4=800,800,800,800 MPI_File_close=4=0,0,0,0 \
        MPI_Barrier=4=0,0,0,0
    ;;
netpipe)
    # NetPIPE (Debian's netpipe-openmpi), unmodified: same output, MPI calls in the profile
    mpirun_4 2 "$SP_NETPIPE" -n 20 -u 1024 -p 0 -o plain.np >plain.txt 2>/dev/null ||
        fail "netpipe alone failed"
    mpirun_4 2 "$tool" run --quiet -o np.h5 -- "$SP_NETPIPE" -n 20 -u 1024 -p 0 -o plain.np \
        >profiled.txt 2>err.txt || fail "exit $?: $(cat err.txt)"
    sort plain.txt >a.txt && sort profiled.txt >b.txt
    cmp -s a.txt b.txt || fail "the program's output changed: $(diff a.txt b.txt)"
    "$python" - np.h5 <<'PY' || fail "the profile lacks netpipe's MPI calls"
import sys, h5py
f = h5py.File(sys.argv[1], "r")
names = [n.decode() if isinstance(n, bytes) else n for n in f["region_table/names"][:]]
ix = f["rank_region_index"]
calls = {}
for r, c in zip(ix["region_ids"][:], ix["event_counts"][:]):
    calls[names[r]] = calls.get(names[r], 0) + int(c)
assert sorted(set(ix["ranks"][:])) == [0, 1], ix["ranks"][:]
assert calls.get("MPI_Send", 0) > 0 and calls["MPI_Send"] == calls.get("MPI_Recv"), calls
sys.exit(0)
PY
    ;;
*) fail "unknown case" ;;
esac
exit 0
