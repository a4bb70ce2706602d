/*
 * scope-profiler scaling FILES...: speedup and parallel efficiency per
 * region over runs at different mpi_size, omp_num_threads, total_cores,
 * num_nodes or any numeric metadata field.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_wrap.h"
#include "cli/cli_args.h"
#include "cli/cli_choice.h"
#include "cli/cli_error.h"
#include "cli/cli_files.h"
#include "cli/cli_runs.h"
#include "cli/cli_select.h"
#include "cli/scaling_two.h"
#include "models/scaling_models.h"
#include "present/compare_out.h"

enum { OPT_X = 1, OPT_WEAK, OPT_METRIC, OPT_FORMAT, OPT_MODEL, OPT_PREDICT };

static const cli_option OPTIONS[] = {
    {"x", 0, CLI_VALUE, OPT_X},
    {"weak", 0, CLI_FLAG, OPT_WEAK},
    {"metric", 0, CLI_VALUE, OPT_METRIC},
    {"format", 0, CLI_VALUE, OPT_FORMAT},
    {"model", 0, CLI_FLAG, OPT_MODEL},
    {"predict", 0, CLI_VALUE, OPT_PREDICT},
    CLI_SELECT_OPTIONS,
};

typedef struct scaling_args {
    sp_scaling_options options;
    const char *format;       /* NULL: the table */
    int model;                /* --model: fit Extra-P's normal form per region (src/models/) */
    const char *predict_text; /* --predict as given: P, or p=P,n=N with two parameters */
    int has_predict;
    double predict;
    cli_select select;
} scaling_args;

static int on_option(void *ctx, int id, const char *value) {
    scaling_args *a = ctx;
    switch (id) {
    case OPT_X:
        a->options.x = value;
        return 0;
    case OPT_WEAK:
        a->options.weak = 1;
        return 0;
    case OPT_METRIC: {
        /* avg: mean time per call; total: total time per rank */
        static const char *const metrics[] = {"avg", "total"};
        int i = cli_choice_index(value, metrics, 2);
        if (i < 0) return cli_choice_error("scaling", "--metric", value, metrics, 2);
        a->options.total = i == 1;
        return 0;
    }
    case OPT_FORMAT: {
        static const char *const formats[] = {"table", "json", "csv"};
        if (cli_choice_index(value, formats, 3) < 0)
            return cli_choice_error("scaling", "--format", value, formats, 3);
        a->format = value;
        return 0;
    }
    case OPT_MODEL:
        a->model = 1;
        return 0;
    case OPT_PREDICT: {
        char *end;
        a->predict_text = value;
        a->has_predict = 1;
        if (strchr(value, '=')) return 0; /* p=P,n=N: checked with the two parameters */
        a->predict = strtod(value, &end);
        if (*end || end == value || !isfinite(a->predict) || !(a->predict > 0))
            return cli_value_error("scaling",
                                   "--predict \"%s\" is not a positive number (a size "
                                   "to evaluate the models at, e.g. --predict 1024)",
                                   value);
        return 0;
    }
    default:
        return cli_select_option(&a->select, id, value);
    }
}

static int print(const sp_scaling *s, const scaling_args *a, const cli_list *files) {
    char *text = NULL;
    sp_textbuf b = SP_TEXTBUF_INIT;
    if (a->format && strcmp(a->format, "json") == 0) {
        text = sp_scaling_json(s, cli_list_items(files), files->count);
    } else {
        if (a->format && strcmp(a->format, "csv") == 0)
            sp_scaling_csv(&b, s);
        else
            sp_scaling_text(&b, s, cli_stdout_width());
        text = sp_textbuf_take(&b);
    }
    if (!text) return cli_out_of_memory();
    fputs(text, stdout);
    free(text);
    return 0;
}

/* --model: the scaling study's runs as model measurements. */
static int print_models(const sp_scaling *s, const scaling_args *a, const cli_list *files) {
    sp_error err = {0};
    sp_scaling_models *m = sp_scaling_models_fit(s, &err);
    if (!m) {
        cli_error("scaling --model: %s", err.message);
        return err.status == SP_ERR_OUT_OF_MEMORY ? cli_out_of_memory() : CLI_EXIT_USAGE;
    }
    m->has_predict = a->has_predict;
    m->predict = a->predict;
    char *text = NULL;
    sp_textbuf b = SP_TEXTBUF_INIT;
    if (a->format && strcmp(a->format, "json") == 0) {
        text = sp_scaling_models_json(m, cli_list_items(files), files->count);
    } else {
        if (a->format && strcmp(a->format, "csv") == 0)
            sp_scaling_models_csv(&b, m);
        else
            sp_scaling_models_text(&b, m);
        text = sp_textbuf_take(&b);
    }
    sp_scaling_models_free(m);
    if (!text) return cli_out_of_memory();
    fputs(text, stdout);
    free(text);
    return 0;
}

static int run(const cli_list *files, scaling_args *a) {
    if (a->has_predict && !a->model)
        return cli_usage_error("scaling", "--predict evaluates the fitted models: add --model");
    if (a->options.x && strchr(a->options.x, ','))
        return cli_scaling_two(files, &a->options, &a->select, a->model, a->predict_text,
                               a->format);
    if (a->has_predict && strchr(a->predict_text, '='))
        return cli_usage_error("scaling",
                               "--predict %s names parameters: a one-parameter model "
                               "takes a size (--predict 1024)",
                               a->predict_text);
    if (files->count < 2)
        return cli_usage_error("scaling",
                               "needs at least two files, runs at different %s (got %zu)",
                               a->options.x ? a->options.x : "mpi_size", files->count);
    cli_runs runs = CLI_RUNS_INIT;
    int rc = cli_read_runs(files, &runs);
    if (!rc) {
        a->options.filter = cli_select_filter(&a->select);
        sp_error err = {0};
        sp_scaling *s = sp_scaling_compute(cli_runs_items(&runs), runs.count, &a->options, &err);
        if (!s) {
            cli_error("scaling: %s", err.message);
            rc = CLI_EXIT_USAGE;
        } else if (!s->num_regions) {
            cli_error("scaling: no regions match in every file%s: nothing to compare",
                      a->select.include.count || a->select.exclude.count
                          ? " (check --include and --exclude)"
                          : "");
            rc = CLI_EXIT_USAGE;
        } else {
            rc = a->model ? print_models(s, a, files) : print(s, a, files);
        }
        sp_scaling_free(s);
    }
    cli_runs_free(&runs);
    return rc;
}

int cli_scaling(int argc, char **argv) {
    static const cli_command_spec spec = {"scaling", cli_help_scaling, OPTIONS,
                                          sizeof OPTIONS / sizeof OPTIONS[0], on_option};
    scaling_args a;
    memset(&a, 0, sizeof a);
    cli_list args = CLI_LIST_INIT, files = CLI_LIST_INIT;
    int rc = cli_parse(&spec, argc, argv, &a, &args);
    if (!rc) rc = cli_expand_files("scaling", &args, &files);
    if (!rc) rc = run(&files, &a);
    cli_list_free(&args);
    cli_list_free(&files);
    cli_select_free(&a.select);
    return rc == CLI_PARSED_HELP ? CLI_EXIT_OK : rc;
}
