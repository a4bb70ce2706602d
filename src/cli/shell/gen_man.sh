#!/bin/sh
# Writes the man page scope-profiler(1) from the tool's own help texts, so
# the page always says what the program says.   gen_man.sh TOOL > scope-profiler.1
set -eu
tool="$1"
. "$(dirname "$0")/commands.sh"
# roff-safe text: backslashes escaped, lines starting with . or ' protected,
# every - a minus (so options copied from the page work)
roff() {
    sed -e 's/\\/\\e/g' -e 's/-/\\-/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"
}
version=$("$tool" --version | sed 's/^scope-profiler //')
cat <<HEAD
.TH SCOPE\\-PROFILER 1 "" "scope\\-profiler $version" "User Commands"
.SH NAME
scope\\-profiler \\- look into the HDF5 profiles of scope\\-profiler runs
.SH SYNOPSIS
.B scope\\-profiler
.I COMMAND
.RI [ OPTIONS ]
.IR FILE ...
.br
.B scope\\-profiler help
.RI [ COMMAND ]
.SH DESCRIPTION
.nf
HEAD
"$tool" --help | sed '1,2d' | roff
echo ".fi"
echo ".SH COMMANDS"
for c in $(sp_commands "$tool"); do
    echo ".SS $c"
    echo ".nf"
    "$tool" "$c" --help | roff
    echo ".fi"
done
cat <<'TAIL'
.SH ENVIRONMENT
.TP
.B NO_COLOR
no colour even on a terminal
.TP
.B COLUMNS
the width of tables and boxes when standard output is not a terminal (see \fBinspect \-\-width\fR)
.SH EXIT STATUS
0 success, 1 a check failed (check), 2 a usage or input error.
.SH SEE ALSO
The documentation installed with the package: docs/cli.md (every command),
docs/recording.md (the library and its SCOPE_PROFILER_* variables), docs/format.md.
TAIL
