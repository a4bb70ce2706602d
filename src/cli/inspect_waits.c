/*
 * inspect's "Who waits for whom" section (issue 25, docs/parallel.md §6):
 * for MPI profiles with peer records, the computation that causes the
 * largest waiting time, then for each MPI call the rank it waits for most
 * and what that rank was doing. The whole run: --ranks does not apply.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/clock_alignment.h"
#include "cli/cli_colour.h"
#include "cli/cli_wrap.h"
#include "cli/cli_shown.h"
#include "cli/inspect.h"
#include "format/reader.h"
#include "waits/waits.h"

enum { WAIT_LINES = 8, EAGER_BYTES = 65536 };

/* The innermost region of a " > " path. */
static const char *innermost(const char *path) {
    const char *last = strrchr(path, '>');
    return last ? last + 2 : path;
}

/* The computation (a late path not inside an MPI call: a rank that was itself
 * waiting only passes the wait on) whose waits add up to most, and that sum. */
static const char *largest_cause(const sp_waits *w, uint32_t *rank, int64_t *ns) {
    const char *best = NULL;
    *ns = 0;
    for (size_t i = 0; i < w->num_rows; i++) {
        if (strncmp(innermost(w->rows[i].late_path), "MPI_", 4) == 0) continue;
        int64_t sum = 0;
        for (size_t j = 0; j < w->num_rows; j++)
            if (w->rows[j].late_rank == w->rows[i].late_rank &&
                strcmp(w->rows[j].late_path, w->rows[i].late_path) == 0)
                sum += w->rows[j].wait_ns;
        if (sum > *ns) {
            *ns = sum;
            *rank = w->rows[i].late_rank;
            best = w->rows[i].late_path;
        }
    }
    return best;
}

static void print_waits(FILE *out, const sp_waits *w, const inspect_options *o) {
    uint32_t late = 0;
    int64_t caused = 0;
    const char *cause = largest_cause(w, &late, &caused);
    if (!cause) return;
    cli_print_title_fit(out, o->colour, o->fit_to,
                        "Who waits for whom (scope-profiler waits for all)");
    fprintf(out, "  largest cause: rank %u in %s, %.6f s of waiting on other ranks\n", late,
            cli_shown(cause[0] ? cause : "(outside any region)"), (double)caused / 1e9);
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
    sp_peer_table peers;
    int present = 0;
    sp_error err = {0};
    if (sp_peer_table_read(path, &peers, &present, &err) || !present) return;
    sp_model m = {0};
    sp_waits w;
    if (!sp_read_model(path, &m, &err) && m.layout == SP_LAYOUT_COLUMNAR) {
        sp_align_rank_clocks(&m);
        if (!sp_waits_compute(&m, &peers, EAGER_BYTES, &w, &err)) {
            print_waits(out, &w, o);
            sp_waits_free(&w);
        }
    }
    sp_model_clear(&m);
    sp_peer_table_free(&peers);
}
