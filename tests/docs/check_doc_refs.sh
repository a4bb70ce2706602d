#!/bin/sh
# Every document the project's prose or comments cite by name (a word ending
# in .md, or a Markdown link target) must exist in the repository: relative
# to the citing file, or to the repository root.
set -eu
root="$(cd "$1" && pwd)"
cd "$root"
bad=0
# What a user reads: the README, docs/, the public headers, the examples and
# the per-directory READMEs.
files=$( (echo README.md; find docs include examples -type f;
          find src bench tests -name README.md) | grep -v node_modules)
for f in $files; do
    dir=$(dirname "$f")
    # Markdown link targets, then bare names ending in .md.
    # (link targets only in Markdown: in code, "operator[](x)" is no link)
    links=""
    case "$f" in *.md) links=$(grep -oE '\]\([^)#[:space:]]+' "$f" | sed 's/^](//') || true ;; esac
    refs=$( (printf '%s\n' "$links";
             grep -oE '[A-Za-z0-9_./-]+\.md\b' "$f") | grep -vE '^(https?:|mailto:)' | sort -u)
    for r in $refs; do
        case "$r" in *://*) continue ;; esac
        if [ ! -e "$dir/$r" ] && [ ! -e "$root/$r" ]; then
            echo "$f: cites $r, which is not in the repository"
            bad=1
        fi
    done
done
[ "$bad" = 0 ] && echo "every cited document exists"
exit "$bad"
