/*
 * scope-profiler merge FILE... -o OUT.h5: joins per-rank profiles (files
 * each rank wrote on its own, the MPI library's NAME.rank<N>.h5 fallback
 * files, the Python package's C-backend per-rank files) into one profile.
 *
 * Two passes: merge_scan() reads every file once for its ranks and region
 * names; then the files are read again one at a time, lowest rank first, and
 * streamed into the atomic writer (src/format/writer.h), so memory holds one
 * input at a time. The region table is the union (renumbered), rows keep
 * their ranks, the metadata is the lowest rank's with mpi_size set to the
 * number of ranks, or the highest rank + 1 when ranks are missing (and num_nodes to the distinct host names when every file
 * names its host); "mpi_rank" is dropped. Aggregate-layout files (aggregate
 * mode's per-rank files) merge with each other (merge_aggregate.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_shown.h"
#include "cli/cli_contain.h"
#include "cli/cli_args.h"
#include "cli/cli_error.h"
#include "cli/cli_files.h"
#include "cli/merge.h"
#include "common/error.h"
#include "format/reader.h"
#include "format/writer.h"

enum { OPT_OUTPUT = 1 };

static const cli_option OPTIONS[] = {
    {"output", 'o', CLI_VALUE, OPT_OUTPUT},
};

static int on_option(void *ctx, int id, const char *value) {
    (void)id; /* the only option */
    *(const char **)ctx = value;
    return 0;
}

/* --- metadata --------------------------------------------------------------- */

static void set_int(sp_meta_entry *e, const char *key, int64_t value) {
    memset(e, 0, sizeof *e);
    e->key = (char *)key;
    e->type = SP_META_INT;
    e->i = value;
}

sp_meta_entry *merge_metadata(const merge_plan *plan, const sp_model *m, size_t *count) {
    sp_meta_entry *meta = malloc((m->num_meta + 2) * sizeof *meta);
    if (!meta) return NULL;
    size_t n = 0;
    int has_size = 0, has_nodes = 0;
    /* with ranks missing, the run had at least max_rank + 1 (readers check ranks against it) */
    int64_t size = (int64_t)(plan->num_ranks && plan->max_rank + 1 > plan->num_ranks
                                 ? (size_t)plan->max_rank + 1
                                 : plan->num_ranks);
    for (size_t i = 0; i < m->num_meta; i++) {
        const sp_meta_entry *e = &m->meta[i];
        if (strcmp(e->key, "mpi_rank") == 0) continue;
        meta[n] = *e;
        if (strcmp(e->key, "mpi_size") == 0) {
            set_int(&meta[n], "mpi_size", size);
            has_size = 1;
        } else if (strcmp(e->key, "num_nodes") == 0 && plan->num_nodes) {
            set_int(&meta[n], "num_nodes", (int64_t)plan->num_nodes);
            has_nodes = 1;
        }
        n++;
    }
    if (!has_size) set_int(&meta[n++], "mpi_size", size);
    if (!has_nodes && plan->num_nodes) set_int(&meta[n++], "num_nodes", (int64_t)plan->num_nodes);
    *count = n;
    return meta;
}

static sp_status put_metadata(sp_writer *w, const merge_plan *plan, const sp_model *m,
                              sp_error *err) {
    size_t n = 0;
    sp_meta_entry *meta = merge_metadata(plan, m, &n);
    if (!meta) return SP_ERR_OUT_OF_MEMORY;
    sp_status st = sp_writer_put_metadata(w, meta, n, err);
    free(meta);
    return st;
}

/* --- rows, threads, clock offsets ------------------------------------------- */

static sp_status append_rows(sp_writer *w, const merge_input *in, const sp_model *m,
                             sp_error *err) {
    for (size_t i = 0; i < m->num_rows; i++) {
        sp_model_row row = m->rows[i];
        row.region = in->region_map[row.region];
        row.rank = merge_row_rank(in, row.rank);
        sp_status st = sp_writer_append(w, &row, 1, m->starts, m->durations, m->thread_ids, err);
        if (st) return st;
    }
    return SP_OK;
}

static sp_status put_threads(sp_writer *w, const merge_input *in, const sp_model *m,
                             sp_error *err) {
    for (size_t i = 0; i < m->num_threads; i++) {
        sp_thread_info t = m->threads[i];
        t.rank = merge_row_rank(in, t.rank);
        sp_status st = sp_writer_put_threads(w, &t, 1, err);
        if (st) return st;
    }
    return SP_OK;
}

typedef struct offset_list {
    sp_clock_offset *items;
    size_t count;
    size_t cap;
} offset_list;

static int has_rank(const merge_input *in, uint32_t rank) {
    for (size_t i = 0; i < in->num_ranks; i++)
        if (in->ranks[i] == rank) return 1;
    return 0;
}

/* The clock offsets of the ranks this file contributes (none when its ranks
 * were renumbered: its offsets then refer to another numbering). */
static int keep_offsets(offset_list *acc, const merge_input *in, const sp_model *m) {
    if (in->remap_rank0 >= 0) return 1;
    for (size_t i = 0; i < m->num_clock_offsets; i++) {
        if (!has_rank(in, m->clock_offsets[i].rank)) continue;
        if (acc->count == acc->cap) {
            size_t cap = acc->cap ? 2 * acc->cap : 16;
            sp_clock_offset *grown = realloc(acc->items, cap * sizeof *grown);
            if (!grown) return 0;
            acc->items = grown;
            acc->cap = cap;
        }
        acc->items[acc->count++] = m->clock_offsets[i];
    }
    return 1;
}

/* --- the writing pass ---------------------------------------------------------- */

static sp_status append_input(sp_writer *w, const merge_plan *plan, size_t index,
                              offset_list *offsets, sp_error *err) {
    const merge_input *in = &plan->inputs[index];
    sp_model m;
    memset(&m, 0, sizeof m);
    cli_reading(in->path);
    sp_status st = sp_read_model(in->path, &m, err);
    if (st) return st;
    if (m.num_events != in->num_events || m.num_regions != in->num_names)
        st = sp_error_set(err, SP_ERR_DAMAGED, "%s: changed while being merged", in->path);
    if (!st && index == 0) st = put_metadata(w, plan, &m, err);
    if (!st) st = append_rows(w, in, &m, err);
    if (!st && m.threads) st = put_threads(w, in, &m, err);
    if (!st && !keep_offsets(offsets, in, &m)) st = SP_ERR_OUT_OF_MEMORY;
    sp_model_clear(&m);
    return st;
}

/* Progress on a terminal only (DESIGN.md §5): "merging FILE (i/n)", then cleared. */
static void progress(const merge_plan *plan, size_t done) {
    if (plan->count < 2 || !isatty(STDERR_FILENO)) return;
    if (done < plan->count)
        fprintf(stderr, "\r\033[Kscope-profiler: merging %s (%zu/%zu)",
                cli_shown(plan->inputs[done].path), done + 1, plan->count);
    else
        fputs("\r\033[K", stderr);
}

static sp_status write_merged(const merge_plan *plan, const char *out_path, sp_error *err) {
    sp_write_options options = {SP_COMPRESSION_AUTO, SP_AUTO_GZIP_LEVEL};
    sp_writer *w = sp_writer_create(out_path, plan->total_events, plan->has_threads, &options, err);
    if (!w) return err->status ? err->status : SP_ERR_IO;
    offset_list offsets = {NULL, 0, 0};
    sp_status st = sp_writer_put_regions(w, plan->names, plan->num_names, err);
    for (size_t i = 0; !st && i < plan->count; i++) {
        progress(plan, i);
        st = append_input(w, plan, i, &offsets, err);
    }
    progress(plan, plan->count);
    if (!st && offsets.count)
        st = sp_writer_put_clock_offsets(w, offsets.items, offsets.count, err);
    free(offsets.items);
    if (st) {
        sp_writer_abort(w);
        return st;
    }
    return sp_writer_commit(w, err);
}

static int run(const cli_list *files, const char *out_path) {
    merge_plan plan;
    int rc = merge_scan(files, &plan);
    if (!rc && plan.num_ranks && plan.max_rank + 1 != plan.num_ranks)
        cli_warn("%s: %zu ranks merged but the highest is rank %" PRIu32 ": some ranks are missing",
                 out_path, plan.num_ranks, plan.max_rank);
    if (!rc) {
        sp_error err = {0};
        sp_status st = plan.aggregate ? merge_write_aggregate(&plan, out_path, &err)
                                      : write_merged(&plan, out_path, &err);
        if (st == SP_ERR_OUT_OF_MEMORY && !err.message[0]) {
            rc = cli_out_of_memory();
        } else if (st) {
            cli_error_sp(&err);
            rc = CLI_EXIT_USAGE;
        } else {
            /* with the profile itself on stdout, the note goes to stderr */
            int on_stdout = strcmp(out_path, "-") == 0 || strcmp(out_path, "/dev/stdout") == 0;
            fprintf(on_stdout ? stderr : stdout,
                    "Merged %zu file(s) (%zu rank(s), %zu region(s), %" PRIu64
                    " call(s)) into %s\n",
                    plan.count, plan.num_ranks, plan.num_names, plan.total_events, out_path);
        }
    }
    merge_plan_free(&plan);
    return rc;
}

int cli_merge(int argc, char **argv) {
    static const cli_command_spec spec = {"merge", cli_help_merge, OPTIONS,
                                          sizeof OPTIONS / sizeof OPTIONS[0], on_option};
    const char *output = NULL;
    cli_list args = CLI_LIST_INIT, files = CLI_LIST_INIT;
    int rc = cli_parse(&spec, argc, argv, &output, &args);
    if (!rc && !output) rc = cli_usage_error("merge", "no output file given (-o OUT.h5)");
    if (!rc) rc = cli_expand_files("merge", &args, &files);
    if (!rc) rc = run(&files, output);
    cli_list_free(&args);
    cli_list_free(&files);
    return rc == CLI_PARSED_HELP ? CLI_EXIT_OK : rc;
}
