/* The histogram extension (/scope_profiler_c/histograms) of a generated
 * profile: one histogram per index row, sometimes a child path under the
 * previous row of the same rank, each column perhaps with a defect; half of
 * them with the optional per-path totals, half with squared deviations, half with
 * fork parents. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_internal.h"
#include "model/histogram.h"

#define G "/scope_profiler_c/histograms"

void fz_emit_ints(fz *f, hid_t loc, const char *path, hid_t type, const int64_t *v, size_t n);
void fz_emit_doubles(fz *f, hid_t loc, const char *path, const double *v, size_t n);

static void attribute(hid_t g, const char *name, int64_t value) {
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(g, name, H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, H5T_NATIVE_INT64, &value);
    H5Aclose(a);
    H5Sclose(space);
}

/* Row i's calls: count - 1 at min, one at max (the aggregate columns' values);
 * its total the index's (which lies within their bounds for 2 calls or more). */
void fz_emit_histograms(fz *f, hid_t file, const int64_t *rank, const int64_t *region,
                        const int64_t *count, const int64_t *total, const int64_t *min,
                        const int64_t *max, size_t n) {
    hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
    H5Pset_create_intermediate_group(lcpl, 1);
    hid_t g = H5Gcreate2(file, G, lcpl, H5P_DEFAULT, H5P_DEFAULT);
    H5Pclose(lcpl);
    if (g < 0) return;
    attribute(g, "extension_version", fz_defect(f) ? fz_value(f) : 1);
    attribute(g, "sub_bucket_bits", fz_defect(f) ? fz_value(f) : SP_HIST_SUB_BITS);
    if (!fz_defect(f)) attribute(g, "num_buckets", SP_HIST_NUM_BUCKETS);
    H5Gclose(g);
    size_t cap = n ? n : 1;
    int64_t *totals = calloc(cap, sizeof *totals);
    double *m2 = calloc(cap, sizeof *m2);
    int64_t *forks = calloc(cap, sizeof *forks);
    int64_t *cols[8], *buckets = calloc(2 * cap, sizeof *buckets),
                      *counts = calloc(2 * cap, sizeof *counts);
    for (int k = 0; k < 8; k++)
        cols[k] = calloc(cap, sizeof *cols[k]);
    size_t e = 0, rows = 0;
    for (size_t j = 0; j < n; j++) {
        if (count[j] <= 0 && !fz_defect(f)) continue; /* rows without calls have no histogram */
        size_t i = rows++;
        int64_t lo = min[j], hi = count[j] >= 2 ? max[j] : min[j];
        cols[0][i] = rank[j];
        cols[1][i] = fz_chance(f, 32) ? 1 : 0;
        cols[2][i] = region[j];
        cols[3][i] = i > 0 && cols[0][i - 1] == cols[0][i] && cols[1][i - 1] == cols[1][i] &&
                             fz_chance(f, 64)
                         ? (int64_t)i - 1
                         : -1;
        /* a top-level row on thread 1 forked from an earlier row of thread 0 */
        forks[i] = -1;
        for (size_t p = 0; cols[3][i] < 0 && cols[1][i] == 1 && p < i; p++)
            if (cols[0][p] == cols[0][i] && cols[1][p] == 0 && fz_chance(f, 64))
                forks[i] = (int64_t)p;
        cols[4][i] = lo;
        cols[5][i] = hi;
        cols[6][i] = (int64_t)e;
        uint32_t b_lo = sp_hist_bucket(lo), b_hi = sp_hist_bucket(hi);
        if (count[j] >= 2 && b_hi > b_lo) {
            buckets[e] = b_lo;
            counts[e++] = count[j] - 1;
            buckets[e] = b_hi;
            counts[e++] = 1;
        } else {
            buckets[e] = b_lo;
            counts[e++] = count[j];
        }
        cols[7][i] = (int64_t)e - cols[6][i];
        totals[i] = total[j];
        double c = (double)count[j], span = (double)hi - (double)lo;
        m2[i] = count[j] >= 2 ? (c - 1.0) / c * span * span : 0.0;
    }
    static const char *const names[8] = {"ranks",    "threads",  "region_ids",    "parents",
                                         "minimums", "maximums", "entry_offsets", "entry_counts"};
    for (int k = 0; k < 8; k++) {
        char path[96];
        snprintf(path, sizeof path, G "/%s", names[k]);
        fz_emit_ints(f, file, path, k == 0 || k == 2 ? H5T_STD_U32LE : H5T_STD_I64LE, cols[k],
                     rows);
        free(cols[k]);
    }
    if (fz_chance(f, 128)) fz_emit_ints(f, file, G "/totals", H5T_STD_I64LE, totals, rows);
    free(totals);
    if (fz_chance(f, 128)) fz_emit_doubles(f, file, G "/squared_deviations", m2, rows);
    free(m2);
    if (fz_chance(f, 128)) fz_emit_ints(f, file, G "/fork_parents", H5T_STD_I64LE, forks, rows);
    free(forks);
    fz_emit_ints(f, file, G "/buckets", H5T_STD_U16LE, buckets, e);
    fz_emit_ints(f, file, G "/counts", H5T_STD_U64LE, counts, e);
    free(buckets);
    free(counts);
}
