/* A selection that selects nothing is an error that says why (item 9.18). */
#include <stdlib.h>
#include <string.h>

#include "analysis/suggest.h"
#include "cli/cli.h"
#include "cli/cli_error.h"
#include "cli/cli_select.h"
#include "common/text_buffer.h"

static int has_rank(const sp_results *r, uint32_t rank) {
    for (size_t i = 0; i < sp_results_num_data_ranks(r); i++)
        if (sp_results_rank(r, i) == rank) return 1;
    return 0;
}

/* "rank 0", "ranks 0-2", "ranks 0, 2, 5" */
static void describe_ranks(sp_textbuf *b, const sp_results *r) {
    size_t n = sp_results_num_data_ranks(r);
    if (n == 0) {
        sp_textbuf_append(b, "no ranks");
        return;
    }
    uint32_t first = sp_results_rank(r, 0), last = sp_results_rank(r, n - 1);
    if (n == 1)
        sp_textbuf_printf(b, "rank %u", first);
    else if (last - first + 1 == n)
        sp_textbuf_printf(b, "ranks %u-%u", first, last);
    else
        for (size_t i = 0; i < n; i++)
            sp_textbuf_printf(b, "%s%u", i ? ", " : "ranks ", sp_results_rank(r, i));
}

static int check_ranks(const cli_select *s, const sp_results *r, const char *path) {
    sp_textbuf missing = SP_TEXTBUF_INIT;
    size_t count = 0;
    for (size_t i = 0; i < s->ranks.count; i++) {
        if (has_rank(r, s->ranks.ranks[i])) continue;
        if (count++ < 8)
            sp_textbuf_printf(&missing, "%s%u", count > 1 ? ", " : "", s->ranks.ranks[i]);
    }
    if (!count) return 0;
    if (count > 8) sp_textbuf_printf(&missing, " and %zu more", count - 8);
    sp_textbuf held = SP_TEXTBUF_INIT;
    describe_ranks(&held, r);
    cli_error("%s: --ranks selects rank%s %s, which the file does not hold (it holds %s)", path,
              count > 1 ? "s" : "", sp_textbuf_str(&missing), sp_textbuf_str(&held));
    sp_textbuf_free(&missing);
    sp_textbuf_free(&held);
    return CLI_EXIT_USAGE;
}

static size_t count_selected(const sp_results *r, const sp_filter *f) {
    sp_error err = {0};
    size_t n = 0;
    const sp_mpi_region **list = sp_results_get_regions(r, f, &n, &err);
    if (!list) return (size_t)-1; /* a bad pattern: reported where it is compiled */
    sp_region_list_free(list);
    return n;
}

static int check_patterns(const cli_select *s, const sp_results *r, const char *path) {
    sp_filter all = {0};
    all.include = s->include.count ? cli_list_items(&s->include) : NULL;
    all.num_include = s->include.count;
    all.exclude = s->exclude.count ? cli_list_items(&s->exclude) : NULL;
    all.num_exclude = s->exclude.count;
    if (!all.num_include && !all.num_exclude) return 0;
    size_t n = count_selected(r, &all);
    if (n != 0) return 0; /* something selected, or a bad pattern reported elsewhere */
    size_t num_names = sp_results_num_regions(r);
    const char **names = malloc((num_names ? num_names : 1) * sizeof *names);
    if (!names) return cli_out_of_memory();
    for (size_t i = 0; i < num_names; i++)
        names[i] = sp_results_region_name(r, i);
    int reported = 0;
    for (size_t i = 0; i < s->include.count; i++) {
        const char *p = s->include.items[i];
        sp_filter one = {0};
        one.include = &p;
        one.num_include = 1;
        if (count_selected(r, &one) != 0) continue;
        long close = sp_suggest_name(p, names, num_names);
        if (close >= 0)
            cli_error("%s: --include \"%s\" matches no region: did you mean \"%s\"?", path, p,
                      names[close]);
        else
            cli_error("%s: --include \"%s\" matches no region (the file has %zu)", path, p,
                      num_names);
        reported = 1;
    }
    if (!reported && s->include.count)
        cli_error("%s: --exclude removes every region that --include selects", path);
    else if (!reported)
        cli_error("%s: --exclude removes every region (the file has %zu)", path, num_names);
    free(names);
    return CLI_EXIT_USAGE;
}

/* --tag that no region of the file carries: the tags it has are named. */
static int check_tags(const cli_select *s, const sp_results *r, const char *path) {
    if (!s->tags.count) return 0;
    sp_filter tagged = {0};
    tagged.tags = cli_list_items(&s->tags);
    tagged.num_tags = s->tags.count;
    if (count_selected(r, &tagged) != 0) return 0;
    sp_textbuf have = SP_TEXTBUF_INIT;
    sp_summary_rows *rows = sp_results_summary(r, NULL, 0, NULL);
    for (size_t i = 0; rows && i < rows->count; i++) {
        const char *t = rows->rows[i].tags;
        if (!t || !strcmp(t, "[]") || (have.len && strstr(sp_textbuf_str(&have), t))) continue;
        sp_textbuf_printf(&have, "%s%s", have.len ? " " : "", t);
    }
    sp_summary_rows_free(rows);
    cli_error("%s: --tag %s%s: no region carries %s (the file's tags: %s)", path,
              s->tags.items[0], s->tags.count > 1 ? " ..." : "",
              s->tags.count > 1 ? "any of them" : "it",
              have.len && sp_textbuf_str(&have) ? sp_textbuf_str(&have) : "none");
    sp_textbuf_free(&have);
    return CLI_EXIT_USAGE;
}

int cli_select_check(const cli_select *s, const sp_results *r, const char *path) {
    int rc = check_ranks(s, r, path);
    if (!rc) rc = check_tags(s, r, path);
    return rc ? rc : check_patterns(s, r, path);
}
