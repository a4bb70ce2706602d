#!/bin/sh
# The shared libraries export their public API only: every dynamic symbol
# they define is named in include/ (MPI_* aside: the MPI library's
# documented interception; pthread_create and GOMP_parallel*: the fork points
# of threads, docs/parallel.md §1), and none of the internals (sp_strdup,
# sp_writer_*, sp_model_*, sp_internal_session_*) is visible.
#   check_exports.sh INCLUDE_DIR LIBRARY.so...
set -eu
include_dir="$1"
shift
bad=0
for lib in "$@"; do
    symbols=$(nm -D --defined-only "$lib" | awk '{print $3}' | sed 's/@.*//' | sort -u)
    [ -n "$symbols" ] || { echo "FAIL: $lib exports nothing"; exit 1; }
    for s in $symbols; do
        # MPI_*: the PMPI wrappers; __odr_asan.*: ASan instrumentation of globals;
        # pthread_create, GOMP_parallel*: the fork-point interceptions (docs/parallel.md);
        # sp_mpi_calls_on_ ... sp_mpi_before_finalize: what libscope_profiler_mpi shares with
        # libscope_profiler_preload_fortran (scope-profiler run, docs/run.md), and sp_peer_*: the
        # peer records its wrappers keep (src/mpi/peer_records.h, issue 25)
        case "$s" in
        _init | _fini | MPI_* | __odr_asan.* | pthread_create | GOMP_parallel*) continue ;;
        sp_mpi_calls_on_ | sp_mpi_call_regions_ | sp_mpi_call_bytes | sp_mpi_run_attach | sp_mpi_before_finalize) continue ;;
        sp_peer_*) continue ;;
        esac
        if ! grep -rqw -- "$s" "$include_dir"; then
            echo "FAIL: $(basename "$lib") exports $s, which no public header declares"
            bad=1
        fi
    done
    for s in $symbols; do
        case "$s" in
        sp_strdup | sp_writer_* | sp_model_* | sp_write_model | sp_error_set | sp_internal_session_*)
            echo "FAIL: $(basename "$lib") exports the internal $s"
            bad=1
            ;;
        esac
    done
    echo "$(basename "$lib"): $(echo "$symbols" | wc -l) exported symbols"
done
[ "$bad" = 0 ] && echo "only the public API is exported"
exit "$bad"
