/*
 * scope-profiler diff A B: region by region (or call path by call path),
 * one metric of two runs, in the Python package's format; with
 * --significant, a verdict per row that tells a change from noise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_choice.h"
#include "cli/cli_compare.h"
#include "cli/cli_error.h"
#include "cli/cli_wrap.h"
#include "common/terminal_text.h"

enum { OPT_SORT = 1, OPT_THRESHOLD };

static const cli_option OPTIONS[] = {
    {"sort", 0, CLI_VALUE, OPT_SORT},
    {"threshold", 0, CLI_VALUE, OPT_THRESHOLD},
    CLI_COMPARE_OPTIONS,
    CLI_SELECT_OPTIONS,
};

static int on_option(void *ctx, int id, const char *value) {
    cli_compare_args *a = ctx;
    switch (id) {
    case OPT_SORT: {
        static const char *const names[] = {"delta", "pct", "name"};
        static const sp_compare_sort sorts[] = {SP_COMPARE_SORT_DELTA, SP_COMPARE_SORT_PCT,
                                                SP_COMPARE_SORT_NAME};
        int i = cli_choice_index(value, names, 3);
        if (i < 0) return cli_choice_error("diff", "--sort", value, names, 3);
        a->options.sort = sorts[i];
        return 0;
    }
    case OPT_THRESHOLD:
        a->options.has_threshold = 1;
        return cli_parse_number("diff", "threshold", value, &a->options.threshold);
    default:
        return cli_compare_option(a, id, value);
    }
}

/* Python's 78 columns, shorter only to fit the width. */
static void print_rule(void) {
    size_t width = cli_stdout_width(), n = width && width < 78 ? width : 78;
    for (size_t i = 0; i < n; i++)
        putchar('=');
    putchar('\n');
}

static int print_text(const sp_comparison *c, const cli_side *sa, const cli_side *sb,
                      const cli_compare_args *a) {
    print_rule();
    char *ta = sp_terminal_text(sa->title), *tb = sp_terminal_text(sb->title);
    cli_print_labelled(stdout, "a: ", ta ? ta : "?", cli_stdout_width());
    cli_print_labelled(stdout, "b: ", tb ? tb : "?", cli_stdout_width());
    free(ta);
    free(tb);
    print_rule();
    putchar('\n');
    char title[64];
    snprintf(title, sizeof title, "%s (%zu)",
             c->by == SP_COMPARE_BY_PATH ? "Call paths" : "Regions", c->count);
    int rc = cli_compare_print_table(c, title, a->options.significance);
    if (!rc && a->options.significance) {
        char note[512];
        snprintf(note, sizeof note,
                 "b/a: %s with its %g%% interval; verdict at level %g, no change within "
                 "\xc2\xb1%g%% (docs/compare.md)",
                 a->options.per_call ? "per-call test within the runs (--per-call), ratio of the "
                                       "mean time per call (total: of the totals)"
                                     : "ratio of the geometric means of the runs' values",
                 (1.0 - c->level) * 100.0, c->level, c->margin * 100.0);
        cli_print_wrapped(stdout, note, cli_stdout_width(), 5);
    }
    return rc;
}

int cli_diff(int argc, char **argv) {
    static const cli_command_spec spec = {"diff", cli_help_diff, OPTIONS,
                                          sizeof OPTIONS / sizeof OPTIONS[0], on_option};
    cli_compare_args a;
    memset(&a, 0, sizeof a);
    a.cmd = "diff";
    cli_side sa, sb;
    memset(&sa, 0, sizeof sa);
    memset(&sb, 0, sizeof sb);
    sp_comparison *c = NULL;
    cli_list args = CLI_LIST_INIT;
    int rc = cli_parse(&spec, argc, argv, &a, &args);
    if (!rc && a.format != CLI_OUT_TEXT) a.options.significance = 1;
    if (!rc) rc = cli_compare_run(&a, &args, &sa, &sb, &c);
    if (!rc) {
        sp_compare_doc doc = cli_compare_doc(&a, &sa, &sb);
        rc = a.format == CLI_OUT_TEXT ? print_text(c, &sa, &sb, &a)
                                      : cli_compare_machine_output(&a, c, &doc);
    }
    sp_comparison_free(c);
    cli_side_free(&sa);
    cli_side_free(&sb);
    cli_list_free(&args);
    cli_compare_args_free(&a);
    return rc == CLI_PARSED_HELP ? CLI_EXIT_OK : rc;
}
