#include "cli/cli_compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_choice.h"
#include "cli/cli_colour.h"
#include "cli/cli_error.h"
#include "cli/cli_files.h"
#include "present/run_info.h"

int cli_parse_number(const char *cmd, const char *option, const char *value, double *out) {
    char *end;
    *out = strtod(value, &end);
    if (!*value || *end || !isfinite(*out))
        return cli_value_error(cmd, "--%s needs a number, not \"%s\"", option, value);
    return 0;
}

static int set_metric(cli_compare_args *a, const char *value) {
    if (sp_metric_parse(value, &a->options.metric)) return 0;
    const char *names[SP_METRIC_COUNT_];
    for (int m = 0; m < SP_METRIC_COUNT_; m++)
        names[m] = sp_metric_name((sp_metric)m);
    return cli_choice_error(a->cmd, "--metric", value, names, SP_METRIC_COUNT_);
}

static int set_format(cli_compare_args *a, const char *value) {
    /* "text" is an alias of "table" (not listed) */
    static const char *const names[] = {"table", "json", "csv"};
    static const cli_out_format formats[] = {CLI_OUT_TEXT, CLI_OUT_JSON, CLI_OUT_CSV};
    int i = strcmp(value, "text") == 0 ? 0 : cli_choice_index(value, names, 3);
    if (i < 0) return cli_choice_error(a->cmd, "--format", value, names, 3);
    a->format = formats[i];
    return 0;
}

static int set_by(cli_compare_args *a, const char *value) {
    static const char *const names[] = {"region", "path"};
    int i = cli_choice_index(value, names, 2);
    if (i < 0) return cli_choice_error(a->cmd, "--by", value, names, 2);
    a->options.by = i == 0 ? SP_COMPARE_BY_REGION : SP_COMPARE_BY_PATH;
    return 0;
}

int cli_compare_option(cli_compare_args *a, int id, const char *value) {
    switch (id) {
    case CLI_OPT_METRIC:
        return set_metric(a, value);
    case CLI_OPT_BY:
        return set_by(a, value);
    case CLI_OPT_FORMAT:
        return set_format(a, value);
    case CLI_OPT_SIGNIFICANT:
        a->options.significance = 1;
        return 0;
    case CLI_OPT_LEVEL: {
        int rc = cli_parse_number(a->cmd, "level", value, &a->options.level);
        if (rc) return rc;
        if (!(a->options.level > 0.0 && a->options.level < 1.0))
            return cli_value_error(a->cmd, "--level must lie between 0 and 1 (e.g. 0.01), not %s",
                                   value);
        a->level_given = 1;
        return 0;
    }
    case CLI_OPT_MARGIN: {
        double pct;
        int rc = cli_parse_number(a->cmd, "margin", value, &pct);
        if (rc) return rc;
        if (!(pct > 0.0 && pct < 100.0))
            return cli_value_error(
                a->cmd, "--margin is a percentage between 0 and 100 (e.g. 2), not %s", value);
        a->options.margin = pct / 100.0;
        return 0;
    }
    case CLI_OPT_PER_CALL:
        a->options.per_call = 1;
        a->options.significance = 1;
        return 0;
    case CLI_OPT_ALLOW_SIZES:
        a->allow_different_sizes = 1;
        return 0;
    case CLI_OPT_TITLE_META:
        return cli_meta_keys(a->cmd, "title-meta", value, &a->title_meta);
    default:
        return cli_select_option(&a->select, id, value);
    }
}

/* The title with the --title-meta values of its first run appended. */
static int add_title_meta(const cli_list *keys, cli_side *s) {
    if (!keys->count) return 0;
    sp_textbuf b = SP_TEXTBUF_INIT;
    sp_textbuf_append(&b, s->title);
    cli_meta_title_suffix(s->runs.items[0], keys, &b);
    char *title = sp_textbuf_take(&b);
    if (!title) return cli_out_of_memory();
    free(s->title);
    s->title = title;
    return 0;
}

static int load_side(const char *cmd, const char *arg, cli_side *s) {
    cli_list one = CLI_LIST_INIT;
    if (!cli_list_add(&one, arg)) return cli_out_of_memory();
    int rc = cli_expand_files(cmd, &one, &s->files);
    cli_list_free(&one);
    if (!rc) rc = cli_read_runs(&s->files, &s->runs);
    if (rc) return rc;
    char *first = sp_run_default_title(s->runs.items[0]);
    if (!first) return cli_out_of_memory();
    if (s->runs.count == 1) {
        s->title = first;
        return 0;
    }
    size_t n = strlen(first) + 64;
    s->title = malloc(n);
    if (s->title)
        snprintf(s->title, n, "%s + %zu more run%s, pooled", first, s->runs.count - 1,
                 s->runs.count == 2 ? "" : "s");
    free(first);
    return s->title ? 0 : cli_out_of_memory();
}

/* Runs of different schemas are refused: their layouts hold different facts. */
static int same_schema(const char *cmd, const cli_side *sa, const cli_side *sb) {
    const sp_results *first = sa->runs.items[0];
    const cli_side *sides[2] = {sa, sb};
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < sides[k]->runs.count; i++) {
            const sp_results *r = sides[k]->runs.items[i];
            if (sp_results_schema(r) == sp_results_schema(first)) continue;
            cli_error("%s: %s has schema %d but %s has schema %d: compare runs written with one "
                      "schema",
                      cmd, sp_results_path(first), sp_results_schema(first), sp_results_path(r),
                      sp_results_schema(r));
            return CLI_EXIT_USAGE;
        }
    return 0;
}

/* Runs on different rank counts time different decompositions: refused unless asked for. */
static int same_size(const cli_compare_args *a, const cli_side *sa, const cli_side *sb) {
    if (a->allow_different_sizes) return 0;
    const sp_results *first = sa->runs.items[0];
    const cli_side *sides[2] = {sa, sb};
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < sides[k]->runs.count; i++) {
            const sp_results *r = sides[k]->runs.items[i];
            if (sp_results_num_ranks(r) == sp_results_num_ranks(first)) continue;
            cli_error("%s: %s ran on %zu ranks but %s on %zu: compare runs of one size, or pass "
                      "--allow-different-sizes",
                      a->cmd, sp_results_path(first), (size_t)sp_results_num_ranks(first),
                      sp_results_path(r), (size_t)sp_results_num_ranks(r));
            return CLI_EXIT_USAGE;
        }
    return 0;
}

/* What the significance test needs: per-call data for --per-call, else runs on both sides. */
static int enough_for_test(const cli_compare_args *a, const cli_side *sa, const cli_side *sb) {
    const sp_compare_options *o = &a->options;
    if (!o->significance) return 0;
    if (o->per_call) {
        const cli_side *sides[2] = {sa, sb};
        for (int k = 0; k < 2; k++)
            for (size_t i = 0; i < sides[k]->runs.count; i++) {
                const sp_results *r = sides[k]->runs.items[i];
                if (sp_results_has_events(r)) continue;
                cli_error("%s: %s is an aggregate file (no per-call durations): --per-call needs "
                          "per-call data; drop --per-call and compare repeated runs",
                          a->cmd, sp_results_path(r));
                return CLI_EXIT_USAGE;
            }
        return 0;
    }
    size_t na = sa->runs.count, nb = sb->runs.count;
    if ((na == 1) != (nb == 1)) {
        cli_error("%s: --significant compares runs: a has %zu run%s and b %zu; give at least 2 "
                  "runs on each side (a quoted glob, e.g. 'base_*.h5'), or --per-call",
                  a->cmd, na, na == 1 ? "" : "s", nb);
        return CLI_EXIT_USAGE;
    }
    if (na == 1 && a->strict) {
        cli_error("%s: --strict needs at least 2 runs on each side (5 recommended, "
                  "docs/compare.md): with one run per side every verdict is inconclusive",
                  a->cmd);
        return CLI_EXIT_USAGE;
    }
    return 0;
}

static int bad_selection(const cli_compare_args *a, const cli_side *sa, const cli_side *sb,
                         const sp_comparison *c) {
    const char *pa = sp_results_path(sa->runs.items[0]), *pb = sp_results_path(sb->runs.items[0]);
    if (!c->num_selected) {
        int filtered = a->select.include.count || a->select.exclude.count || a->select.ranks.count;
        cli_error("%s: no regions match%s in %s or %s%s", a->cmd,
                  filtered ? " the selection (--include, --exclude, --ranks)" : "", pa, pb,
                  filtered ? ": widen it" : ": the files hold no timed region");
        return CLI_EXIT_USAGE;
    }
    if (!c->num_common) {
        cli_error("%s: %s and %s have no %s in common: nothing to compare (are they runs of the "
                  "same program?)",
                  a->cmd, pa, pb, a->options.by == SP_COMPARE_BY_PATH ? "call path" : "region");
        return CLI_EXIT_USAGE;
    }
    return 0;
}

int cli_compare_run(cli_compare_args *a, const cli_list *args, cli_side *sa, cli_side *sb,
                    sp_comparison **out) {
    *out = NULL;
    if (args->count != 2)
        return cli_usage_error(a->cmd,
                               "needs two FILE arguments, a baseline and a candidate "
                               "(got %zu; quote a glob to pool several runs per side)",
                               args->count);
    int rc = load_side(a->cmd, args->items[0], sa);
    int rc_b = load_side(a->cmd, args->items[1], sb);
    if (!rc) rc = add_title_meta(&a->title_meta, sa);
    if (!rc_b) rc_b = add_title_meta(&a->title_meta, sb);
    if (rc || rc_b) return rc ? rc : rc_b;
    if ((rc = same_schema(a->cmd, sa, sb)) || (rc = same_size(a, sa, sb)) ||
        (rc = enough_for_test(a, sa, sb)))
        return rc;
    a->options.filter = cli_select_filter(&a->select);
    sp_error err = {0};
    *out = sp_compare(cli_runs_items(&sa->runs), sa->runs.count, cli_runs_items(&sb->runs),
                      sb->runs.count, &a->options, &err);
    if (!*out) {
        cli_error_sp(&err);
        return CLI_EXIT_USAGE;
    }
    return bad_selection(a, sa, sb, *out);
}

void cli_side_free(cli_side *s) {
    cli_runs_free(&s->runs);
    cli_list_free(&s->files);
    free(s->title);
    s->title = NULL;
}

sp_compare_doc cli_compare_doc(const cli_compare_args *a, const cli_side *sa, const cli_side *sb) {
    sp_compare_doc d = {a->cmd,
                        sa->title,
                        sb->title,
                        cli_list_items(&sa->files),
                        sa->files.count,
                        cli_list_items(&sb->files),
                        sb->files.count,
                        a->options.significance,
                        NULL};
    return d;
}

int cli_compare_machine_output(const cli_compare_args *a, const sp_comparison *c,
                               const sp_compare_doc *doc) {
    if (a->format == CLI_OUT_JSON) {
        char *text = sp_compare_json(c, doc);
        if (!text) return cli_out_of_memory();
        fputs(text, stdout);
        free(text);
        return 0;
    }
    sp_textbuf b = SP_TEXTBUF_INIT;
    sp_compare_csv(&b, c, doc);
    if (sp_textbuf_failed(&b)) return cli_out_of_memory();
    fputs(sp_textbuf_str(&b), stdout);
    sp_textbuf_free(&b);
    return 0;
}

int cli_compare_print_table(const sp_comparison *c, const char *title, int significance) {
    sp_textbuf b = SP_TEXTBUF_INIT;
    sp_compare_text(&b, c, title, significance, cli_terminal_width(stdout));
    if (sp_textbuf_failed(&b)) {
        sp_textbuf_free(&b);
        return cli_out_of_memory();
    }
    fputs(sp_textbuf_str(&b), stdout);
    sp_textbuf_free(&b);
    return 0;
}

void cli_compare_args_free(cli_compare_args *a) {
    cli_select_free(&a->select);
    cli_list_free(&a->title_meta);
}
