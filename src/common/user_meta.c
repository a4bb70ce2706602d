#include "common/user_meta.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int sp_user_meta_key_valid(const char *key) {
    if (!key || !(isalpha((unsigned char)key[0]) || key[0] == '_')) return 0;
    size_t n = 0;
    for (; key[n]; n++) {
        unsigned char c = (unsigned char)key[n];
        if (!isalnum(c) && c != '_' && c != '.' && c != '-') return 0;
    }
    return n <= SP_USER_META_KEY_MAX;
}

/* What the library stores in /metadata itself (src/record/metadata.c, the
 * endings and recovery), plus the environment copies of the "full" detail. */
static const char *const reserved[] = {"timestamp",
                                       "platform",
                                       "chip_information",
                                       "scope_profiler_version",
                                       "source_language",
                                       "compiler",
                                       "omp_num_threads",
                                       "omp_num_threads_source",
                                       "mpi_size",
                                       "mpi_rank",
                                       "num_nodes",
                                       "total_cores",
                                       "total_cores_source",
                                       "start_time_ns",
                                       "finalize_time_ns",
                                       "label",
                                       "clock_source",
                                       "clock_resolution_ns",
                                       "overhead_ns_per_call",
                                       "user",
                                       "hostname",
                                       "uname",
                                       "working_directory",
                                       "modules",
                                       "PATH",
                                       "LD_LIBRARY_PATH",
                                       "LOADEDMODULES",
                                       "MODULEPATH",
                                       "MODULESHOME",
                                       "ending",
                                       "incomplete",
                                       "open_calls_left_out",
                                       "recovered_by",
                                       "calls_dropped_as_damaged",
                                       "capture_region_source",
                                       "storage_layout",
                                       "scope_profiler_schema",
                                       "trace_format_version",
                                       "source",
                                       "mpi_writer",
                                       "calls_dropped_as_implausible",
                                       "statistics_recomputed_on_read"};

int sp_user_meta_key_reserved(const char *key) {
    if (!strncmp(key, "SLURM_", 6) || !strncmp(key, "SLURMD_", 7)) return 1;
    for (size_t i = 0; i < sizeof reserved / sizeof *reserved; i++)
        if (!strcmp(key, reserved[i])) return 1;
    return 0;
}

const char *sp_user_meta_key_problem(const char *key) {
    if (!key || !*key) return "the key is empty";
    if (!sp_user_meta_key_valid(key))
        return "a key is 1 to 64 letters, digits, '_', '.' or '-', starting with a letter or '_'";
    if (sp_user_meta_key_reserved(key))
        return "the key is a built-in metadata field; choose another name";
    return NULL;
}

sp_user_meta_kind sp_user_meta_infer(const char *text, int64_t *integer, double *real) {
    if (!*text || isspace((unsigned char)text[0])) return SP_USER_META_TEXT;
    char *end;
    errno = 0;
    long long i = strtoll(text, &end, 10);
    if (!*end && errno != ERANGE) {
        *integer = (int64_t)i;
        return SP_USER_META_INTEGER;
    }
    /* strtod also takes "nan", "inf" and hex: only plain decimal numbers count */
    if (strpbrk(text, "xXnNiI")) return SP_USER_META_TEXT;
    errno = 0;
    double d = strtod(text, &end);
    if (*end || errno == ERANGE || !isfinite(d)) return SP_USER_META_TEXT;
    *real = d;
    return SP_USER_META_REAL;
}
