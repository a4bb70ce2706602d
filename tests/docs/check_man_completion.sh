#!/bin/sh
# The generated man page and shell completions (src/cli/shell/): the page
# renders without a groff warning and has a section for every command; the
# bash completion completes commands, options, formats, charts and values.
#   check_man_completion.sh SCOPE_PROFILER SHARE_DIR
set -u
tool="$1"
share="$2"
status=0
fail() { echo "$*"; status=1; }
page="$share/scope-profiler.1"
warnings=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
[ -z "$warnings" ] || fail "groff warns on the man page: $warnings"
commands=$("$tool" --help | awk '/^Commands:/ {on = 1; next} on && /^$/ {exit} on {print $1}' |
    grep -v '^help$')
for c in $commands; do
    grep -qx ".SS $c" "$page" || fail "man page: no section for $c"
done
# every option of a command's help is in the page, as \- \- (copyable minus signs)
if ! man -l "$page" 2>/dev/null | grep -q -- "--percentage-mode"; then
    fail "man page: inspect's --percentage-mode not rendered with ASCII minus signs"
fi
complete_bash() { # complete_bash WORD...: the completions of the last word
    bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _scope_profiler
             printf "%s\n" "${COMPREPLY[@]}"' sh "$share/scope-profiler.bash" "$@"
}
expect() { # expect WANTED WORD...
    want="$1"
    shift
    got=$(complete_bash "$@" | tr '\n' ' ')
    case " $got" in
    *" $want "*) ;;
    *) fail "bash completion of '$*': got '$got', expected $want among them" ;;
    esac
}
expect inspect scope-profiler ins
expect --version scope-profiler --ver
expect perfetto scope-profiler export per
expect flame-graph scope-profiler plot flame-g
expect --sort scope-profiler inspect f.h5 --so
expect total scope-profiler inspect f.h5 --sort to
expect slowest_thread scope-profiler inspect f.h5 --columns slowest_t
expect report scope-profiler help rep
n=$(complete_bash scope-profiler inspect f.h5 --nothing-like-this | wc -w)
[ "$n" -eq 0 ] || fail "bash completion offers $n words for an unknown option"
if command -v zsh > /dev/null; then
    zsh -n "$share/_scope-profiler" || fail "zsh completion: syntax error"
fi
[ $status -eq 0 ] && echo "man page ($(echo $commands | wc -w) commands) and completions checked"
exit $status
