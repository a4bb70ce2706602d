/* Text widths from DejaVu Sans's advance widths (the font the charts name
 * first), and shortening labels to their room with an ellipsis. */
#include <string.h>

#include "common/utf8.h"
#include "plot/plot_internal.h"

/* Advance widths of U+0020-U+007E in 1/1000 em, as Chromium measures DejaVu
 * Sans (regular and bold); other characters use the widths below. */
static const unsigned short ADVANCE[2][95] = {
    {318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636, 636, 636,
     636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, 1000, 684, 686, 698, 770, 632,
     575, 775, 752, 295, 295, 656, 557, 863, 748, 787, 603, 787, 695, 635, 611, 732, 684, 989, 685,
     611, 685, 390, 337, 390, 838, 500, 500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579,
     278, 974, 634, 612, 635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838},
    {348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365, 696, 696, 696,
     696, 696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 580, 1000, 774, 762, 734, 830, 683,
     683, 821, 837, 372, 372, 775, 637, 995, 837, 850, 733, 850, 770, 720, 682, 812, 774, 1103, 771,
     724, 725, 457, 365, 457, 838, 500, 500, 675, 716, 593, 716, 678, 435, 716, 712, 343, 343, 665,
     343, 1042, 712, 687, 716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582, 712, 365, 712, 838}};

/* Width of one code point in 1/1000 em: East Asian scripts and emoji take a
 * full em in every fallback font; other letters about a wide lowercase one. */
static unsigned advance(uint32_t cp, int bold) {
    if (cp >= 0x20 && cp < 0x7F) return ADVANCE[bold ? 1 : 0][cp - 0x20];
    if (cp == 0xB7) return bold ? 380 : 318;     /* · */
    if (cp == 0x2026 || cp >= 0x2E80) return 1000; /* …, CJK, emoji, escaped bytes */
    return bold ? 720 : 660;
}

double sp_text_width(const char *text, double font_px, int bold) {
    size_t len = strlen(text), i = 0;
    unsigned long sum = 0;
    while (i < len)
        sum += advance(sp_utf8_next(text, len, &i), bold);
    return (double)sum * font_px / 1000.0;
}

/* Bytes of text's longest prefix no wider than max_px. */
static size_t prefix_fitting(const char *text, size_t len, double max_px, double font_px,
                             int bold) {
    double limit = max_px * 1000.0 / font_px, sum = 0;
    size_t i = 0;
    while (i < len) {
        size_t at = i;
        sum += advance(sp_utf8_next(text, len, &i), bold);
        if (sum > limit) return at;
    }
    return len;
}

int sp_fit_text(const char *text, double max_px, double font_px, int bold, sp_textbuf *out) {
    size_t len = strlen(text);
    if (sp_text_width(text, font_px, bold) <= max_px) {
        sp_textbuf_append_n(out, text, len);
        return 0;
    }
    static const char ELLIPSIS[] = "\xE2\x80\xA6", SEP[] = " \xC2\xB7 ";
    double ellipsis = font_px; /* advance(…) is one em */
    /* A lane's " · r3 t1" suffix tells lanes apart: cut the name before it. */
    const char *suffix = NULL;
    for (const char *p = strstr(text, SEP); p; p = strstr(p + 1, SEP))
        suffix = p;
    double suffix_w = suffix ? sp_text_width(suffix, font_px, bold) : 0;
    if (suffix && suffix_w + ellipsis + 2 * font_px <= max_px) {
        size_t keep = prefix_fitting(text, (size_t)(suffix - text), max_px - suffix_w - ellipsis,
                                     font_px, bold);
        sp_textbuf_append_n(out, text, keep);
        sp_textbuf_append(out, ELLIPSIS);
        sp_textbuf_append(out, suffix);
        return 1;
    }
    if (max_px < ellipsis) return 1;
    sp_textbuf_append_n(out, text, prefix_fitting(text, len, max_px - ellipsis, font_px, bold));
    sp_textbuf_append(out, ELLIPSIS);
    return 1;
}
