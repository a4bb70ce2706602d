#!/bin/sh
# `events` prints each rank's times as stored by default (as the Python
# package's events(), which ignores our clock offsets): the same rows as the
# file without offsets. --align-clocks moves rank r by its offset (r ms).
set -eu
cli="$1"
python="$2"
fixture="$3"
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/sp_clk_XXXXXX")"
trap 'rm -rf "$work"' EXIT
cd "$work"
cp "$fixture" plain.h5
"$python" "$here/add_offsets.py" plain.h5 offsets.h5
"$cli" events plain.h5 > plain.csv
"$cli" events offsets.h5 > default.csv
cmp -s plain.csv default.csv || { echo "FAIL: default events differ from the file without offsets"; diff plain.csv default.csv | head; exit 1; }
"$cli" events offsets.h5 --align-clocks --format json > aligned.json
"$cli" events plain.h5 --format json > plain.json
"$python" - plain.json aligned.json <<'PY'
import json, sys
plain, aligned = (json.load(open(p)) for p in sys.argv[1:3])
assert len(plain) == len(aligned) > 0
for a, b in zip(plain, aligned):
    assert (a["name"], a["rank"], a["call_index"]) == (b["name"], b["rank"], b["call_index"])
    shift = b["start"] - a["start"]
    assert abs(shift - a["rank"] * 1e-3) < 1e-9, (a, b)
    assert abs((b["end"] - b["start"]) - (a["end"] - a["start"])) < 1e-12
print("aligned events are shifted by each rank's offset:", len(plain), "rows")
PY
