/* A fitted model as text, in Extra-P's notation. */
#include <stdio.h>

#include "models/pmnf.h"

void sp_pmnf_exponent_text(sp_pmnf_term t, char *out, size_t size) {
    if (t.den == 1 || t.num == 0)
        snprintf(out, size, "%d", t.num);
    else
        snprintf(out, size, "%d/%d", t.num, t.den);
}

void sp_pmnf_term_text(sp_pmnf_term t, const char *var, sp_textbuf *out) {
    char e[16];
    sp_pmnf_exponent_text(t, e, sizeof e);
    const char *sep = "";
    if (t.num == 1 && t.den == 1)
        sp_textbuf_append(out, var);
    else if (t.num)
        sp_textbuf_printf(out, "%s^%s%s%s", var, t.den > 1 ? "(" : "", e, t.den > 1 ? ")" : "");
    if (t.num) sep = " * ";
    if (t.log_exp == 1) sp_textbuf_printf(out, "%slog2(%s)", sep, var);
    if (t.log_exp > 1) sp_textbuf_printf(out, "%slog2(%s)^%d", sep, var, t.log_exp);
}

void sp_pmnf_coefficient_text(double c, sp_textbuf *out) {
    sp_textbuf_printf(out, " %c %.6g * ", c < 0 ? '-' : '+', c < 0 ? -c : c);
}

void sp_pmnf_text(const sp_pmnf_model *m, const char *var, sp_textbuf *out) {
    sp_textbuf_printf(out, "%.6g", m->c0);
    if (m->constant) return;
    sp_pmnf_coefficient_text(m->c1, out);
    sp_pmnf_term_text(m->term, var, out);
}
