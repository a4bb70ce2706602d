# Sourced by the generators: what the tool's own help says it offers.
#   sp_commands TOOL          the commands of "TOOL --help" (without help)
#   sp_options TOOL CMD       the long options of "TOOL CMD --help"
#   sp_choices TOOL ARGS...   the "choose from" list of an error TOOL ARGS gives
sp_commands() {
    "$1" --help | awk '/^Commands:/ {on = 1; next} on && /^$/ {exit} on {print $1}' |
        grep -v '^help$'
}
sp_options() {
    "$1" "$2" --help | grep -oE '(^|[ ,[])-(-[a-z][a-z0-9-]*|[a-zA-Z])\b' |
        sed 's/^[ ,[]*//' | sort -u | tr '\n' ' '
}
sp_choices() {
    tool="$1"
    shift
    "$tool" "$@" 2>&1 >/dev/null | sed -n 's/.*choose from \(.*\)/\1/p' | tr -d ',)'
}
