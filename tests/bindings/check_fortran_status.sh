#!/bin/sh
# The Fortran status parameters equal the C enum sp_status, code for code:
#   check_fortran_status.sh scope_profiler.h scope_profiler.f90
set -eu
c_list=$(awk '/typedef enum sp_status/,/} sp_status/' "$1" | grep -o 'SP_[A-Z0-9_]*' |
         grep -v SP_STATUS_COUNT_ | awk '{print $1 " = " NR - 1}')
f_list=$(grep -o 'integer, parameter, public :: SP_\(OK\|ERR_[A-Z0-9_]*\) = [0-9]*' "$2" |
         sed 's/.*:: //')
if [ "$c_list" != "$f_list" ]; then
    echo "Fortran status codes differ from the C enum:"
    echo "C:"; echo "$c_list"; echo "Fortran:"; echo "$f_list"
    exit 1
fi
echo "$(echo "$c_list" | wc -l) status codes match"
