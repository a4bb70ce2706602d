#include "record/output_path.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/text_buffer.h"
#include "record/config.h"

static const char *env(const char *name) {
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

static long env_long(const char *name) {
    const char *v = env(name);
    if (!v) return -1;
    char *end;
    long n = strtol(v, &end, 10);
    return *end == '\0' && n >= 0 ? n : -1;
}

void sp_launcher_detect(sp_launcher *out) {
    /* size variable, rank variable; the first pair that is set wins */
    static const char *const pairs[][2] = {
        {"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK"},
        {"PMI_SIZE", "PMI_RANK"},
        {"PMIX_SIZE", "PMIX_RANK"}, /* PMIx sets the rank; the size only some launchers */
        {"SLURM_STEP_NUM_TASKS", "SLURM_PROCID"},
        {"SLURM_NTASKS", "SLURM_PROCID"},
    };
    out->size = 0;
    out->rank = -1;
    out->variable = NULL;
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
        long size = env_long(pairs[i][0]), rank = env_long(pairs[i][1]);
        if (rank < 0) continue;
        out->size = size > 0 ? size : 0;
        out->rank = rank;
        out->variable = size > 0 ? pairs[i][0] : pairs[i][1];
        return;
    }
}

static void job_id(sp_textbuf *b) {
    static const char *const vars[] = {"SLURM_JOB_ID", "PBS_JOBID", "LSB_JOBID"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
        const char *v = env(vars[i]);
        if (!v) continue;
        /* PBS ids read "1234.server": keep the number, the part a file name wants */
        sp_textbuf_append_n(b, v, strcspn(v, "./"));
        return;
    }
    sp_textbuf_append(b, "nojob");
}

/* 20261201T103000Z: the UTC time, sortable and free of ':' */
static void timestamp(sp_textbuf *b) {
    time_t now = time(NULL);
    struct tm tm;
    char text[32];
    gmtime_r(&now, &tm);
    strftime(text, sizeof text, "%Y%m%dT%H%M%SZ", &tm);
    sp_textbuf_append(b, text);
}

static void host(sp_textbuf *b) {
    char name[256] = "";
    if (gethostname(name, sizeof name) != 0 || !name[0]) snprintf(name, sizeof name, "host");
    name[sizeof name - 1] = '\0';
    name[strcspn(name, ".")] = '\0'; /* the short name */
    sp_textbuf_append(b, name);
}

static void expand(sp_textbuf *b, const char *p, const sp_launcher *l, int *used_rank) {
    for (; *p; p++) {
        if (*p != '%' || !p[1]) {
            sp_textbuf_putc(b, *p);
            continue;
        }
        switch (*++p) {
        case 'p':
            sp_textbuf_printf(b, "%ld", (long)getpid());
            break;
        case 'r':
            sp_textbuf_printf(b, "%ld", l->rank >= 0 ? l->rank : 0L);
            *used_rank = 1;
            break;
        case 'j':
            job_id(b);
            break;
        case 't':
            timestamp(b);
            break;
        case 'h':
            host(b);
            break;
        case '%':
            sp_textbuf_putc(b, '%');
            break;
        default: /* not a placeholder: kept as written */
            sp_textbuf_putc(b, '%');
            sp_textbuf_putc(b, *p);
        }
    }
}

static int is_directory(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* "dir/name.h5" -> "dir/name.rank3.h5"; "dir/name" -> "dir/name.rank3" */
static char *insert_rank(const char *path, long rank) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t stem = dot && dot != base ? (size_t)(dot - path) : strlen(path);
    sp_textbuf b = SP_TEXTBUF_INIT;
    sp_textbuf_append_n(&b, path, stem);
    sp_textbuf_printf(&b, ".rank%ld", rank);
    sp_textbuf_append(&b, path + stem);
    return sp_textbuf_take(&b);
}

char *sp_output_path_resolve(const char *pattern, const sp_launcher *l, int per_process) {
    sp_textbuf b = SP_TEXTBUF_INIT;
    int used_rank = 0;
    expand(&b, pattern, l, &used_rank);
    char *path = sp_textbuf_take(&b);
    if (!path) return NULL;
    size_t n = strlen(path);
    if (n && (path[n - 1] == '/' || is_directory(path))) {
        sp_textbuf d = SP_TEXTBUF_INIT;
        sp_textbuf_append(&d, path);
        if (path[n - 1] != '/') sp_textbuf_putc(&d, '/');
        sp_textbuf_append(&d, SP_DEFAULT_FILE_PATH);
        free(path);
        if (!(path = sp_textbuf_take(&d))) return NULL;
    }
    if (per_process && !used_rank) {
        char *ranked = insert_rank(path, l->rank);
        free(path);
        path = ranked;
    }
    return path;
}

int sp_output_path_make_parents(const char *path, char *failed, size_t failed_size) {
    size_t n = strlen(path);
    char *dir = malloc(n + 1);
    if (!dir) return ENOMEM;
    memcpy(dir, path, n + 1);
    char *last = strrchr(dir, '/');
    int rc = 0;
    if (last && last != dir) {
        *last = '\0';
        /* each prefix ending before a '/', then the whole directory */
        for (char *p = dir + 1;; p++) {
            if (*p != '/' && *p != '\0') continue;
            char c = *p;
            *p = '\0';
            if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
                rc = errno;
                snprintf(failed, failed_size, "%s", dir);
                break;
            }
            *p = c;
            if (!c) break;
        }
    }
    free(dir);
    return rc;
}
