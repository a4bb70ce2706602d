/*
 * scope-profiler export data FILE... -o DIR: gantt_data, durations_data,
 * flame_data, duration_timeseries_data and (several runs) speedup_data, the
 * files the Python package's `plot --export data` writes, as CSV or JSON
 * (export/plot_data.h), each written under a temporary name and renamed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/cli_error.h"
#include "cli/cli_runs.h"
#include "cli/export_data.h"
#include "common/error.h"
#include "export/plot_data.h"
#include "format/atomic_file.h"

static int write_text(const char *path, const sp_textbuf *text, sp_error *err) {
    char *tmp = sp_atomic_begin(path, err);
    if (!tmp) return 0;
    FILE *f = fopen(tmp, "wb");
    int ok = f && fwrite(text->data, 1, text->len, f) == text->len;
    if (f && fclose(f) != 0) ok = 0;
    if (!ok) {
        sp_error_set(err, SP_ERR_IO, "cannot write %s: %s", path, strerror(errno));
        sp_atomic_abort(tmp);
    } else {
        ok = sp_atomic_commit(tmp, path, err) == SP_OK;
    }
    free(tmp);
    return ok;
}

/* The "file" column: each run's label (else its file's stem); a repeated name
 * gets " (2)", " (3)"... so the rows of two runs stay apart. */
static char **run_labels(const cli_runs *runs) {
    char **labels = calloc(runs->count, sizeof *labels);
    for (size_t i = 0; labels && i < runs->count; i++) {
        const char *base = sp_results_display_label(runs->items[i]);
        size_t same = 1;
        for (size_t k = 0; k < i; k++)
            same += strcmp(base, sp_results_display_label(runs->items[k])) == 0;
        size_t n = strlen(base) + 24;
        labels[i] = malloc(n);
        if (!labels[i]) continue;
        if (same > 1)
            snprintf(labels[i], n, "%s (%zu)", base, same);
        else
            snprintf(labels[i], n, "%s", base);
    }
    return labels;
}

int cli_export_data(const cli_list *files, const char *dir, int json, const cli_list *metrics,
                    const char *x, cli_select *select) {
    static const char *const default_metric[] = {"total"};
    struct stat st;
    if (strcmp(dir, "-") == 0)
        return cli_usage_error("export", "data writes gantt_data, durations_data and the other "
                                         "chart data into a directory: give -o DIR, not -");
    if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode))
        return cli_usage_error("export",
                               "-o %s is not a directory: export data writes "
                               "gantt_data, durations_data and the other chart data into one",
                               dir);
    if (x && files->count < 2)
        return cli_usage_error("export",
                               "--x %s is the axis of speedup_data, which needs "
                               "several runs (1 FILE given)",
                               x);
    cli_runs runs = CLI_RUNS_INIT;
    int rc = cli_read_runs(files, &runs);
    char **labels = rc ? NULL : run_labels(&runs);
    if (!rc && !labels) rc = cli_out_of_memory();
    for (size_t i = 0; !rc && i < runs.count; i++)
        if (!labels[i]) rc = cli_out_of_memory();
    for (size_t i = 0; !rc && i < runs.count; i++)
        rc = cli_select_check(select, runs.items[i], files->items[i]);
    sp_filter filter = cli_select_filter(select);
    sp_plot_data d = {cli_runs_items(&runs),
                      (const char *const *)labels,
                      runs.count,
                      &filter,
                      metrics->count ? (const char *const *)metrics->items : default_metric,
                      metrics->count ? metrics->count : 1,
                      json,
                      x};
    sp_textbuf text[SP_PLOT_DATA_KINDS];
    int wanted[SP_PLOT_DATA_KINDS];
    sp_error err = {0};
    /* every document first, so a refusal writes none */
    for (int k = 0; k < SP_PLOT_DATA_KINDS; k++) {
        text[k] = (sp_textbuf)SP_TEXTBUF_INIT;
        wanted[k] = k != SP_PLOT_DATA_SPEEDUP || runs.count > 1; /* speedup: several runs */
        if (rc || !wanted[k]) continue;
        if (sp_plot_data_write(&text[k], (sp_plot_data_kind)k, &d, &err) == SP_OK) continue;
        if (k == SP_PLOT_DATA_SPEEDUP && !x && err.status != SP_ERR_OUT_OF_MEMORY) {
            /* runs that are no scaling study (one mpi_size) still get the other files;
             * an axis asked for with --x must work */
            fprintf(stderr, "scope-profiler: export data: speedup_data not written: %s\n",
                    err.message);
            wanted[k] = 0;
            continue;
        }
        cli_error_sp(&err);
        rc = CLI_EXIT_USAGE;
    }
    if (!rc && stat(dir, &st) != 0 && mkdir(dir, 0777) != 0)
        rc = cli_value_error("export", "cannot make the directory %s: %s", dir, strerror(errno));
    for (int k = 0; !rc && k < SP_PLOT_DATA_KINDS; k++) {
        if (!wanted[k]) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.%s", dir, sp_plot_data_name((sp_plot_data_kind)k),
                 json ? "json" : "csv");
        if (!write_text(path, &text[k], &err)) {
            cli_error_sp(&err);
            rc = CLI_EXIT_USAGE;
        }
    }
    for (int k = 0; k < SP_PLOT_DATA_KINDS; k++)
        sp_textbuf_free(&text[k]);
    for (size_t i = 0; labels && i < runs.count; i++)
        free(labels[i]);
    free(labels);
    cli_runs_free(&runs);
    return rc;
}
