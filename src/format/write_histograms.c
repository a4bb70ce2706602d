#include "format/write_histograms.h"

#include <stdlib.h>

#include "format/h5_write.h"

static hid_t extension_group(hid_t file) {
    if (H5Lexists(file, "scope_profiler_c", H5P_DEFAULT) > 0)
        return H5Gopen2(file, "scope_profiler_c", H5P_DEFAULT);
    return H5Gcreate2(file, "scope_profiler_c", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
}

static int nonzero_buckets(const sp_hist *h) {
    int n = 0;
    for (uint32_t b = h->lo; b < h->hi; b++)
        n += h->counts[b - h->lo] != 0;
    return n;
}

static int write_rows(hid_t g, const sp_model *m, const uint64_t *first, const uint64_t *count) {
    int64_t *v = malloc((m->num_hists ? m->num_hists : 1) * sizeof *v);
    uint32_t *u = malloc((m->num_hists ? m->num_hists : 1) * sizeof *u);
    int rc = v && u ? 0 : -1;
    size_t n = m->num_hists;
    for (size_t i = 0; rc == 0 && i < n; i++)
        u[i] = m->hists[i].rank;
    if (rc == 0) rc = sp_h5_write_array(g, "ranks", H5T_STD_U32LE, H5T_NATIVE_UINT32, u, n);
    for (size_t i = 0; rc == 0 && i < n; i++)
        u[i] = m->hists[i].region;
    if (rc == 0) rc = sp_h5_write_array(g, "region_ids", H5T_STD_U32LE, H5T_NATIVE_UINT32, u, n);
    static const char *const names[] = {"threads", "parents", "minimums", "maximums"};
    for (int k = 0; rc == 0 && k < 4; k++) {
        for (size_t i = 0; i < n; i++) {
            const sp_model_hist *h = &m->hists[i];
            v[i] = k == 0 ? h->thread : k == 1 ? h->parent : k == 2 ? h->hist.min : h->hist.max;
        }
        rc = sp_h5_write_array(g, names[k], H5T_STD_I64LE, H5T_NATIVE_INT64, v, n);
    }
    for (size_t i = 0; rc == 0 && m->hist_totals && i < n; i++)
        v[i] = m->hists[i].total;
    if (rc == 0 && m->hist_totals)
        rc = sp_h5_write_array(g, "totals", H5T_STD_I64LE, H5T_NATIVE_INT64, v, n);
    for (size_t i = 0; rc == 0 && m->hist_forks && i < n; i++)
        v[i] = m->hists[i].fork_parent;
    if (rc == 0 && m->hist_forks)
        rc = sp_h5_write_array(g, "fork_parents", H5T_STD_I64LE, H5T_NATIVE_INT64, v, n);
    double *d = m->hist_spread ? malloc((n ? n : 1) * sizeof *d) : NULL;
    if (rc == 0 && m->hist_spread && !d) rc = -1;
    for (size_t i = 0; rc == 0 && d && i < n; i++)
        d[i] = m->hists[i].m2;
    if (rc == 0 && d)
        rc = sp_h5_write_array(g, "squared_deviations", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, d, n);
    free(d);
    if (rc == 0)
        rc = sp_h5_write_array(g, "entry_offsets", H5T_STD_U64LE, H5T_NATIVE_UINT64, first, n);
    if (rc == 0)
        rc = sp_h5_write_array(g, "entry_counts", H5T_STD_U64LE, H5T_NATIVE_UINT64, count, n);
    free(v);
    free(u);
    return rc;
}

static int write_entries(hid_t g, const sp_model *m, uint64_t total) {
    uint16_t *buckets = malloc((total ? total : 1) * sizeof *buckets);
    uint64_t *counts = malloc((total ? total : 1) * sizeof *counts);
    int rc = buckets && counts ? 0 : -1;
    uint64_t e = 0;
    for (size_t i = 0; rc == 0 && i < m->num_hists; i++) {
        const sp_hist *h = &m->hists[i].hist;
        for (uint32_t b = h->lo; b < h->hi; b++)
            if (h->counts[b - h->lo]) {
                buckets[e] = (uint16_t)b;
                counts[e++] = h->counts[b - h->lo];
            }
    }
    if (rc == 0)
        rc = sp_h5_write_array(g, "buckets", H5T_STD_U16LE, H5T_NATIVE_UINT16, buckets, total);
    if (rc == 0)
        rc = sp_h5_write_array(g, "counts", H5T_STD_U64LE, H5T_NATIVE_UINT64, counts, total);
    free(buckets);
    free(counts);
    return rc;
}

int sp_write_histograms(hid_t file, const sp_model *m) {
    if (m->num_hists == 0) return 0;
    uint64_t *first = malloc(m->num_hists * sizeof *first);
    uint64_t *count = malloc(m->num_hists * sizeof *count);
    int rc = first && count ? 0 : -1;
    uint64_t total = 0;
    for (size_t i = 0; rc == 0 && i < m->num_hists; i++) {
        first[i] = total;
        count[i] = (uint64_t)nonzero_buckets(&m->hists[i].hist);
        total += count[i];
    }
    hid_t parent = rc == 0 ? extension_group(file) : -1;
    hid_t g =
        parent >= 0 ? H5Gcreate2(parent, "histograms", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) : -1;
    if (g < 0) rc = -1;
    if (rc == 0) rc = sp_h5_attr_int64(g, "extension_version", 1);
    if (rc == 0) rc = sp_h5_attr_int64(g, "sub_bucket_bits", SP_HIST_SUB_BITS);
    if (rc == 0) rc = sp_h5_attr_int64(g, "num_buckets", SP_HIST_NUM_BUCKETS);
    if (rc == 0) rc = write_rows(g, m, first, count);
    if (rc == 0) rc = write_entries(g, m, total);
    if (g >= 0 && H5Gclose(g) < 0) rc = -1;
    if (parent >= 0 && H5Gclose(parent) < 0) rc = -1;
    free(first);
    free(count);
    return rc;
}
