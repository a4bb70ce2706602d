/* Shortening labels to their room, at character boundaries, with an ellipsis. */
#include <string.h>

#include "common/utf8.h"
#include "plot/plot_internal.h"

int sp_fit_text(const char *text, double max_px, sp_textbuf *out) {
    size_t len = strlen(text);
    size_t room = max_px > 0 ? (size_t)(max_px / SP_PLOT_CHAR_PX) : 0;
    if (sp_utf8_length(text) <= room) {
        sp_textbuf_append_n(out, text, len);
        return 0;
    }
    if (room < 2) {
        sp_textbuf_append(out, room ? "\xE2\x80\xA6" : "");
        return 1;
    }
    size_t i = 0;
    for (size_t chars = 0; chars + 1 < room && i < len; chars++)
        (void)sp_utf8_next(text, len, &i);
    sp_textbuf_append_n(out, text, i);
    sp_textbuf_append(out, "\xE2\x80\xA6"); /* … */
    return 1;
}
