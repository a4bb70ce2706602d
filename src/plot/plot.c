/* The public plot API: kinds, options, the selection every chart starts from. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "plot/plot_internal.h"
#include "present/text_file.h"

static const char *const KIND_NAMES[SP_PLOT_NUM_KINDS] = {
    "gantt", "flame-chart", "flame-graph", "durations", "imbalance", "histogram", "speedup"};

const char *sp_plot_kind_name(sp_plot_kind kind) {
    return (unsigned)kind < SP_PLOT_NUM_KINDS ? KIND_NAMES[kind] : NULL;
}

int sp_plot_kind_from_name(const char *name, sp_plot_kind *out) {
    for (int i = 0; name && i < SP_PLOT_NUM_KINDS; i++)
        if (strcmp(KIND_NAMES[i], name) == 0) {
            *out = (sp_plot_kind)i;
            return 1;
        }
    return 0;
}

long sp_chart_region_index(const sp_chart *c, const sp_mpi_region *region) {
    return sp_results_find(c->r, sp_mpi_region_name(region));
}

int sp_chart_rank_selected(const sp_chart *c, uint32_t rank) {
    size_t lo = 0, hi = c->num_ranks;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (c->ranks[mid] == rank) return 1;
        if (c->ranks[mid] < rank)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

char *sp_chart_subtitle(const sp_chart *c) {
    sp_textbuf t = SP_TEXTBUF_INIT;
    const char *path = sp_results_path(c->r);
    sp_textbuf_printf(&t, "%s", sp_results_display_label(c->r));
    if (path) {
        const char *base = strrchr(path, '/');
        sp_textbuf_printf(&t, " \xC2\xB7 %s", base ? base + 1 : path);
    }
    size_t ranks = sp_results_num_ranks(c->r);
    sp_textbuf_printf(&t, " \xC2\xB7 %zu rank%s", ranks, ranks == 1 ? "" : "s");
    return sp_textbuf_take(&t);
}

void sp_lane_name(const sp_results *r, uint32_t rank, int64_t thread, char *out, size_t size) {
    size_t lanes = sp_results_num_threads(r);
    int ranks = sp_results_num_data_ranks(r) > 1;
    sp_thread_summary me = {0}, t;
    int found = 0;
    for (size_t i = 0; i < lanes && !found; i++)
        if (sp_results_thread_summary(r, i, &t, NULL) == SP_OK && t.rank == rank &&
            t.index == thread && t.name[0]) {
            me = t;
            found = 1;
        }
    if (!found) {
        snprintf(out, size, "r%u t%lld", rank, (long long)thread);
        return;
    }
    /* A name other threads of the rank share (the process name every
     * unnamed thread inherits) gets the thread number too. */
    int shared = 0;
    for (size_t i = 0; i < lanes && !shared; i++)
        shared = sp_results_thread_summary(r, i, &t, NULL) == SP_OK && t.rank == rank &&
                 t.index != thread && strcmp(t.name, me.name) == 0;
    char prefix[16] = "";
    if (ranks) snprintf(prefix, sizeof prefix, "r%u ", rank);
    if (shared)
        snprintf(out, size, "%s%s t%lld", prefix, me.name, (long long)thread);
    else
        snprintf(out, size, "%s%s", prefix, me.name);
}

void sp_chart_empty(sp_chart *c, const char *title, const char *why) {
    char *sub = sp_chart_subtitle(c);
    sp_svg_begin(c->b, c->width, 90, c->standalone, title, sub);
    sp_svg_note(c->b, 12, 55, why);
    sp_svg_end(c->b);
    free(sub);
}

/* The selected ranks with data: the filter's ranks, or all. */
static sp_status select_ranks(sp_chart *c, sp_error *err) {
    const sp_filter *f = &c->o->filter;
    size_t n = sp_results_num_data_ranks(c->r);
    c->ranks = malloc((n ? n : 1) * sizeof *c->ranks);
    if (!c->ranks) return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    for (size_t i = 0; i < n; i++) {
        uint32_t rank = sp_results_rank(c->r, i);
        int keep = f->num_ranks == 0;
        for (size_t k = 0; !keep && k < f->num_ranks; k++)
            keep = f->ranks[k] == rank;
        if (keep) c->ranks[c->num_ranks++] = rank;
    }
    return SP_OK;
}

static sp_status check_options(const sp_plot_options *o, sp_error *err) {
    if (o->width && (o->width < 320 || o->width > 8192))
        return sp_error_set(err, SP_ERR_BAD_OPTION,
                            "bad width %d: choose a width from 320 to 8192 pixels", o->width);
    if (o->bins < 0 || o->bins > 200)
        return sp_error_set(err, SP_ERR_BAD_OPTION, "bad number of bins %d: choose 1 to 200",
                            o->bins);
    return SP_OK;
}

static sp_status draw(sp_chart *c, sp_plot_kind kind, sp_error *err) {
    switch (kind) {
    case SP_PLOT_GANTT:
        return sp_chart_gantt(c, err);
    case SP_PLOT_FLAME_CHART:
        return sp_chart_flame_chart(c, err);
    case SP_PLOT_FLAME_GRAPH:
        return sp_chart_flame_graph(c, err);
    case SP_PLOT_DURATIONS:
        return sp_chart_durations(c, err);
    case SP_PLOT_IMBALANCE:
        return sp_chart_imbalance(c, err);
    case SP_PLOT_HISTOGRAM:
        return sp_chart_histogram(c, err);
    case SP_PLOT_SPEEDUP:
        return sp_chart_speedup(c, err);
    }
    return sp_error_set(err, SP_ERR_BAD_OPTION, "unknown chart kind %d", (int)kind);
}

sp_status sp_plot_render(const sp_results *const *runs, size_t num_runs, sp_plot_kind kind,
                         const sp_plot_options *options, int standalone, sp_textbuf *b,
                         sp_error *err) {
    static const sp_plot_options defaults;
    const sp_plot_options *o = options ? options : &defaults;
    if (!runs || num_runs == 0 || !runs[0])
        return sp_error_set(err, SP_ERR_INVALID_ARGUMENT, "no profile to plot");
    sp_status st = check_options(o, err);
    if (st) return st;
    sp_chart c = {0};
    c.r = runs[0];
    c.runs = runs;
    c.num_runs = num_runs;
    c.o = o;
    c.width = o->width ? o->width : SP_PLOT_DEFAULT_WIDTH;
    c.standalone = standalone;
    sp_textbuf out = SP_TEXTBUF_INIT;
    c.b = &out;
    c.regions = sp_results_get_regions(c.r, &o->filter, &c.num_regions, err);
    if (!c.regions) return err ? err->status : SP_ERR_BAD_PATTERN;
    sp_palette palette;
    sp_palette_build(c.r, &palette);
    const sp_palette *before = sp_palette_use(&palette);
    st = select_ranks(&c, err);
    if (st == SP_OK) st = draw(&c, kind, err);
    sp_palette_use(before);
    if (st == SP_OK && sp_textbuf_failed(&out))
        st = sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory while drawing the chart");
    if (st == SP_OK) {
        const char *s = sp_textbuf_str(&out);
        sp_textbuf_append_n(b, s, out.len);
    }
    sp_textbuf_free(&out);
    sp_region_list_free(c.regions);
    free(c.ranks);
    return st;
}

char *sp_plot_svg(const sp_results *const *runs, size_t num_runs, sp_plot_kind kind,
                  const sp_plot_options *options, size_t *len, sp_error *err) {
    sp_textbuf b = SP_TEXTBUF_INIT;
    if (sp_plot_render(runs, num_runs, kind, options, 1, &b, err) != SP_OK) {
        sp_textbuf_free(&b);
        return NULL;
    }
    if (sp_textbuf_failed(&b)) {
        sp_textbuf_free(&b);
        sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory while drawing the chart");
        return NULL;
    }
    if (len) *len = b.len;
    return sp_textbuf_take(&b);
}

sp_status sp_write_plot_svg(const sp_results *const *runs, size_t num_runs, sp_plot_kind kind,
                            const sp_plot_options *options, const char *path, sp_error *err) {
    size_t len = 0;
    char *svg = sp_plot_svg(runs, num_runs, kind, options, &len, err);
    if (!svg) return err ? err->status : SP_ERR_OUT_OF_MEMORY;
    sp_status st = sp_write_text_file(path, svg, len, err);
    free(svg);
    return st;
}
