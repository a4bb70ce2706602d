#include "export/names.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/json_escape.h"
#include "common/utf8.h"

static void append_json(sp_textbuf *b, const char *s) {
    sp_textbuf tmp = SP_TEXTBUF_INIT;
    sp_json_escape(&tmp, s);
    const char *t = sp_textbuf_str(&tmp);
    if (!t) {
        b->failed = 1;
        sp_textbuf_free(&tmp);
        return;
    }
    for (; *t; t++) {
        if (*t == '<')
            sp_textbuf_append(b, "\\u003c");
        else
            sp_textbuf_putc(b, *t);
    }
    sp_textbuf_free(&tmp);
}

static void append_folded(sp_textbuf *b, const char *s) {
    static const char hex[] = "0123456789ABCDEF";
    size_t len = strlen(s), i = 0;
    while (i < len) {
        char out[4];
        uint32_t cp = sp_utf8_next(s, len, &i);
        if (cp == '%' || cp == ';' || cp < 0x20 || cp == 0x7f) {
            char esc[3] = {'%', hex[cp >> 4], hex[cp & 15]};
            sp_textbuf_append_n(b, esc, 3);
        } else {
            sp_textbuf_append_n(b, out, sp_utf8_encode(cp, out));
        }
    }
}

/* Valid UTF-8 under the escape rule (common/utf8.h). */
static void append_utf8(sp_textbuf *b, const char *s) {
    size_t len = strlen(s), i = 0;
    while (i < len) {
        char out[4];
        uint32_t cp = sp_utf8_next(s, len, &i);
        sp_textbuf_append_n(b, out, sp_utf8_encode(cp, out));
    }
}

void sp_name_append(sp_textbuf *b, const char *s, sp_name_style style) {
    if (style == SP_NAMES_JSON)
        append_json(b, s);
    else if (style == SP_NAMES_FOLDED)
        append_folded(b, s);
    else
        append_utf8(b, s);
}

char *sp_json_literal(const char *s) {
    sp_textbuf b = SP_TEXTBUF_INIT;
    append_json(&b, s ? s : "");
    if (sp_textbuf_failed(&b)) {
        sp_textbuf_free(&b);
        return NULL;
    }
    return sp_textbuf_take(&b);
}

sp_status sp_names_build(sp_names *n, const sp_results *r, sp_name_style style, sp_error *err) {
    size_t count = sp_results_num_regions(r);
    memset(n, 0, sizeof *n);
    n->text = calloc(count + 1, sizeof *n->text);
    n->len = calloc(count + 1, sizeof *n->len);
    if (!n->text || !n->len) goto oom;
    n->count = count;
    for (size_t i = 0; i < count; i++) {
        sp_textbuf b = SP_TEXTBUF_INIT;
        sp_name_append(&b, sp_results_region_name(r, i), style);
        n->len[i] = b.len;
        n->text[i] = sp_textbuf_take(&b);
        if (!n->text[i]) goto oom;
    }
    return SP_OK;
oom:
    sp_names_free(n);
    return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
}

void sp_names_free(sp_names *n) {
    for (size_t i = 0; n->text && i < n->count; i++)
        free(n->text[i]);
    free(n->text);
    free(n->len);
    memset(n, 0, sizeof *n);
}
