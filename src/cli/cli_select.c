#include "cli/cli_select.h"

#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_error.h"
#include "cli/cli_repairs.h"
#include "format/reader.h"
#include "model/results_model.h"

int cli_select_option(cli_select *s, int id, const char *value) {
    switch (id) {
    case CLI_OPT_INCLUDE:
        return cli_list_add(&s->include, value) ? 0 : cli_out_of_memory();
    case CLI_OPT_EXCLUDE:
        return cli_list_add(&s->exclude, value) ? 0 : cli_out_of_memory();
    case CLI_OPT_RANKS:
        return cli_ranks_add(&s->ranks, value);
    case CLI_OPT_TAG:
        if (!*value) return cli_value_error("select", "--tag needs a tag name, e.g. --tag solver");
        return cli_list_add(&s->tags, value) ? 0 : cli_out_of_memory();
    default:
        cli_error("internal error: option %d is not a selection option", id);
        return CLI_EXIT_USAGE;
    }
}

sp_filter cli_select_filter(cli_select *s) {
    cli_ranks_finish(&s->ranks);
    sp_filter f = {0};
    f.include = s->include.count ? cli_list_items(&s->include) : NULL;
    f.num_include = s->include.count;
    f.exclude = s->exclude.count ? cli_list_items(&s->exclude) : NULL;
    f.num_exclude = s->exclude.count;
    f.ranks = s->ranks.count ? s->ranks.ranks : NULL;
    f.num_ranks = s->ranks.count;
    f.tags = s->tags.count ? cli_list_items(&s->tags) : NULL;
    f.num_tags = s->tags.count;
    return f;
}

void cli_select_free(cli_select *s) {
    cli_list_free(&s->include);
    cli_list_free(&s->exclude);
    cli_ranks_free(&s->ranks);
    cli_list_free(&s->tags);
}

int cli_stream_wanted(void) {
    const char *v = getenv("SCOPE_PROFILER_STREAM");
    return !(v && strcmp(v, "0") == 0);
}

sp_results *cli_select_read_streamed(const cli_select *s, const char *path, sp_error *err) {
    /* --tag's error path lists the file's tags from the summary table, which needs the calls */
    if (s->tags.count || !cli_stream_wanted()) return cli_select_read(s, path, err);
    sp_results *r = sp_read_streamed(path, err);
    if (r) cli_warn_repairs(r);
    return r;
}

sp_results *cli_select_read(const cli_select *s, const char *path, sp_error *err) {
    sp_results *r =
        sp_read_ranks(path, s->ranks.count ? s->ranks.ranks : NULL, s->ranks.count, err);
    if (r) cli_warn_repairs(r);
    return r;
}
