/*
 * Private to src/plot/ (and the report, which embeds the charts): the SVG
 * builder, colours, axes, text fitting, pixel merging, and one entry point
 * per chart. Charts take their numbers from the analysis API; they only lay
 * them out.
 */
#ifndef SP_PLOT_PLOT_INTERNAL_H
#define SP_PLOT_PLOT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "common/duration_text.h"
#include "common/text_buffer.h"
#include "scope_profiler/plot.h"

/* --- geometry shared by the charts ------------------------------------------ */

#define SP_PLOT_DEFAULT_WIDTH 960
#define SP_PLOT_FONT_PX       11
#define SP_PLOT_TITLE_H       30  /* the chart title band */
#define SP_PLOT_AXIS_H        34  /* a time axis with its labels */
#define SP_PLOT_MAX_LANES     400 /* lanes (rows) drawn at most; the rest are counted in a note */

/* --- the SVG document --------------------------------------------------------- */

/* Opens the document: standalone adds the XML declaration. title is the
 * document's <title> and the visible heading; subtitle (may be NULL) a grey
 * line beside it. */
void sp_svg_begin(sp_textbuf *b, int width, int height, int standalone, const char *title,
                  const char *subtitle);
void sp_svg_end(sp_textbuf *b);

/* A bar. region >= 0 adds data-r (the report's filter dims other regions);
 * tip (may be NULL) becomes its <title>; opacity < 1 is written. */
void sp_svg_rect(sp_textbuf *b, double x, double y, double w, double h, const char *fill,
                 double opacity, long region, const char *tip);

/* Text at (x, y) with anchor "start", "middle" or "end", shortened with an
 * ellipsis to max_px (0 = no limit); when shortened, the full text is its <title>.
 * cls is a class of the document's style sheet ("lb", "ax", "hd", "in"); region as above. */
void sp_svg_text(sp_textbuf *b, double x, double y, const char *anchor, const char *cls,
                 const char *text, double max_px, long region);

void sp_svg_line(sp_textbuf *b, double x1, double y1, double x2, double y2, const char *cls);

/* A note in the chart ("1,234 lanes not drawn: ..."), grey, at (x, y). */
void sp_svg_note(sp_textbuf *b, double x, double y, const char *text);

/* --- text ----------------------------------------------------------------- */

/* The width in px of text set in DejaVu Sans (the font the charts name
 * first) at font_px, bold or regular. */
double sp_text_width(const char *text, double font_px, int bold);

/* The text shortened to at most max_px with "…", cut at a character boundary;
 * a trailing " · suffix" (a lane's rank and thread) is kept and the name before
 * it is cut. Returns 1 when it was shortened; out receives raw (unescaped) UTF-8. */
int sp_fit_text(const char *text, double max_px, double font_px, int bold, sp_textbuf *out);

/* --- colours -------------------------------------------------------------- */

/* The regions with the most time (summed over ranks), most first: they get
 * the palette's distinct colours. Names point into the results. */
#define SP_PALETTE_SIZE 12
typedef struct sp_palette {
    const char *names[SP_PALETTE_SIZE];
    size_t count;
} sp_palette;

void sp_palette_build(const sp_results *r, sp_palette *out);

/* Makes p (NULL: none) the palette sp_region_colour uses on this thread and
 * returns the one before: a rendering (a chart, a report) sets it first and
 * puts the previous one back at the end. */
const sp_palette *sp_palette_use(const sp_palette *p);

/* "#rrggbb" for a region name: its palette colour when it is among the
 * active palette's regions, else a hash of the name picks hue and lightness
 * (stable across charts and runs); scope_profiler.session is a neutral grey. */
void sp_region_colour(const char *name, char out[8]);

/* Nonzero when white text reads better than dark text on fill ("#rrggbb"). */
int sp_colour_is_dark(const char *fill);

/* --- units and axes ----------------------------------------------------------- */

/* Nice tick values (1, 2, 5 x 10^k steps) covering [lo, hi], at most max_ticks
 * (at least 2); returns the count written to ticks (cap entries) and the step in *step. */
int sp_nice_ticks(double lo, double hi, int max_ticks, double *ticks, int cap, double *step);

/* A tick label in unit u with as many decimals as step needs: "2.5 ms". */
void sp_format_tick(double seconds, sp_time_unit u, double step, char *out, size_t size);

/* A horizontal time axis under a plot area [x0, x0 + w) at y, for times
 * [t0, t1] seconds: baseline, ticks, labels never closer than ~80 px, grid
 * lines up to grid_top. */
void sp_svg_time_axis(sp_textbuf *b, double x0, double w, double y, double t0, double t1,
                      double grid_top);

/* --- pixel merging -------------------------------------------------------- */

/* One lane's bars: calls at least a pixel wide are drawn as they are;
 * shorter ones are merged with their neighbours (gaps under 3 px) into one
 * bar, whose opacity step (4 steps) tells the busy share of its pixels. The
 * merged bars are kept per colour and step and written at the lane's end as
 * one <path> each, with one tooltip. */
#define SP_PX_GROUPS 16
typedef struct sp_px_group {
    char fill[8];
    int step;         /* opacity step 0-3 */
    long region;      /* -2 before the first bar, -1 once two regions were merged */
    const char *name; /* of the first bar's first call */
    uint64_t calls, bars;
    sp_textbuf path; /* the "d" of the <path> */
} sp_px_group;

typedef struct sp_px_lane {
    sp_textbuf *b;
    double y, h;
    const char *lane_label; /* named in merged bars' tips */
    /* The pending merged bar: */
    int open;
    double x0, x1, busy;
    uint64_t calls;
    long region;      /* -1 once two regions were merged */
    char fill[8];     /* "#999999" once two regions were merged */
    const char *name; /* of the first merged call (names outlive the lane) */
    uint64_t bars;    /* elements written */
    /* The end of the full bars drawn so far and their colour: a call of that
     * colour ending before it lies under one of them (a recursive region's
     * inner calls) and is not drawn again. */
    double covered_to;
    char covered_fill[8];
    sp_px_group groups[SP_PX_GROUPS];
    size_t num_groups;
} sp_px_lane;

void sp_px_lane_init(sp_px_lane *l, sp_textbuf *b, double y, double h, const char *lane_label);

/* Adds a call of region `name` spanning [x0, x1) pixels; tip is used when it
 * is drawn alone. Calls must come in start order. A call that a full bar of
 * its colour drawn before already covers is left out (10^6 nested calls of a
 * recursive region cost one bar). */
void sp_px_lane_add(sp_px_lane *l, double x0, double x1, long region, const char *fill,
                    const char *name, const char *tip);

/* Ends the pending merged bar (into its group). */
void sp_px_lane_flush(sp_px_lane *l);

/* Ends the lane: writes the merged bars' paths and frees them. */
void sp_px_lane_finish(sp_px_lane *l);

/* --- the charts ------------------------------------------------------------------- */

typedef struct sp_chart {
    const sp_results *r;
    const sp_results *const *runs; /* speedup */
    size_t num_runs;
    const sp_plot_options *o;
    int width;
    int standalone;
    sp_textbuf *b;
    const sp_mpi_region **regions; /* selected, in first-start order */
    size_t num_regions;
    uint32_t *ranks; /* selected ranks with data, ascending */
    size_t num_ranks;
    unsigned char *rank_selected_by_index; /* unused by most charts */
} sp_chart;

/* The region's index in file order (the data-r attribute). */
long sp_chart_region_index(const sp_chart *c, const sp_mpi_region *region);

/* Nonzero when rank is selected. */
int sp_chart_rank_selected(const sp_chart *c, uint32_t rank);

/* The heading's second line: "label - file, N ranks". Owned by the caller. */
char *sp_chart_subtitle(const sp_chart *c);

/* A thread lane's name: the name the file stores for it ("omp 3", with
 * "r1 " in front on several ranks, and " t3" after a name other threads of
 * the rank share), else "r0 t3". */
void sp_lane_name(const sp_results *r, uint32_t rank, int64_t thread, char *out, size_t size);

/* A chart that only says why it is empty. */
void sp_chart_empty(sp_chart *c, const char *title, const char *why);

sp_status sp_chart_gantt(sp_chart *c, sp_error *err);
sp_status sp_chart_flame_chart(sp_chart *c, sp_error *err);
sp_status sp_chart_flame_graph(sp_chart *c, sp_error *err);
sp_status sp_chart_durations(sp_chart *c, sp_error *err);
sp_status sp_chart_imbalance(sp_chart *c, sp_error *err);
sp_status sp_chart_histogram(sp_chart *c, sp_error *err);
sp_status sp_chart_speedup(sp_chart *c, sp_error *err);

/* Renders a chart into b (standalone: a document of its own; else an <svg>
 * element to embed in HTML). On error b holds nothing new. */
sp_status sp_plot_render(const sp_results *const *runs, size_t num_runs, sp_plot_kind kind,
                         const sp_plot_options *options, int standalone, sp_textbuf *b,
                         sp_error *err);

/* --- flame graph layout (flame_graph.c; the report's difference flame graph) --- */

typedef struct sp_table_rows sp_table_rows;

/* The deepest row's depth, and the root rows' summed coverage (seconds). */
int sp_flame_max_depth(const sp_table_rows *t);
double sp_flame_root_total(const sp_table_rows *t);

/* Bar widths in px (one per row, malloc'd; NULL when out of memory):
 * coverage / whole * w, scaled down where the children of a bar would be
 * wider together than it (rows are in tree order). */
double *sp_flame_bar_widths(const sp_table_rows *t, double whole, double w);

#endif
