#include "cli/cli_runs.h"

#include <stdlib.h>

#include "cli/cli.h"
#include "cli/cli_contain.h"
#include "cli/cli_error.h"
#include "cli/cli_repairs.h"
#include "cli/cli_select.h"
#include "format/reader.h"

static int read_runs(const cli_list *files, cli_runs *out, int stream) {
    out->items = calloc(files->count ? files->count : 1, sizeof *out->items);
    out->count = 0;
    if (!out->items) return cli_out_of_memory();
    int rc = 0;
    for (size_t i = 0; i < files->count; i++) {
        sp_error err = {0};
        cli_reading(files->items[i]);
        sp_results *r =
            stream ? sp_read_streamed(files->items[i], &err) : sp_read(files->items[i], &err);
        if (r) {
            cli_warn_repairs(r);
            out->items[out->count++] = r;
        } else {
            cli_error_sp(&err);
            rc = CLI_EXIT_USAGE;
        }
    }
    return rc;
}

void cli_runs_free(cli_runs *runs) {
    for (size_t i = 0; i < runs->count; i++)
        sp_results_free(runs->items[i]);
    free(runs->items);
    *runs = (cli_runs)CLI_RUNS_INIT;
}

int cli_read_runs(const cli_list *files, cli_runs *out) {
    return read_runs(files, out, 0);
}

int cli_read_runs_streamed(const cli_list *files, cli_runs *out) {
    return read_runs(files, out, cli_stream_wanted());
}
