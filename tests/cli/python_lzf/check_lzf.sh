#!/bin/sh
# A profile whose columns h5py stored with the LZF filter (32000) reads
# exactly as the same profile uncompressed.
set -eu
cli="$1"
python="$2"
fixture="$3"
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/sp_lzf_XXXXXX")"
trap 'rm -rf "$work"' EXIT
cd "$work"
cp "$fixture" plain.h5
"$python" "$here/make_lzf.py" plain.h5 lzf.h5
h5dump -p -H lzf.h5 | grep -q 'FILTER_ID 32000' || { echo "FAIL: lzf.h5 has no LZF filter"; exit 1; }
for args in "inspect --format csv --per-rank" "inspect --format csv" "events --format csv"; do
    # shellcheck disable=SC2086
    "$cli" $args plain.h5 > plain.out
    # shellcheck disable=SC2086
    "$cli" $args lzf.h5 > lzf.out 2> lzf.err || { echo "FAIL: $args: $(cat lzf.err)"; exit 1; }
    sed 's/plain\.h5/FILE/g' plain.out > a
    sed 's/lzf\.h5/FILE/g' lzf.out > b
    diff a b > /dev/null || { echo "FAIL: $args differs"; diff a b | head; exit 1; }
done
echo "LZF-compressed profile reads like the uncompressed one"
