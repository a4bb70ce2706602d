#!/bin/sh
# Compiles hygiene.c with every available compiler (gcc, clang, g++,
# clang++), as C99/C11/C17 and C++11/17/20, with and without -DSP_DISABLE,
# under -Wall -Wextra -Wpedantic -Werror. Usage: check_headers.sh INCLUDE_DIR
set -eu
include_dir="$1"
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/sp_hygiene_XXXXXX")"
trap 'rm -rf "$work"' EXIT
cp "$here/hygiene.c" "$work/hygiene.cpp"
flags="-Wall -Wextra -Wpedantic -Werror -I$include_dir -fsyntax-only"
count=0
failed=0
for compiler in gcc clang g++ clang++; do
    command -v "$compiler" > /dev/null || { echo "skipped: $compiler not installed"; continue; }
    case "$compiler" in
        *++) standards="c++11 c++17 c++20"; source="$work/hygiene.cpp" ;;
        *) standards="c99 c11 c17"; source="$here/hygiene.c" ;;
    esac
    for std in $standards; do
        for disable in "" -DSP_DISABLE; do
            count=$((count + 1))
            # shellcheck disable=SC2086
            if ! "$compiler" -std="$std" $disable $flags "$source" 2> "$work/log"; then
                echo "FAILED: $compiler -std=$std $disable"
                cat "$work/log"
                failed=$((failed + 1))
            fi
        done
    done
done
echo "$count combinations, $failed failed"
[ "$failed" -eq 0 ] && [ "$count" -ge 12 ]
