/* The SVG document: a small style sheet, bars, text, lines; every piece of
 * data goes through the markup escaper. */
#include <math.h>
#include <string.h>

#include "common/markup_escape.h"
#include "plot/plot_internal.h"

static const char STYLE[] =
    "<style>"
    "text{font-family:'DejaVu Sans',Verdana,system-ui,sans-serif;"
    "font-size:11px;fill:#222}"
    ".hd{font-size:14px;font-weight:600}.sub{fill:#666}"
    ".ax{stroke:#888;stroke-width:1}.gr{stroke:#ececec;stroke-width:1}"
    ".lb{fill:#333}.in{fill:#fff}.nt{fill:#777;font-style:italic}"
    ".id{stroke:#999;stroke-width:1.5;stroke-dasharray:5 4;fill:none}"
    ".mk{stroke:#111;stroke-width:1.5;fill:none}"
    "</style>";

void sp_svg_begin(sp_textbuf *b, int width, int height, int standalone, const char *title,
                  const char *subtitle) {
    if (standalone) sp_textbuf_append(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    sp_textbuf_printf(b,
                      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"sp-chart\" width=\"%d\" "
                      "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n<title>",
                      width, height, width, height);
    sp_markup_escape(b, title);
    sp_textbuf_append(b, "</title>\n");
    sp_textbuf_append(b, STYLE);
    sp_textbuf_printf(b, "\n<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n",
                      width, height);
    sp_svg_text(b, 12, 20, "start", "hd", title, width * 0.45, -1);
    if (subtitle) {
        double at = 12 + sp_text_width(title, 14, 1) + 16;
        if (at > width * 0.5) at = width * 0.5;
        sp_svg_text(b, at, 20, "start", "sub", subtitle, width - at - 12, -1);
    }
}

void sp_svg_end(sp_textbuf *b) {
    sp_textbuf_append(b, "</svg>\n");
}

static void put_region(sp_textbuf *b, long region) {
    if (region >= 0) sp_textbuf_printf(b, " data-r=\"%ld\"", region);
}

void sp_svg_rect(sp_textbuf *b, double x, double y, double w, double h, const char *fill,
                 double opacity, long region, const char *tip) {
    sp_textbuf_printf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"",
                      x, y, w, h, fill);
    if (opacity < 0.995) sp_textbuf_printf(b, " fill-opacity=\"%.2f\"", opacity);
    put_region(b, region);
    if (tip) {
        sp_textbuf_append(b, "><title>");
        sp_markup_escape(b, tip);
        sp_textbuf_append(b, "</title></rect>\n");
    } else {
        sp_textbuf_append(b, "/>\n");
    }
}

void sp_svg_text(sp_textbuf *b, double x, double y, const char *anchor, const char *cls,
                 const char *text, double max_px, long region) {
    sp_textbuf fit = SP_TEXTBUF_INIT;
    int heading = cls && strcmp(cls, "hd") == 0; /* 14 px bold; the rest 11 px */
    int shortened =
        max_px > 0 && sp_fit_text(text, max_px, heading ? 14 : SP_PLOT_FONT_PX, heading, &fit);
    sp_textbuf_printf(b, "<text x=\"%.1f\" y=\"%.1f\"", x, y);
    if (strcmp(anchor, "start") != 0) sp_textbuf_printf(b, " text-anchor=\"%s\"", anchor);
    if (cls) sp_textbuf_printf(b, " class=\"%s\"", cls);
    put_region(b, region);
    sp_textbuf_putc(b, '>');
    if (shortened) {
        sp_textbuf_append(b, "<title>");
        sp_markup_escape(b, text);
        sp_textbuf_append(b, "</title>");
        const char *s = sp_textbuf_str(&fit);
        if (!s) b->failed = 1;
        sp_markup_escape(b, s ? s : "");
    } else {
        sp_markup_escape(b, text);
    }
    sp_textbuf_append(b, "</text>\n");
    sp_textbuf_free(&fit);
}

void sp_svg_line(sp_textbuf *b, double x1, double y1, double x2, double y2, const char *cls) {
    sp_textbuf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"%s\"/>\n",
                      x1, y1, x2, y2, cls);
}

void sp_svg_note(sp_textbuf *b, double x, double y, const char *text) {
    sp_svg_text(b, x, y, "start", "nt", text, 0, -1);
}
