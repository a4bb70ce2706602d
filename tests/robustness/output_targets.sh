#!/bin/sh
# Writers never replace what is not a regular file (docs/robustness.md):
# FIFOs and character devices are written through, "-" and /dev/stdout go to
# stdout, symbolic links are followed (dangling ones refused), directories
# refused. Every special file is made privately in a temporary directory.
#
#   output_targets.sh CLI DEMO FIXTURES_DIR
set -u
cli=$1
demo=$2
fixture=$3/py_tutorial2.h5
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
export SCOPE_PROFILER_QUIET=1

# A FIFO at the target stays a FIFO, and the reader on the other end gets the file.
fifo_case() { # NAME COMMAND... (the command writes to $dir/fifo)
    name=$1
    shift
    rm -f "$dir/fifo" "$dir/got"
    mkfifo "$dir/fifo" || { fail "$name: mkfifo"; return; }
    timeout 10 cat "$dir/fifo" >"$dir/got" &
    reader=$!
    "$@" >"$dir/out" 2>"$dir/err"
    rc=$?
    wait $reader
    [ "$rc" = 0 ] || fail "$name: exit $rc: $(cat "$dir/err")"
    [ -p "$dir/fifo" ] || fail "$name: the FIFO was replaced"
    [ -s "$dir/got" ] || fail "$name: nothing came through the FIFO"
    ls "$dir"/.fifo.tmp-* >/dev/null 2>&1 && fail "$name: a temporary file was left behind"
}
fifo_case stats "$cli" stats "$fixture" -o "$dir/fifo"
grep -q '"common_regions"' "$dir/got" || fail "stats: the FIFO did not get the JSON"
fifo_case metadata "$cli" metadata "$fixture" -o "$dir/fifo"
grep -q '"metadata"\|"timestamp"\|{' "$dir/got" || fail "metadata: no JSON through the FIFO"
fifo_case export_metadata "$cli" inspect "$fixture" --regions-only --export-metadata "$dir/fifo"
fifo_case merge "$cli" merge "$fixture" -o "$dir/fifo"
"$cli" inspect "$dir/got" --metadata-only >/dev/null 2>&1 || fail "merge: the FIFO's bytes are no profile"
fifo_case library "$demo" "$dir/fifo"
"$cli" inspect "$dir/got" --regions-only >/dev/null 2>&1 || fail "library: the FIFO's bytes are no profile"

# "-" and /dev/stdout: the document on stdout, nothing created.
(cd "$dir" && "$cli" stats "$fixture" -o - >"$dir/stdout.json") || fail "stats -o -"
grep -q '"common_regions"' "$dir/stdout.json" || fail "stats -o -: no JSON on stdout"
(cd "$dir" && "$cli" merge "$fixture" -o - >"$dir/stdout.h5" 2>"$dir/err") || fail "merge -o -: $(cat "$dir/err")"
"$cli" inspect "$dir/stdout.h5" --metadata-only >/dev/null 2>&1 || fail "merge -o -: stdout is no profile"
"$cli" stats "$fixture" -o /dev/stdout >"$dir/devstdout.json" || fail "stats -o /dev/stdout"
grep -q '"common_regions"' "$dir/devstdout.json" || fail "-o /dev/stdout: no JSON"
[ -e "$dir/-" ] && fail "-o - created a file named -"

# A private character device (root only: mknod needs CAP_MKNOD).
if [ "$(id -u)" = 0 ] && mknod "$dir/null" c 1 3 2>/dev/null; then
    "$cli" stats "$fixture" -o "$dir/null" >/dev/null || fail "stats -o device: exit $?"
    "$cli" merge "$fixture" -o "$dir/null" >/dev/null || fail "merge -o device: exit $?"
    "$demo" "$dir/null" >/dev/null || fail "library -o device: exit $?"
    [ -c "$dir/null" ] || fail "the character device was replaced"
else
    echo "note: not root, the character-device case is skipped"
fi

# A symbolic link is followed: the file it names is replaced, the link stays.
echo old >"$dir/real.json"
ln -s real.json "$dir/link.json"
"$cli" stats "$fixture" -o "$dir/link.json" >/dev/null || fail "stats -o symlink: exit $?"
[ -L "$dir/link.json" ] || fail "the symbolic link was replaced"
grep -q '"common_regions"' "$dir/real.json" || fail "the link's file did not get the JSON"
"$demo" "$dir/link.json" >/dev/null || fail "library -o symlink"
[ -L "$dir/link.json" ] || fail "library: the symbolic link was replaced"
"$cli" inspect "$dir/real.json" --metadata-only >/dev/null 2>&1 || fail "library: the link's file is no profile"

# A dangling link and a directory are refused: exit 2, one line, nothing created.
ln -s missing.json "$dir/dangling.json"
"$cli" stats "$fixture" -o "$dir/dangling.json" >/dev/null 2>"$dir/err"
rc=$?
[ "$rc" = 2 ] || fail "dangling link: exit $rc"
grep -q "^scope-profiler: .*symbolic link" "$dir/err" || fail "dangling link: message $(cat "$dir/err")"
[ -e "$dir/missing.json" ] && fail "dangling link: its target was created"
mkdir "$dir/adir"
"$cli" stats "$fixture" -o "$dir/adir" >/dev/null 2>"$dir/err"
rc=$?
[ "$rc" = 2 ] || fail "directory: exit $rc"
grep -q "is a directory" "$dir/err" || fail "directory: message $(cat "$dir/err")"
[ -d "$dir/adir" ] || fail "the directory was replaced"
# export explains a directory and a socket like the other writers (issue 22)
"$cli" export folded "$fixture" -o "$dir/adir" >/dev/null 2>"$dir/err"
rc=$?
[ "$rc" = 2 ] && grep -qxF "scope-profiler: cannot write $dir/adir: it is a directory, not a regular file; choose a file name" "$dir/err" ||
    fail "export to a directory: exit $rc, $(cat "$dir/err")"
/usr/bin/python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$dir/sock"
"$cli" export folded "$fixture" -o "$dir/sock" >/dev/null 2>"$dir/err"
rc=$?
[ "$rc" = 2 ] && grep -qF "it is a special file (a socket?), not a regular file" "$dir/err" ||
    fail "export to a socket: exit $rc, $(cat "$dir/err")"

# SCOPE_PROFILER_OUTPUT naming a missing directory: it is created (issue 28);
# one that cannot be (a file in the way) is named on stderr.
SCOPE_PROFILER_OUTPUT="$dir/new/deeper/" "$demo" >/dev/null 2>"$dir/err" || fail "new directory: exit $?, $(cat "$dir/err")"
"$cli" inspect "$dir/new/deeper/profiling_data.h5" --metadata-only >/dev/null 2>&1 ||
    fail "SCOPE_PROFILER_OUTPUT=new/deeper/: no profile in the new directory"
echo text >"$dir/plain"
SCOPE_PROFILER_OUTPUT="$dir/plain/sub/" SCOPE_PROFILER_QUIET=0 "$demo" >/dev/null 2>"$dir/err"
grep -qF "scope-profiler: cannot create the directory $dir/plain/sub for the profile $dir/plain/sub/profiling_data.h5 (Not a directory)" "$dir/err" ||
    fail "a file in the way of the output directory: $(cat "$dir/err")"

[ "$fails" = 0 ] && echo "output targets: all cases passed"
exit $((fails > 0))
