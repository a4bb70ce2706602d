#!/bin/sh
# Control characters and escape sequences in names and metadata never reach
# the terminal: the table, inspect and diff show them as visible escapes
# (docs/robustness.md, "Terminal output"); CSV stays valid UTF-8.
#
#   terminal.sh CLI MAKE_NAMED
set -u
cli=$1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
cd "$tmp" || exit 1
esc=$(printf '\033')
SCOPE_PROFILER_LABEL="$(printf 'lab\033]0;pwned\007el')" \
    "$2" a.h5 'red\e[31mtext' 'tab\there' 'bell\x07' 'csi\xc2\x9b2J' 'bad\xff' 'ok' ||
    { echo "cannot write a.h5"; exit 1; }
"$2" b.h5 'ok' 'only\e[2Jb' || { echo "cannot write b.h5"; exit 1; }

no_control() { # FILE WHAT: no ESC, BEL, C1 CSI, tab or stray byte
    if LC_ALL=C grep -q "[$esc$(printf '\007\t')]" "$1" || grep -qF "$(printf '\302\233')" "$1"; then
        fail "$2: control characters reach the terminal: $(od -c "$1" | head -20)"
    fi
    iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1 || fail "$2: not valid UTF-8"
}

"$cli" inspect a.h5 --regions-only --columns region --suppress-notes --ascii >table.txt 2>err ||
    fail "inspect: $(cat err)"
no_control table.txt "inspect table"
cat >expected.txt <<'END'
  +------------------------+
  | region                 |
  +------------------------+
  | scope_profiler.session |
  | \- (own)               |
  | \- red\x1b[31mtext     |
  | \- tab\there           |
  | \- bell\x07            |
  | \- csi\u009b2J         |
  | \- bad\xff             |
  | \- ok                  |
  +------------------------+

END
# the header's title line, then the table (the header's other lines hold sizes)
sed -n '/^  +/,$p' table.txt >table_only.txt
cmp -s table_only.txt expected.txt || fail "inspect table: $(diff expected.txt table_only.txt)"
grep -qxF 'lab\x1b]0;pwned\x07el - a.h5' table.txt || fail "inspect title: $(head -3 table.txt)"

"$cli" inspect a.h5 --metadata-only >meta.txt 2>err || fail "inspect metadata: $(cat err)"
no_control meta.txt "inspect metadata"
grep -q '^    label *: lab\\x1b\]0;pwned\\x07el$' meta.txt || fail "metadata label: $(grep label meta.txt)"

"$cli" diff a.h5 b.h5 --metric calls >diff.txt 2>err || fail "diff: $(cat err)"
no_control diff.txt diff
grep -qxF '  Only in a: bad\xff, bell\x07, csi\u009b2J, red\x1b[31mtext, tab\there' diff.txt ||
    fail "diff only in a: $(grep 'Only in' diff.txt)"
grep -qxF 'a: lab\x1b]0;pwned\x07el - a.h5 (1 rank)' diff.txt || fail "diff title: $(grep '^a:' diff.txt)"
grep -qF '│ red\x1b[31mtext        │ 1 ' diff.txt || fail "diff row: $(grep red diff.txt)"
grep -qxF '  Only in b: only\x1b[2Jb' diff.txt || fail "diff only in b: $(grep 'Only in' diff.txt)"

# CSV keeps the names (it is data), as valid UTF-8
"$cli" inspect a.h5 --format csv >rows.csv 2>err || fail "csv: $(cat err)"
iconv -f UTF-8 -t UTF-8 rows.csv >/dev/null 2>&1 || fail "rows.csv is not valid UTF-8"

# Every other text output, every field (issue 22 item 5): thread names, file
# names (titles, "written to" lines, error lines), region names in the
# balance and source sections, check's titles, recover's lines.
bel=$(printf '\007')
bad="x${esc}]0;t${bel}$(printf '\302\233')2J"
MAKE_NAMED_THREAD='th\e]0;pwned\x07\xc2\x9b2J' "$2" c.h5 'ok' 'red\e[31mtext' ||
    { echo "cannot write c.h5"; exit 1; }
cp c.h5 "$bad.h5"
"$cli" inspect c.h5 >threads.txt 2>&1 || fail "inspect threads: $(cat threads.txt)"
no_control threads.txt "inspect threads"
grep -qF 'th\x1b]0;pwned\x07\u009b2J' threads.txt || fail "thread name: $(grep -A3 Threads threads.txt)"
"$cli" inspect "$bad.h5" >title.txt 2>&1 || fail "inspect file name: $(cat title.txt)"
no_control title.txt "inspect of a file with controls in its name"
"$cli" check c.h5 "$bad.h5" >check.txt 2>&1
no_control check.txt check
grep -qF 'x\x1b]0;t\x07\u009b2J' check.txt || fail "check title: $(head -3 check.txt)"
for cmd in "stats" "metadata" "plot gantt" "report"; do
    # shellcheck disable=SC2086
    "$cli" $cmd c.h5 -o "$bad.$(echo $cmd | tr ' ' _)" >written.txt 2>&1 ||
        fail "$cmd -o: $(cat written.txt)"
    no_control written.txt "$cmd's written-to line"
done
"$cli" export folded c.h5 -o "$bad.folded" >export.txt 2>&1 || fail "export: $(cat export.txt)"
no_control export.txt "export"
printf 'not a profile' >"$bad.damaged.h5"
"$cli" inspect "$bad.damaged.h5" >error.txt 2>&1 && fail "a damaged file was read"
no_control error.txt "an error line"
grep -qF 'x\x1b]0;t\x07\u009b2J.damaged.h5' error.txt || fail "error line: $(cat error.txt)"
"$cli" recover "$bad.damaged.h5" -o r.h5 >recover.txt 2>&1 && fail "recover took a non-journal"
no_control recover.txt "recover"

[ "$fails" = 0 ] && echo "terminal output is safe" && exit 0
exit 1
