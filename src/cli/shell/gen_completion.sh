#!/bin/sh
# Writes the bash or zsh completion of scope-profiler from the tool's own
# help texts: commands, each command's options, the export formats and
# plot charts, the values of inspect --sort/--columns/--format.
#   gen_completion.sh bash|zsh TOOL > FILE
set -eu
shell="$1"
tool="$2"
. "$(dirname "$0")/commands.sh"
commands=$(sp_commands "$tool" | tr '\n' ' ')
formats=$(sp_choices "$tool" export '?')
charts=$(sp_choices "$tool" plot '?' x.h5)
sorts=$(sp_choices "$tool" inspect --sort '?' x.h5)
columns=$(sp_choices "$tool" inspect --columns '?' x.h5)
[ -n "$commands" ] && [ -n "$formats" ] && [ -n "$charts" ] || {
    echo "gen_completion.sh: $tool did not list its commands, formats and charts" >&2
    exit 1
}
options_case() { # one case arm per command: CMD) opts="...";;
    for c in $commands; do
        printf '    %s) opts="%s" ;;\n' "$c" "$(sp_options "$tool" "$c")"
    done
}
if [ "$shell" = bash ]; then
    cat <<EOS
# bash completion for scope-profiler (generated from its help texts)
_scope_profiler() {
    local cur prev cmd opts
    cur=\${COMP_WORDS[COMP_CWORD]}
    prev=\${COMP_WORDS[COMP_CWORD-1]}
    if [ "\$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=(\$(compgen -W "$commands help --help --version" -- "\$cur"))
        return
    fi
    cmd=\${COMP_WORDS[1]}
    case "\$cmd" in
$(options_case)
    help) COMPREPLY=(\$(compgen -W "$commands" -- "\$cur")); return ;;
    *) return ;;
    esac
    case "\$cmd:\$prev" in
    inspect:--sort) COMPREPLY=(\$(compgen -W "$sorts" -- "\$cur")); return ;;
    inspect:--columns) COMPREPLY=(\$(compgen -W "$columns" -- "\$cur")); return ;;
    *:--format) COMPREPLY=(\$(compgen -W "table json csv" -- "\$cur")); return ;;
    *:-o | *:--output) COMPREPLY=(\$(compgen -f -- "\$cur")); return ;;
    esac
    if [[ \$cur == -* ]]; then
        COMPREPLY=(\$(compgen -W "\$opts" -- "\$cur"))
        return
    fi
    if [ "\$COMP_CWORD" -eq 2 ]; then
        case "\$cmd" in
        export) COMPREPLY=(\$(compgen -W "$formats" -- "\$cur")); return ;;
        plot) COMPREPLY=(\$(compgen -W "$charts" -- "\$cur")); return ;;
        esac
    fi
    COMPREPLY=(\$(compgen -f -X '!*.h5' -- "\$cur") \$(compgen -d -- "\$cur"))
}
complete -o filenames -F _scope_profiler scope-profiler
EOS
elif [ "$shell" = zsh ]; then
    cat <<EOS
#compdef scope-profiler
# zsh completion for scope-profiler (generated from its help texts)
_scope-profiler() {
    local opts
    if (( CURRENT == 2 )); then
        compadd -- $commands help --help --version
        return
    fi
    case \$words[2] in
$(options_case)
    help) compadd -- $commands; return ;;
    *) return ;;
    esac
    case \$words[2]:\$words[CURRENT-1] in
    inspect:--sort) compadd -- $sorts; return ;;
    inspect:--columns) compadd -- $columns; return ;;
    *:--format) compadd -- table json csv; return ;;
    esac
    if [[ \$PREFIX == -* ]]; then
        compadd -- \${=opts}
        return
    fi
    if (( CURRENT == 3 )); then
        case \$words[2] in
        export) compadd -- $formats; return ;;
        plot) compadd -- $charts; return ;;
        esac
    fi
    _files -g '*.h5(-.)'
}
_scope-profiler "\$@"
EOS
else
    echo "gen_completion.sh: shell \"$shell\": choose bash or zsh" >&2
    exit 2
fi
