#!/bin/sh
# Every Markdown file of the repository closes each code fence it opens: an
# unclosed ``` turns the rest of the page into code on every renderer.
# A fence is a line that starts (after up to three spaces) with ``` or ~~~;
# it is closed by a line of the same character, at least as long.
set -u
root="$1"
status=0
for f in $(cd "$root" && git ls-files '*.md' 2>/dev/null || find . -name '*.md' -not -path './build*'); do
    out="$(awk '
        {
            line = $0
            sub(/^ {0,3}/, "", line)
            if (match(line, /^(```+|~~~+)/)) {
                run = substr(line, 1, RLENGTH)
                ch = substr(run, 1, 1)
                if (!open) { open = 1; fch = ch; flen = RLENGTH; at = FNR }
                else if (ch == fch && RLENGTH >= flen && line ~ /^(`+|~+)[ \t]*$/) open = 0
            }
        }
        END { if (open) printf "%s:%d: this code fence is never closed (a missing closing fence before it pairs the later ones wrongly)\n", FILENAME, at }
    ' "$root/$f")"
    if [ -n "$out" ]; then echo "$out"; status=1; fi
done
[ $status -eq 0 ] && echo "every Markdown code fence is closed"
exit $status
