/*
 * scaling --model --x P,N: the runs as a grid over two parameters and a
 * model per region in Extra-P's multi-parameter normal form.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_error.h"
#include "cli/cli_runs.h"
#include "cli/scaling_two.h"
#include "models/scaling_models2.h"

typedef struct two_names {
    char first[128], second[128];
} two_names;

static int split_names(const char *x, two_names *n) {
    const char *comma = strchr(x, ',');
    size_t len = (size_t)(comma - x);
    if (!len || len >= sizeof n->first || !comma[1] || strchr(comma + 1, ',') ||
        strlen(comma + 1) >= sizeof n->second)
        return cli_usage_error("scaling",
                               "--x %s: two parameters are two names with one comma "
                               "(--x mpi_size,problem_size)",
                               x);
    memcpy(n->first, x, len);
    n->first[len] = '\0';
    strcpy(n->second, comma + 1);
    return 0;
}

/* One "NAME=VALUE" of --predict into *p or *q by the name (p/n or the parameter's). */
static int predict_item(const char *item, size_t len, const two_names *n, double *p, double *q,
                        int *seen) {
    const char *eq = memchr(item, '=', len);
    size_t key = eq ? (size_t)(eq - item) : 0;
    int which = -1;
    if (eq && ((key == 1 && item[0] == 'p') ||
               (key == strlen(n->first) && !strncmp(item, n->first, key))))
        which = 0;
    else if (eq && ((key == 1 && item[0] == 'n') ||
                    (key == strlen(n->second) && !strncmp(item, n->second, key))))
        which = 1;
    char text[64];
    size_t vlen = eq ? len - key - 1 : 0;
    if (which < 0 || !vlen || vlen >= sizeof text || (*seen & (1 << which))) return 0;
    memcpy(text, eq + 1, vlen);
    text[vlen] = '\0';
    char *end;
    double v = strtod(text, &end);
    if (*end || !isfinite(v) || !(v > 0)) return 0;
    *(which ? q : p) = v;
    *seen |= 1 << which;
    return 1;
}

static int parse_predict(const char *text, const two_names *n, double *p, double *q) {
    int seen = 0, ok = 1;
    for (const char *s = text; ok && *s;) {
        const char *comma = strchr(s, ',');
        size_t len = comma ? (size_t)(comma - s) : strlen(s);
        ok = predict_item(s, len, n, p, q, &seen);
        s += len + (comma != NULL);
    }
    if (ok && seen == 3) return 0;
    return cli_usage_error("scaling",
                           "--predict %s: give both parameters as positive numbers, "
                           "p=P,n=N or %s=P,%s=N (e.g. --predict p=1024,n=4096)",
                           text, n->first, n->second);
}

static int print_models(const sp_scaling_models2 *m, const char *format, const cli_list *files) {
    char *text = NULL;
    sp_textbuf b = SP_TEXTBUF_INIT;
    if (format && strcmp(format, "json") == 0) {
        text = sp_scaling_models2_json(m, cli_list_items(files), files->count);
    } else {
        if (format && strcmp(format, "csv") == 0)
            sp_scaling_models2_csv(&b, m);
        else
            sp_scaling_models2_text(&b, m);
        text = sp_textbuf_take(&b);
    }
    if (!text) return cli_out_of_memory();
    fputs(text, stdout);
    free(text);
    return 0;
}

/* The two studies (one per parameter) over the same runs, then the models. */
static int fit_and_print(const cli_runs *runs, sp_scaling_options *o, const two_names *n,
                         const double predict[2], int has_predict, const char *format,
                         const cli_list *files) {
    sp_error err = {0};
    o->x = n->first;
    sp_scaling *ps = sp_scaling_compute(cli_runs_items(runs), runs->count, o, &err);
    o->x = n->second;
    sp_scaling *ns = ps ? sp_scaling_compute(cli_runs_items(runs), runs->count, o, &err) : NULL;
    int rc = 0;
    if (!ns) {
        cli_error("scaling: %s", err.message);
        rc = err.status == SP_ERR_OUT_OF_MEMORY ? cli_out_of_memory() : CLI_EXIT_USAGE;
    } else if (!ps->num_regions) {
        rc = cli_usage_error("scaling", "no regions match in every file: nothing to model");
    } else {
        sp_scaling_models2 *m = sp_scaling_models2_fit(ps, ns, &err);
        if (!m) {
            cli_error("scaling --model: %s", err.message);
            rc = err.status == SP_ERR_OUT_OF_MEMORY ? cli_out_of_memory() : CLI_EXIT_USAGE;
        } else {
            m->has_predict = has_predict;
            m->predict_p = predict[0];
            m->predict_n = predict[1];
            rc = print_models(m, format, files);
        }
        sp_scaling_models2_free(m);
    }
    sp_scaling_free(ps);
    sp_scaling_free(ns);
    return rc;
}

int cli_scaling_two(const cli_list *files, sp_scaling_options *options, cli_select *select,
                    int model, const char *predict, const char *format) {
    if (!model)
        return cli_usage_error("scaling",
                               "--x %s gives two parameters: that needs --model "
                               "(the speedup table takes one)",
                               options->x);
    two_names names;
    double at[2] = {0, 0};
    int rc = split_names(options->x, &names);
    if (!rc && predict) rc = parse_predict(predict, &names, &at[0], &at[1]);
    if (rc) return rc;
    if (files->count < 2)
        return cli_usage_error("scaling", "needs runs at several (%s, %s) pairs (got %zu file)",
                               names.first, names.second, files->count);
    cli_runs runs = CLI_RUNS_INIT;
    rc = cli_read_runs(files, &runs);
    if (!rc) {
        options->filter = cli_select_filter(select);
        rc = fit_and_print(&runs, options, &names, at, predict != NULL, format, files);
    }
    cli_runs_free(&runs);
    return rc;
}
