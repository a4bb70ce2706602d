#include "record/metadata.h"

#include <ctype.h>
#include <errno.h>
#include <dlfcn.h>
#include <gnu/libc-version.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "record/clock.h"
#include "record/extra_metadata.h"
#include "record/language.h"

extern char **environ;

#ifndef SP_COMPILER_DESCRIPTION
#define SP_COMPILER_DESCRIPTION "unknown"
#endif

#define MAX_STRING 60000
#define TRUNCATED  "...[truncated]"

/* Stores a string, cut at MAX_STRING characters (on a UTF-8 boundary) with a marker. */
static sp_status put_string(sp_model *m, const char *key, const char *value) {
    size_t n = strlen(value);
    if (n <= MAX_STRING) return sp_model_meta_string(m, key, value);
    size_t keep = MAX_STRING - strlen(TRUNCATED);
    while (keep > 0 && ((unsigned char)value[keep] & 0xC0) == 0x80)
        keep--;
    char *cut = malloc(keep + strlen(TRUNCATED) + 1);
    if (!cut) return SP_ERR_OUT_OF_MEMORY;
    memcpy(cut, value, keep);
    strcpy(cut + keep, TRUNCATED);
    sp_status st = sp_model_meta_string(m, key, cut);
    free(cut);
    return st;
}

/* "2026-11-29T16:30:09.690934+00:00" from CLOCK_REALTIME. */
static void utc_timestamp(char *buf, size_t size) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    struct tm tm;
    gmtime_r(&now.tv_sec, &tm);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(buf, size, "%s.%06ld+00:00", date, now.tv_nsec / 1000);
}

/* Like Python's platform.platform(): "Linux-6.1.0-x86_64-with-glibc2.36". */
static void platform_string(char *buf, size_t size) {
    struct utsname u;
    if (uname(&u) != 0) {
        snprintf(buf, size, "unknown");
        return;
    }
    snprintf(buf, size, "%s-%s-%s-with-glibc%s", u.sysname, u.release, u.machine,
             gnu_get_libc_version());
}

/* The CPU model from /proc/cpuinfo ("model name", or "Model"/"cpu model" elsewhere). */
static void chip_information(char *buf, size_t size) {
    snprintf(buf, size, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) && strncmp(line, "Model", 5) &&
            strncmp(line, "cpu model", 9))
            continue;
        char *colon = strchr(line, ':');
        if (!colon) continue;
        char *value = colon + 1;
        while (*value == ' ' || *value == '\t')
            value++;
        value[strcspn(value, "\n")] = '\0';
        snprintf(buf, size, "%s", value);
        break;
    }
    fclose(f);
}

/* The OpenMP threads a parallel region would get, and where that number comes
 * from: the OpenMP runtime when the program has one loaded (it is then in use),
 * else OMP_NUM_THREADS (its first level), else 1: a program without OpenMP. */
#define SP_MAX_OMP_THREADS (1L << 20)

static int64_t omp_threads(const char **source) {
    int (*max_threads)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "omp_get_max_threads");
    if (max_threads) {
        int n = max_threads();
        if (n > 0) {
            *source = "openmp_runtime";
            return n;
        }
    }
    const char *v = getenv("OMP_NUM_THREADS");
    if (v && isdigit((unsigned char)*v)) {
        errno = 0;
        long n = strtol(v, NULL, 10);
        /* out of range (or absurd) is as good as unset: no product of it can overflow */
        if (n > 0 && errno != ERANGE && n <= SP_MAX_OMP_THREADS) {
            *source = "OMP_NUM_THREADS";
            return n;
        }
    }
    *source = "no_openmp";
    return 1;
}

/* The cores of this machine (online CPUs), times the nodes of the run. */
static int64_t total_cores(int64_t num_nodes) {
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return (cpus > 0 ? cpus : 1) * (num_nodes > 0 ? num_nodes : 1);
}

static sp_status put_env(sp_model *m, const char *name) {
    const char *v = getenv(name);
    return v ? put_string(m, name, v) : SP_OK;
}

static sp_status put_modules(sp_model *m) {
    const char *loaded = getenv("LOADEDMODULES");
    if (!loaded) return SP_OK;
    char *copy = strdup(loaded);
    const char **items = calloc(strlen(loaded) / 2 + 2, sizeof *items);
    sp_status st = SP_ERR_OUT_OF_MEMORY;
    if (copy && items) {
        size_t n = 0;
        char *save = NULL;
        for (char *tok = strtok_r(copy, ":", &save); tok; tok = strtok_r(NULL, ":", &save))
            items[n++] = tok;
        st = sp_model_meta_list(m, "modules", items, n);
    }
    free(items);
    free(copy);
    return st;
}

static sp_status put_full(sp_model *m) {
    sp_status st = SP_OK;
    struct passwd pw, *found = NULL;
    char pwbuf[1024];
    const char *user = getenv("USER");
    if (getpwuid_r(getuid(), &pw, pwbuf, sizeof pwbuf, &found) == 0 && found) user = found->pw_name;
    if (user) st = put_string(m, "user", user);
    char host[256] = "";
    if (!st && gethostname(host, sizeof host) == 0) st = put_string(m, "hostname", host);
    struct utsname u;
    if (!st && uname(&u) == 0) {
        char text[6 * sizeof u.release];
        snprintf(text, sizeof text, "%s %s %s %s %s", u.sysname, u.nodename, u.release, u.version,
                 u.machine);
        st = put_string(m, "uname", text);
    }
    char *cwd = getcwd(NULL, 0);
    if (!st && cwd) st = put_string(m, "working_directory", cwd);
    free(cwd);
    if (!st) st = put_modules(m);
    static const char *const variables[] = {"PATH", "LD_LIBRARY_PATH", "LOADEDMODULES",
                                            "MODULEPATH", "MODULESHOME"};
    for (size_t i = 0; !st && i < sizeof variables / sizeof *variables; i++)
        st = put_env(m, variables[i]);
    for (char **e = environ; !st && e && *e; e++) {
        if (strncmp(*e, "SLURM_", 6) != 0 && strncmp(*e, "SLURMD_", 7) != 0) continue;
        const char *eq = strchr(*e, '=');
        if (!eq) continue;
        char name[256];
        size_t len = (size_t)(eq - *e) < sizeof name - 1 ? (size_t)(eq - *e) : sizeof name - 1;
        memcpy(name, *e, len);
        name[len] = '\0';
        st = put_string(m, name, eq + 1);
    }
    return st;
}

sp_status sp_metadata_collect(sp_model *m, const sp_metadata_input *in) {
    char text[512];
    sp_status st;
    utc_timestamp(text, sizeof text);
    if ((st = put_string(m, "timestamp", text))) return st;
    platform_string(text, sizeof text);
    if ((st = put_string(m, "platform", text))) return st;
    chip_information(text, sizeof text);
    if ((st = put_string(m, "chip_information", text))) return st;
    if ((st = put_string(m, "scope_profiler_version", SP_VERSION_STRING))) return st;
    char language[SP_LANGUAGE_SIZE];
    sp_source_language(language);
    if ((st = put_string(m, "source_language", language))) return st;
    if ((st = put_string(m, "compiler", SP_COMPILER_DESCRIPTION))) return st;
    const char *threads_source = NULL;
    int64_t threads = omp_threads(&threads_source);
    if ((st = sp_model_meta_int(m, "omp_num_threads", threads))) return st;
    if ((st = sp_model_meta_int(m, "mpi_size", in->mpi_size))) return st;
    if ((st = sp_model_meta_int(m, "num_nodes", in->num_nodes))) return st;
    if (in->mpi_rank >= 0 && (st = sp_model_meta_int(m, "mpi_rank", in->mpi_rank))) return st;
    if ((st = sp_model_meta_int(m, "total_cores", total_cores(in->num_nodes)))) return st;
    if ((st = sp_model_meta_int(m, "start_time_ns", in->start_time_ns))) return st;
    if ((st = sp_model_meta_int(m, "finalize_time_ns", in->finalize_time_ns))) return st;
    if (in->label && (st = put_string(m, "label", in->label))) return st;
    /* Our extensions (docs/format.md): how the timestamps were taken. */
    if ((st = put_string(m, "clock_source", sp_clock_name()))) return st;
    if ((st = sp_model_meta_int(m, "clock_resolution_ns", sp_clock_resolution_ns()))) return st;
    /* where the two counts above come from (docs/format.md) */
    if ((st = put_string(m, "omp_num_threads_source", threads_source))) return st;
    if ((st = put_string(m, "total_cores_source",
                         in->num_nodes > 1 ? "online_cpus_times_nodes" : "online_cpus")))
        return st;
    if (in->detail == SP_METADATA_FULL && (st = put_full(m))) return st;
    return sp_extra_metadata_apply(m);
}
