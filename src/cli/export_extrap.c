/*
 * scope-profiler export extrap FILE... --param mpi_size[,KEY] -o OUT.jsonl:
 * runs as Extra-P's JSON Lines input, the parameters from the rank count and
 * the runs' metadata (docs/scaling.md, "Extra-P").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_args.h"
#include "cli/cli_error.h"
#include "cli/cli_files.h"
#include "cli/cli_meta.h"
#include "cli/cli_runs.h"
#include "cli/cli_select.h"
#include "cli/cli_shown.h"
#include "export/extrap.h"
#include "format/atomic_file.h"

const char cli_help_export_extrap[] =
    "Usage: scope-profiler export extrap FILE... --param KEY[,KEY] -o OUT.jsonl\n"
    "\n"
    "Writes the runs as Extra-P's JSON Lines input: one line per call path per run,\n"
    "{\"params\": {KEY: value}, \"callpath\": \"a->b\", \"metric\": \"time\", \"value\": s}\n"
    "with the call path's total time per rank in seconds. Runs at the same\n"
    "parameter values are repetitions. Then: extrap --jsonlines OUT.jsonl\n"
    "\n"
    "Options:\n"
    "  --param KEY[,KEY]   the model parameters: mpi_size (the rank count) or numeric\n"
    "                      metadata keys (scope-profiler run --meta, sp_set_metadata)\n"
    "  -o, --output PATH   the .jsonl file (\"-\" = stdout); replaced atomically\n"
    "  --include RE..., --exclude RE..., --ranks LIST..., --tag TAG...\n"
    "                      the region selection, as for stats\n";

enum { OPT_PARAM = 1, OPT_OUTPUT };

static const cli_option OPTIONS[] = {
    {"param", 0, CLI_VALUE, OPT_PARAM},
    {"output", 'o', CLI_VALUE, OPT_OUTPUT},
    CLI_SELECT_OPTIONS,
};

typedef struct extrap_args {
    cli_list params;
    const char *output;
    cli_select select;
} extrap_args;

static int on_option(void *ctx, int id, const char *value) {
    extrap_args *a = ctx;
    switch (id) {
    case OPT_PARAM:
        return cli_meta_keys("export extrap", "param", value, &a->params);
    case OPT_OUTPUT:
        a->output = value;
        return 0;
    default:
        return cli_select_option(&a->select, id, value);
    }
}

/* A parameter's value in one run; 0 or an exit code after one error line. */
static int param_value(const sp_results *r, const char *path, const char *key, double *out) {
    if (!strcmp(key, "mpi_size")) {
        *out = (double)sp_results_num_ranks(r);
        return 0;
    }
    sp_metadata_item item;
    if (!sp_results_metadata_find(r, key, &item))
        return cli_usage_error("export extrap",
                               "%s has no metadata key '%s' (see scope-profiler metadata %s)", path,
                               key, path);
    char *end = NULL;
    if (item.type == SP_VALUE_INT) *out = (double)item.int_value;
    if (item.type == SP_VALUE_FLOAT) *out = item.float_value;
    if (item.type == SP_VALUE_STRING) *out = strtod(item.string_value, &end);
    int number = item.type == SP_VALUE_INT || item.type == SP_VALUE_FLOAT ||
                 (item.type == SP_VALUE_STRING && *item.string_value && end && !*end);
    if (!number || !isfinite(*out))
        return cli_usage_error("export extrap",
                               "%s: metadata key '%s' is not a number, so it cannot be a model "
                               "parameter",
                               path, key);
    return 0;
}

static int write_out(const char *text, const char *output) {
    if (!strcmp(output, "-")) {
        fputs(text, stdout);
        return 0;
    }
    sp_error err = {0};
    char *tmp = sp_atomic_begin(output, &err);
    FILE *f = tmp ? fopen(tmp, "w") : NULL;
    int ok = f && fputs(text, f) >= 0;
    if (f && fclose(f)) ok = 0;
    if (ok && sp_atomic_commit(tmp, output, &err) == SP_OK) {
        free(tmp);
        printf("Extra-P measurements written to %s\n", cli_shown(output));
        return 0;
    }
    if (tmp && !ok) sp_atomic_abort(tmp);
    free(tmp);
    return cli_usage_error("export extrap", "cannot write %s%s%s", output,
                           err.message[0] ? ": " : "", err.message);
}

static int run(const cli_list *files, extrap_args *a) {
    if (!a->params.count)
        return cli_usage_error("export extrap", "needs --param, e.g. --param mpi_size or "
                                                "--param mpi_size,problem_size");
    if (!a->output)
        return cli_usage_error("export extrap", "needs -o OUT.jsonl (or -o - for stdout)");
    cli_runs runs = CLI_RUNS_INIT;
    int rc = cli_read_runs(files, &runs);
    double *values = calloc(a->params.count, sizeof *values);
    sp_textbuf out = SP_TEXTBUF_INIT;
    if (!rc && !values) rc = cli_out_of_memory();
    sp_filter filter = cli_select_filter(&a->select);
    for (size_t i = 0; !rc && i < runs.count; i++) {
        rc = cli_select_check(&a->select, runs.items[i], files->items[i]);
        for (size_t k = 0; !rc && k < a->params.count; k++)
            rc = param_value(runs.items[i], files->items[i], a->params.items[k], &values[k]);
        sp_error err = {0};
        if (!rc && sp_extrap_lines(runs.items[i], (const char *const *)a->params.items, values,
                                   a->params.count, &filter, &out, &err) != SP_OK) {
            cli_error("export extrap: %s", err.message);
            rc = CLI_EXIT_USAGE;
        }
    }
    if (!rc)
        rc =
            sp_textbuf_str(&out) ? write_out(sp_textbuf_str(&out), a->output) : cli_out_of_memory();
    sp_textbuf_free(&out);
    free(values);
    cli_runs_free(&runs);
    return rc;
}

int cli_export_extrap(int argc, char **argv) {
    static const cli_command_spec spec = {"export extrap", cli_help_export_extrap, OPTIONS,
                                          sizeof OPTIONS / sizeof OPTIONS[0], on_option};
    extrap_args a;
    memset(&a, 0, sizeof a);
    cli_list args = CLI_LIST_INIT, files = CLI_LIST_INIT;
    int rc = cli_parse(&spec, argc, argv, &a, &args);
    if (!rc && !args.count)
        rc = cli_usage_error("export extrap", "needs FILEs (runs at different parameter values)");
    if (!rc) rc = cli_expand_files("export extrap", &args, &files);
    if (!rc) rc = run(&files, &a);
    cli_list_free(&args);
    cli_list_free(&files);
    cli_list_free(&a.params);
    cli_select_free(&a.select);
    return rc == CLI_PARSED_HELP ? CLI_EXIT_OK : rc;
}
