/*
 * scope-profiler check BASE CANDIDATE: a CI regression gate. Exit 1 when a
 * region's change exceeds --max-regression (and, with --significant, is a
 * significant slowdown), or a region is new with --fail-on-new; else 0.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_shown.h"
#include "cli/cli_compare.h"
#include "cli/cli_error.h"
#include "cli/cli_wrap.h"
#include "common/text_buffer.h"

enum { OPT_MAX_REGRESSION = 1, OPT_FAIL_ON_NEW, OPT_STRICT };

static const cli_option OPTIONS[] = {
    {"max-regression", 0, CLI_VALUE, OPT_MAX_REGRESSION},
    {"fail-on-new", 0, CLI_FLAG, OPT_FAIL_ON_NEW},
    {"strict", 0, CLI_FLAG, OPT_STRICT},
    CLI_COMPARE_OPTIONS,
    CLI_SELECT_OPTIONS,
};

typedef struct check_args {
    cli_compare_args compare; /* first: the shared options see it as their context */
    sp_check_options check;
} check_args;

static int on_option(void *ctx, int id, const char *value) {
    check_args *a = ctx;
    switch (id) {
    case OPT_MAX_REGRESSION: {
        int rc = cli_parse_number("check", "max-regression", value, &a->check.max_regression);
        if (!rc && a->check.max_regression < 0)
            return cli_value_error("check", "--max-regression must be non-negative, not %s", value);
        return rc;
    }
    case OPT_FAIL_ON_NEW:
        a->check.fail_on_new = 1;
        return 0;
    case OPT_STRICT: /* implies --significant */
        a->check.strict = a->compare.strict = 1;
        a->compare.options.significance = 1;
        return 0;
    default:
        return cli_compare_option(&a->compare, id, value);
    }
}

static void print_violations(const sp_comparison *c, const sp_check_options *k) {
    sp_textbuf line = SP_TEXTBUF_INIT;
    for (size_t i = 0; i < c->count; i++) {
        if (!sp_compare_row_violates(&c->rows[i], k)) continue;
        sp_textbuf_append(&line, line.len ? ", " : "Budget violations: ");
        sp_textbuf_append(&line, c->rows[i].name);
    }
    if (line.len && !sp_textbuf_failed(&line))
        cli_print_clauses(stdout, sp_textbuf_str(&line), cli_stdout_width(), 2);
    sp_textbuf_free(&line);
}

/* Rows that passed only because the test could not decide: say so, and the way out. */
static void print_inconclusive(const sp_comparison *c, const sp_check_options *k) {
    size_t n = 0;
    for (size_t i = 0; i < c->count; i++) {
        sp_verdict v = c->rows[i].sig.verdict;
        if ((v == SP_VERDICT_INCONCLUSIVE || v == SP_VERDICT_ONE_RUN) &&
            !sp_compare_row_violates(&c->rows[i], k))
            n++;
    }
    if (n) {
        char note[160];
        snprintf(note, sizeof note,
                 "Inconclusive: %zu row%s passed without a decision (more runs per side, or "
                 "--strict to fail them)",
                 n, n == 1 ? "" : "s");
        cli_print_wrapped(stdout, note, cli_stdout_width(), 2);
    }
}

static int failed(const sp_comparison *c, const sp_check_options *k) {
    for (size_t i = 0; i < c->count; i++)
        if (sp_compare_row_violates(&c->rows[i], k)) return 1;
    return 0;
}

static int print_text(const sp_comparison *c, const cli_side *sa, const cli_side *sb,
                      const check_args *a) {
    cli_print_labelled(stdout, "Baseline: ", cli_shown(sa->title), cli_stdout_width());
    cli_print_labelled(stdout, "Candidate: ", cli_shown(sb->title), cli_stdout_width());
    char budget[256];
    int n = snprintf(budget, sizeof budget, "Regression budget: +%g%% (%s)",
                     a->check.max_regression, sp_metric_name(c->metric));
    if (a->check.significant && n > 0 && (size_t)n < sizeof budget)
        snprintf(budget + n, sizeof budget - (size_t)n, ", significant slowdowns at level %g%s",
                 c->level, a->check.strict ? ", inconclusive rows fail (--strict)" : "");
    cli_print_clauses(stdout, budget, cli_stdout_width(), 2);
    int rc = cli_compare_print_table(
        c, failed(c, &a->check) ? "Regression check: FAIL" : "Regression check: PASS",
        a->check.significant);
    if (!rc) print_violations(c, &a->check);
    if (!rc && a->check.significant) print_inconclusive(c, &a->check);
    return rc;
}

int cli_check(int argc, char **argv) {
    static const cli_command_spec spec = {"check", cli_help_check, OPTIONS,
                                          sizeof OPTIONS / sizeof OPTIONS[0], on_option};
    check_args a;
    memset(&a, 0, sizeof a);
    a.compare.cmd = "check";
    cli_side sa, sb;
    memset(&sa, 0, sizeof sa);
    memset(&sb, 0, sizeof sb);
    sp_comparison *c = NULL;
    cli_list args = CLI_LIST_INIT;
    int rc = cli_parse(&spec, argc, argv, &a, &args);
    if (!rc) {
        /* --significant turns the verdicts on; the table and JSON show them */
        a.check.significant = a.compare.options.significance;
        a.compare.options.sort = SP_COMPARE_SORT_PCT;
        if (a.compare.format != CLI_OUT_TEXT) a.compare.options.significance = 1;
        rc = cli_compare_run(&a.compare, &args, &sa, &sb, &c);
    }
    if (!rc) {
        sp_compare_doc doc = cli_compare_doc(&a.compare, &sa, &sb);
        doc.check = &a.check;
        rc = a.compare.format == CLI_OUT_TEXT ? print_text(c, &sa, &sb, &a)
                                              : cli_compare_machine_output(&a.compare, c, &doc);
        if (!rc && failed(c, &a.check)) rc = CLI_EXIT_CHECK;
    }
    sp_comparison_free(c);
    cli_side_free(&sa);
    cli_side_free(&sb);
    cli_list_free(&args);
    cli_compare_args_free(&a.compare);
    return rc == CLI_PARSED_HELP ? CLI_EXIT_OK : rc;
}
