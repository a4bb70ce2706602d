/* The HTML report: the document around the sections, and the public API. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/markup_escape.h"
#include "plot/plot_internal.h"
#include "present/text_file.h"
#include "report/report_internal.h"
#include "waits/waits.h"

void sp_report_text(sp_report *rp, const char *s) {
    sp_markup_escape(rp->b, s ? s : "");
}

/* Byte offset of the n-th code point of s (its length when shorter). */
static size_t code_point_offset(const char *s, size_t len, size_t n) {
    size_t i = 0;
    for (; i < len && n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80 && i) n--;
    while (i < len && ((unsigned char)s[i] & 0xC0) == 0x80)
        i++;
    return i;
}

static size_t code_points(const char *s, size_t len) {
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += ((unsigned char)s[i] & 0xC0) != 0x80;
    return n;
}

void sp_report_name(sp_report *rp, const char *s) {
    s = s ? s : "";
    size_t len = strlen(s), n = code_points(s, len);
    if (n <= SP_REPORT_NAME_MAX) {
        sp_report_text(rp, s);
        return;
    }
    /* the start names the module and routine, the end the innermost part */
    size_t head = code_point_offset(s, len, SP_REPORT_NAME_HEAD);
    size_t tail = code_point_offset(s, len, n - (SP_REPORT_NAME_MAX - 1 - SP_REPORT_NAME_HEAD));
    sp_textbuf_append(rp->b, "<span class=\"cut\" title=\"");
    sp_report_text(rp, s);
    sp_textbuf_append(rp->b, "\">");
    sp_markup_escape_n(rp->b, s, head);
    sp_textbuf_append(rp->b, "\xE2\x80\xA6");
    sp_report_text(rp, s + tail);
    sp_textbuf_append(rp->b, "</span>");
}

void sp_report_seconds_cell(sp_report *rp, double seconds) {
    char text[32];
    sp_format_seconds(seconds, text, sizeof text);
    if (isfinite(seconds))
        sp_textbuf_printf(rp->b, "<td data-v=\"%.9g\">%s</td>", seconds, text);
    else
        sp_textbuf_append(rp->b, "<td data-v=\"\">-</td>");
}

int sp_report_is_session_row(const sp_table_row *row) {
    return row->depth == 0 && strcmp(row->name, "scope_profiler.session") == 0;
}

const char *sp_report_path(const sp_table_row *row) {
    static const char prefix[] = "scope_profiler.session > ";
    const char *p = row->call_path ? row->call_path : row->name;
    return strncmp(p, prefix, sizeof prefix - 1) == 0 ? p + sizeof prefix - 1 : p;
}

static double wall_time(const sp_results *r) {
    double t = sp_results_total_time(r);
    return isfinite(t) && t > 0 ? t : sp_results_time_span(r);
}

/* Time inside regions (root paths) and the session the hotspots sum to:
 * the scope_profiler.session row when there is one, else wall time x ranks,
 * or the time inside regions when that is larger (threads overlap). */
static void session_figures(sp_report *rp) {
    double inside = 0, own = 0;
    for (size_t i = 0; i < rp->rows->count; i++) {
        const sp_table_row *row = &rp->rows->rows[i];
        if (!row->has_timing) continue;
        double row_own = row->has_children && row->has_exclusive ? row->exclusive : row->total;
        if (sp_report_is_session_row(row))
            inside += row->total - row_own; /* its children are the top-level regions */
        else if (row->depth == 0)
            inside += row->total;
        own += row_own;
    }
    rp->inside = inside;
    double ranks = (double)sp_results_num_data_ranks(rp->r);
    double session = rp->wall * (ranks > 0 ? ranks : 1);
    if (rp->rows->has_session_total) session = rp->rows->session_total;
    rp->session = session > own ? session : own;
}

/* The region names in file order, for the script's chart filter (data-r). */
static void region_names_json(sp_report *rp) {
    sp_textbuf_append(rp->b, "<script type=\"application/json\" id=\"sp-regions\">[");
    for (size_t i = 0; i < sp_results_num_regions(rp->r); i++) {
        if (i) sp_textbuf_putc(rp->b, ',');
        sp_script_json_string(rp->b, sp_results_region_name(rp->r, i));
    }
    sp_textbuf_append(rp->b, "]</script>\n");
}

static const char *report_title(const sp_report *rp) {
    return rp->o->title ? rp->o->title : sp_results_display_label(rp->r);
}

/* The sticky bar: links to every section (the charts are far down in a big
 * run), then the filter box. */
static void contents_bar(sp_report *rp) {
    sp_textbuf *b = rp->b;
    sp_textbuf_append(b, "<div class=\"filter\"><nav class=\"toc\" aria-label=\"Contents\">");
    if (rp->num_runs > 1) sp_textbuf_append(b, "<a href=\"#comparison\">Comparison</a>");
    sp_textbuf_append(b, "<a href=\"#hotspots\">Hotspots</a><a href=\"#regions\">Regions</a>"
                         "<a href=\"#balance-section\">Load balance</a>");
    if (sp_results_num_threads(rp->r) > sp_results_num_data_ranks(rp->r))
        sp_textbuf_append(b, "<a href=\"#threads\">Threads</a>");
    sp_textbuf_append(b, "<a href=\"#charts\">Charts</a><a href=\"#chart-flame-graph\">Flame "
                         "graph</a><a href=\"#chart-gantt\">Gantt</a><a "
                         "href=\"#chart-flame-chart\">Flame chart</a>");
    if (sp_results_num_data_ranks(rp->r) > 1)
        sp_textbuf_append(b, "<a href=\"#chart-imbalance\">Imbalance</a>");
    sp_textbuf_append(b, "</nav>");
}

static sp_status document(sp_report *rp, sp_error *err) {
    sp_textbuf *b = rp->b;
    sp_textbuf_append(b,
                      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                      "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
                      "<title>");
    sp_report_text(rp, report_title(rp));
    sp_textbuf_append(b, " \xE2\x80\x94 scope-profiler report</title>\n<style>\n");
    sp_textbuf_append(b, sp_report_css);
    sp_textbuf_append(b, "</style>\n</head>\n<body>\n<main>\n");
    sp_status st = sp_report_header(rp, err);
    if (st == SP_OK) {
        contents_bar(rp);
        sp_textbuf_append(b, "<input id=\"filter\" type=\"search\" "
                             "placeholder=\"Filter regions: text, or /regular expression/\" "
                             "aria-label=\"Filter regions\" autocomplete=\"off\">"
                             "<span id=\"filter-count\"></span></div>\n");
        if (rp->num_runs > 1) st = sp_report_comparison(rp, err);
        if (st == SP_OK) st = sp_report_hotspots(rp, err);
    }
    if (st == SP_OK) st = sp_report_tree(rp, err);
    if (st == SP_OK) st = sp_report_balance(rp, err);
    if (st == SP_OK) st = sp_report_threads(rp, err);
    if (st == SP_OK) st = sp_report_charts(rp, err);
    if (st) return st;
    sp_textbuf_printf(b,
                      "<footer>Written by scope-profiler %s. Durations in seconds (s, ms, "
                      "\xC2\xB5s, ns); times from the start of the run.</footer>\n</main>\n",
                      SP_VERSION_STRING);
    region_names_json(rp);
    sp_textbuf_append(b, "<script>\n");
    sp_textbuf_append(b, sp_report_js);
    sp_textbuf_append(b, "</script>\n</body>\n</html>\n");
    return SP_OK;
}

char *sp_report_html(const sp_results *const *runs, size_t num_runs,
                     const sp_report_options *options, size_t *len, sp_error *err) {
    static const sp_report_options defaults;
    if (!runs || num_runs == 0 || !runs[0]) {
        sp_error_set(err, SP_ERR_INVALID_ARGUMENT, "no profile for the report");
        return NULL;
    }
    if (options && options->width && (options->width < 320 || options->width > 8192)) {
        sp_error_set(err, SP_ERR_BAD_OPTION, "bad width %d: choose a width from 320 to 8192 pixels",
                     options->width);
        return NULL;
    }
    sp_report rp = {0};
    rp.runs = runs;
    rp.num_runs = num_runs;
    rp.r = runs[0];
    rp.o = options ? options : &defaults;
    sp_textbuf b = SP_TEXTBUF_INIT;
    rp.b = &b;
    rp.wall = wall_time(rp.r);
    sp_table_rows rows = {0};
    sp_palette palette;
    sp_palette_build(rp.r, &palette);
    const sp_palette *before = sp_palette_use(&palette);
    sp_waits_attach_file(rp.r, sp_results_path(rp.r)); /* slowest: time outside MPI waits */
    sp_status st = sp_table_rows_build(rp.r, &rp.o->filter, NULL, NULL, &rows, err);
    if (st == SP_OK) {
        rp.rows = &rows;
        session_figures(&rp);
        st = document(&rp, err);
    }
    sp_palette_use(before);
    sp_table_rows_free(&rows);
    if (st == SP_OK && sp_textbuf_failed(&b))
        st = sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory while writing the report");
    if (st) {
        sp_textbuf_free(&b);
        return NULL;
    }
    if (len) *len = b.len;
    return sp_textbuf_take(&b);
}

sp_status sp_write_report_html(const sp_results *const *runs, size_t num_runs,
                               const sp_report_options *options, const char *path, sp_error *err) {
    size_t len = 0;
    char *html = sp_report_html(runs, num_runs, options, &len, err);
    if (!html) return err ? err->status : SP_ERR_OUT_OF_MEMORY;
    sp_status st = sp_write_text_file(path, html, len, err);
    free(html);
    return st;
}
