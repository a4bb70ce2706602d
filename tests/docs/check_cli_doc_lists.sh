#!/bin/sh
# docs/cli.md lists what the tool offers: every command of `scope-profiler
# --help` has a row in its command table, and every column that `inspect
# --columns` accepts is named in the --columns row.
#   check_cli_doc_lists.sh SOURCE_DIR SCOPE_PROFILER
set -u
doc="$1/docs/cli.md"
tool="$2"
status=0
commands=$("$tool" --help | awk '/^Commands:/{on=1; next} on && /^$/{exit} on {print $1}' | grep -v '^help$')
[ -n "$commands" ] || { echo "no commands in scope-profiler --help"; exit 1; }
for c in $commands; do
    grep -q "^| \[\`$c\`\](#$c) |" "$doc" || { echo "docs/cli.md: command $c has no row in the command table"; status=1; }
done
columns=$("$tool" inspect --columns no-such-column x.h5 2>&1 | sed -n 's/.*choose from //p' | tr -d ',)')
[ -n "$columns" ] || { echo "inspect --columns gave no list of choices"; exit 1; }
row=$(grep '^| `--columns COL...`' "$doc")
for c in $columns; do
    echo "$row" | grep -q "\`$c\`" || { echo "docs/cli.md: column $c missing from the --columns row"; status=1; }
done
[ $status -eq 0 ] && echo "docs/cli.md names $(echo $commands | wc -w) commands and $(echo $columns | wc -w) columns"
exit $status
