#!/bin/sh
# Region names that are not valid UTF-8 stay distinct in every export and
# every export is valid UTF-8 (docs/robustness.md, "Names that are not valid
# UTF-8"). "x\xff", "x\xfe" and "x" U+FFFD all became "x\ufffd" before.
#
#   names.sh CLI MAKE_NAMED
set -u
cli=$1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
cd "$tmp" || exit 1
"$2" p.h5 'x\xff' 'x\xfe' 'x\xef\xbf\xbd' || { echo "cannot write the profile"; exit 1; }

# the three names under the escape rule: U+10FEFF, U+10FEFE, U+FFFD
ff=$(printf 'x\364\217\273\277')
fe=$(printf 'x\364\217\273\276')
fffd=$(printf 'x\357\277\275')

has() { # FILE TEXT WHAT
    grep -qF -- "$2" "$1" || fail "$3: $1 lacks $(printf %s "$2" | od -An -c | tr -s ' ')"
}
valid_utf8() {
    iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1 || fail "$1 is not valid UTF-8"
}
utf8_export() { # FILE
    valid_utf8 "$1"
    has "$1" "$ff" "\\xff"
    has "$1" "$fe" "\\xfe"
    has "$1" "$fffd" "U+FFFD"
}
json_export() { # FILE: Python's json (ensure_ascii) form
    valid_utf8 "$1"
    has "$1" '"x\udbff\udeff"' "\\xff"
    has "$1" '"x\udbff\udefe"' "\\xfe"
    has "$1" '"x\ufffd"' "U+FFFD"
}

"$cli" stats p.h5 -o stats.json 2>err || fail "stats: $(cat err)"
json_export stats.json
"$cli" inspect p.h5 --format json >rows.json 2>err || fail "inspect json: $(cat err)"
json_export rows.json
"$cli" inspect p.h5 --format csv >rows.csv 2>err || fail "inspect csv: $(cat err)"
utf8_export rows.csv
"$cli" events p.h5 --format csv >events.csv 2>err || fail "events csv: $(cat err)"
utf8_export events.csv
"$cli" events p.h5 --format json >events.json 2>err || fail "events json: $(cat err)"
json_export events.json
for f in chrome-trace speedscope; do
    "$cli" export $f p.h5 -o $f.json 2>err || fail "export $f: $(cat err)"
    json_export $f.json
done
"$cli" export folded p.h5 -o folded.txt 2>err || fail "export folded: $(cat err)"
utf8_export folded.txt
"$cli" export perfetto p.h5 -o trace.pftrace 2>err || fail "export perfetto: $(cat err)"
for n in "$ff" "$fe" "$fffd"; do
    has trace.pftrace "$n" perfetto
done
"$cli" report p.h5 -o report.html 2>err || fail "report: $(cat err)"
utf8_export report.html

[ "$fails" = 0 ] && echo "all names distinct" && exit 0
exit 1
