/* sp_scaling_models2_fit(): the runs of a scaling study as (p, n) measurements. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/scaling_models2.h"

/* Which measurements the grid lacks, as one line. */
static sp_status too_small(const sp_scaling *ps, const sp_scaling *ns, const sp_pmnf2_grid *g,
                           sp_error *err) {
    const char *p = ps->x_name, *n = ns->x_name;
    size_t need_p = g->p_values < SP_PMNF_MIN_SIZES ? SP_PMNF_MIN_SIZES - g->p_values : 0;
    size_t need_n = g->n_values < SP_PMNF_MIN_SIZES ? SP_PMNF_MIN_SIZES - g->n_values : 0;
    size_t need_off = g->off_lines ? 0 : 1;
    sp_textbuf b = SP_TEXTBUF_INIT;
    if (need_p)
        sp_textbuf_printf(&b, "%zu at other %s values with %s = %g", need_p, p, n, g->n_line);
    if (need_n)
        sp_textbuf_printf(&b, "%s%zu at other %s values with %s = %g", b.len ? ", " : "", need_n, n,
                          p, g->p_line);
    if (need_off)
        sp_textbuf_printf(&b, "%s1 with %s != %g and %s != %g", b.len ? ", " : "", p, g->p_line, n,
                          g->n_line);
    sp_status st = sp_error_set(
        err, SP_ERR_INVALID_ARGUMENT,
        "a two-parameter model needs runs at %d or more %s values with %s fixed, %d or more %s "
        "values with %s fixed and one run off both lines; these runs have %zu %s values (at %s = "
        "%g) and %zu %s values (at %s = %g), %zu off both: add %zu more runs (%s; a full %dx%d "
        "grid is best)",
        SP_PMNF_MIN_SIZES, p, n, SP_PMNF_MIN_SIZES, n, p, g->p_values, p, n, g->n_line, g->n_values,
        n, p, g->p_line, g->off_lines, need_p + need_n + need_off,
        sp_textbuf_str(&b) ? sp_textbuf_str(&b) : "", SP_PMNF_MIN_SIZES, SP_PMNF_MIN_SIZES);
    sp_textbuf_free(&b);
    return st;
}

/* The grid of the runs themselves (every run a measurement). */
static sp_status check_grid(const sp_scaling *ps, const sp_scaling *ns, sp_error *err) {
    double *ones = malloc((ps->num_runs ? ps->num_runs : 1) * sizeof *ones);
    if (!ones) return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    for (size_t k = 0; k < ps->num_runs; k++)
        ones[k] = 1.0;
    sp_pmnf2_model m;
    sp_status st = sp_pmnf2_fit(ps->run_x, ns->run_x, ones, ps->num_runs, &m);
    free(ones);
    if (st == SP_ERR_OUT_OF_MEMORY) return sp_error_set(err, st, "out of memory");
    if (st == SP_OK) return SP_OK;
    for (size_t k = 0; k < ps->num_runs; k++)
        if (!(ps->run_x[k] > 0.0) || !(ns->run_x[k] > 0.0))
            return sp_error_set(
                err, SP_ERR_INVALID_ARGUMENT,
                "a model needs positive %s and %s values; a run has %s = %g, %s = %g", ps->x_name,
                ns->x_name, ps->x_name, ps->run_x[k], ns->x_name, ns->run_x[k]);
    return too_small(ps, ns, &m.grid, err);
}

sp_scaling_models2 *sp_scaling_models2_fit(const sp_scaling *ps, const sp_scaling *ns,
                                           sp_error *err) {
    if (ps->num_runs != ns->num_runs || ps->num_regions != ns->num_regions) {
        sp_error_set(err, SP_ERR_INVALID_ARGUMENT, "the two parameters' studies differ");
        return NULL;
    }
    if (check_grid(ps, ns, err) != SP_OK) return NULL;
    sp_scaling_models2 *m = calloc(1, sizeof *m);
    if (m) m->models = calloc(ps->num_regions ? ps->num_regions : 1, sizeof *m->models);
    if (!m || !m->models) {
        free(m);
        sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    m->p_study = ps;
    m->n_study = ns;
    for (size_t i = 0; i < ps->num_regions; i++) {
        /* a region without calls in some runs may lack cells: it is shown unmodelled */
        sp_status st = sp_pmnf2_fit(ps->run_x, ns->run_x, ps->regions[i].run_times, ps->num_runs,
                                    &m->models[i]);
        if (st == SP_ERR_OUT_OF_MEMORY) {
            sp_scaling_models2_free(m);
            sp_error_set(err, st, "out of memory");
            return NULL;
        }
    }
    return m;
}

void sp_scaling_models2_free(sp_scaling_models2 *m) {
    if (!m) return;
    free(m->models);
    free(m);
}
