/*
 * scope-profiler metadata FILE... [-o PATH]: the run metadata of every file
 * as one JSON document, {"files": [{file_path, num_ranks, metadata}]}
 * (python_semantics.md §6.3), never clipped. On stdout without -o.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_shown.h"
#include "cli/cli_args.h"
#include "cli/cli_error.h"
#include "cli/cli_files.h"
#include "cli/cli_runs.h"

enum { OPT_OUTPUT = 1 };

static const cli_option OPTIONS[] = {
    {"output", 'o', CLI_VALUE, OPT_OUTPUT},
};

static int on_option(void *ctx, int id, const char *value) {
    (void)id; /* the only option */
    *(const char **)ctx = value;
    return 0;
}

static int emit(const cli_runs *runs, const char *path) {
    sp_error err = {0};
    if (path && strcmp(path, "-") != 0) {
        if (sp_write_metadata_json(cli_runs_items(runs), runs->count, path, &err)) {
            cli_error_sp(&err);
            return CLI_EXIT_USAGE;
        }
        printf("Metadata written to %s\n", cli_shown(path));
        return 0;
    }
    char *text = sp_collect_metadata_json(cli_runs_items(runs), runs->count, &err);
    if (!text) {
        cli_error_sp(&err);
        return CLI_EXIT_USAGE;
    }
    fputs(text, stdout);
    free(text);
    return 0;
}

int cli_metadata(int argc, char **argv) {
    static const cli_command_spec spec = {"metadata", cli_help_metadata, OPTIONS,
                                          sizeof OPTIONS / sizeof OPTIONS[0], on_option};
    const char *output = NULL;
    cli_list args = CLI_LIST_INIT, files = CLI_LIST_INIT;
    int rc = cli_parse(&spec, argc, argv, &output, &args);
    if (!rc) rc = cli_expand_files("metadata", &args, &files);
    cli_runs runs = CLI_RUNS_INIT;
    if (!rc) rc = cli_read_runs(&files, &runs);
    if (!rc) rc = emit(&runs, output);
    cli_runs_free(&runs);
    cli_list_free(&args);
    cli_list_free(&files);
    return rc == CLI_PARSED_HELP ? CLI_EXIT_OK : rc;
}
