#include "record/mismatch.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/registry.h"
#include "record/session_root.h"

/* Call sites already reported, as (hash of file, line) pairs in a small set. */
typedef struct site {
    uint64_t file_hash;
    int line;
} site;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static site *reported;
static size_t num_reported, max_reported;
static uint64_t mismatches;

/* Returns 1 the first time a site is seen (and remembers it), 0 after. */
static int first_time(const char *file, int line) {
    uint64_t h = sp_hash_string(file ? file : "");
    for (size_t i = 0; i < num_reported; i++)
        if (reported[i].file_hash == h && reported[i].line == line) return 0;
    if (num_reported == max_reported) {
        size_t max = max_reported ? max_reported * 2 : 16;
        site *grown = realloc(reported, max * sizeof *grown);
        if (!grown) return 1; /* report again rather than stay silent */
        reported = grown;
        max_reported = max;
    }
    reported[num_reported].file_hash = h;
    reported[num_reported].line = line;
    num_reported++;
    return 1;
}

static const char *name_of(sp_region_t region) {
    const char *name = sp_registry_name(region);
    return name ? name : "(invalid handle)";
}

void sp_mismatch_unmatched(sp_region_t region, sp_region_t innermost, const char *file, int line) {
    /* The session root is always open underneath: it is not a region the program opened. */
    const char *inner_name = innermost != SP_REGION_NONE ? sp_registry_name(innermost) : NULL;
    if (inner_name && !strcmp(inner_name, SP_SESSION_ROOT_NAME)) innermost = SP_REGION_NONE;
    pthread_mutex_lock(&lock);
    mismatches++;
    if (first_time(file, line)) {
        if (innermost != SP_REGION_NONE)
            fprintf(stderr,
                    "scope-profiler: sp_end(\"%s\") at %s:%d matches no open call of \"%s\" on "
                    "this thread (innermost open region: \"%s\"); ignored (reported once per "
                    "call site)\n",
                    name_of(region), file ? file : "?", line, name_of(region), name_of(innermost));
        else
            fprintf(stderr,
                    "scope-profiler: sp_end(\"%s\") at %s:%d but no region is open on this "
                    "thread; ignored (reported once per call site)\n",
                    name_of(region), file ? file : "?", line);
    }
    pthread_mutex_unlock(&lock);
}

void sp_mismatch_out_of_order(sp_region_t region, sp_region_t innermost, uint32_t dropped,
                              const char *file, int line) {
    pthread_mutex_lock(&lock);
    mismatches++;
    if (first_time(file, line))
        fprintf(stderr,
                "scope-profiler: sp_end(\"%s\") at %s:%d while \"%s\" is the innermost open "
                "region: ended \"%s\" and dropped %u call(s) opened inside it and not ended "
                "(reported once per call site)\n",
                name_of(region), file ? file : "?", line, name_of(innermost), name_of(region),
                dropped);
    pthread_mutex_unlock(&lock);
}

uint64_t sp_mismatch_count(void) {
    pthread_mutex_lock(&lock);
    uint64_t n = mismatches;
    pthread_mutex_unlock(&lock);
    return n;
}

void sp_mismatch_reset(void) {
    pthread_mutex_lock(&lock);
    mismatches = 0;
    num_reported = 0;
    pthread_mutex_unlock(&lock);
}
