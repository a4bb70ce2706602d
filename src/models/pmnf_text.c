/* A fitted model as text, in Extra-P's notation. */
#include <stdio.h>

#include "models/pmnf.h"

void sp_pmnf_exponent_text(sp_pmnf_term t, char *out, size_t size) {
    if (t.den == 1 || t.num == 0)
        snprintf(out, size, "%d", t.num);
    else
        snprintf(out, size, "%d/%d", t.num, t.den);
}

void sp_pmnf_text(const sp_pmnf_model *m, const char *var, sp_textbuf *out) {
    sp_textbuf_printf(out, "%.6g", m->c0);
    if (m->constant) return;
    sp_textbuf_printf(out, " %c %.6g", m->c1 < 0 ? '-' : '+', m->c1 < 0 ? -m->c1 : m->c1);
    char e[16];
    sp_pmnf_exponent_text(m->term, e, sizeof e);
    if (m->term.num) {
        if (m->term.num == 1 && m->term.den == 1)
            sp_textbuf_printf(out, " * %s", var);
        else
            sp_textbuf_printf(out, " * %s^%s%s%s", var, m->term.den > 1 ? "(" : "", e,
                              m->term.den > 1 ? ")" : "");
    }
    if (m->term.log_exp == 1) sp_textbuf_printf(out, " * log2(%s)", var);
    if (m->term.log_exp > 1) sp_textbuf_printf(out, " * log2(%s)^%d", var, m->term.log_exp);
}
