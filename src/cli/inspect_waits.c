/*
 * inspect's "Who waits for whom" section (issue 25, docs/parallel.md §6):
 * for MPI profiles with peer records, the computation that causes the
 * largest waiting time, then for each MPI call the rank it waits for most
 * and what that rank was doing. The whole run: --ranks does not apply.
 */
#include <stdlib.h>
#include <string.h>

#include "cli/cli_colour.h"
#include "cli/cli_wrap.h"
#include "cli/cli_shown.h"
#include "cli/inspect.h"
#include "waits/waits.h"

enum { WAIT_LINES = 8 };

/* The innermost region of a " > " path. */
static const char *innermost(const char *path) {
    const char *last = strrchr(path, '>');
    return last ? last + 2 : path;
}

/* The waits of the last file asked for: the Load balance section and this
 * one both use them. */
static struct {
    char *path;
    sp_waits waits;
    int present;
} cache;

const sp_waits *inspect_waits_for(const char *path) {
    if (!path) return NULL;
    if (cache.path && strcmp(cache.path, path) == 0) return cache.present ? &cache.waits : NULL;
    if (cache.present) sp_waits_free(&cache.waits);
    free(cache.path);
    cache.present = 0;
    cache.path = strdup(path);
    sp_error err = {0};
    if (!cache.path ||
        sp_waits_of_file(path, SP_WAITS_EAGER_BYTES, &cache.waits, &cache.present, &err))
        cache.present = 0;
    return cache.present ? &cache.waits : NULL;
}

void inspect_attach_waits(const sp_results *r, const char *path) {
    if (sp_results_num_ranks(r) >= 2) sp_waits_attach_to(r, inspect_waits_for(path));
}

static void print_waits(FILE *out, const sp_waits *w, const inspect_options *o) {
    sp_wait_cause cause;
    if (!sp_waits_largest_cause(w, &cause)) return;
    cli_print_title_fit(out, o->colour, o->fit_to,
                        "Who waits for whom (scope-profiler waits for all)");
    char text[1024];
    snprintf(text, sizeof text, "  largest cause: rank %u in %s, %.6f s of waiting on other ranks",
             cause.late_rank,
             cli_shown(cause.late_path[0] ? cause.late_path : "(outside any region)"),
             (double)cause.wait_ns / 1e9);
    cli_print_clauses(out, text, o->fit_to, 2);
    for (size_t i = 0; i < w->num_rows && i < WAIT_LINES; i++) {
        const sp_wait_row *r = &w->rows[i];
        fprintf(out, "  %s: rank %u waits %.6f s (%s) for rank %u (%s)\n",
                cli_shown(innermost(r->call_path)), r->waiting_rank, (double)r->wait_ns / 1e9,
                sp_wait_kind_name(r->kind), r->late_rank,
                cli_shown(r->late_path[0] ? innermost(r->late_path) : "outside any region"));
    }
    if (w->num_rows > WAIT_LINES) fprintf(out, "  ... %zu more\n", w->num_rows - WAIT_LINES);
    fputc('\n', out);
}

void inspect_print_waits(FILE *out, const char *path, const inspect_options *o) {
    const sp_waits *w = inspect_waits_for(path);
    if (w) print_waits(out, w, o);
}
