#include "format/write_aggregate.h"

#include <hdf5.h>
#include <stdlib.h>

#include "common/error.h"
#include "format/h5_write.h"
#include "format/write_histograms.h"

static int write_metadata(hid_t file, const sp_model *m) {
    hid_t g = H5Gcreate2(file, "metadata", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int rc = g >= 0 ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < m->num_meta; i++) {
        const sp_meta_entry *e = &m->meta[i];
        if (e->type == SP_META_INT) rc = sp_h5_attr_int64(g, e->key, e->i);
        if (e->type == SP_META_FLOAT) rc = sp_h5_attr_double(g, e->key, e->f);
        if (e->type == SP_META_STRING) rc = sp_h5_attr_string(g, e->key, e->s);
        if (e->type == SP_META_STRING_LIST)
            rc = sp_h5_attr_strings(g, e->key, (const char *const *)e->list, e->list_len);
    }
    if (g >= 0 && H5Gclose(g) < 0) rc = -1;
    return rc;
}

static int write_index(hid_t file, const sp_model *m) {
    size_t n = m->num_rows;
    uint32_t *u = malloc((n ? n : 1) * sizeof *u);
    int64_t *v = malloc((n ? n : 1) * sizeof *v);
    hid_t g = H5Gcreate2(file, "rank_region_index", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int rc = u && v && g >= 0 ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < n; i++)
        u[i] = m->rows[i].region;
    if (rc == 0) rc = sp_h5_write_array(g, "region_ids", H5T_STD_U32LE, H5T_NATIVE_UINT32, u, n);
    for (size_t i = 0; rc == 0 && i < n; i++)
        u[i] = m->rows[i].rank;
    if (rc == 0) rc = sp_h5_write_array(g, "ranks", H5T_STD_U32LE, H5T_NATIVE_UINT32, u, n);
    int exclusives = 1;
    for (size_t i = 0; i < n; i++)
        exclusives &= m->rows[i].exclusive_total >= 0;
    static const char *const names[] = {"aggregate_counts", "aggregate_totals",
                                        "aggregate_minimums", "aggregate_maximums",
                                        "aggregate_exclusives"};
    for (int k = 0; rc == 0 && k < (exclusives ? 5 : 4); k++) {
        for (size_t i = 0; i < n; i++) {
            const sp_model_row *r = &m->rows[i];
            v[i] = k == 0   ? (int64_t)r->count
                   : k == 1 ? r->stats.total
                   : k == 2 ? r->stats.minimum
                   : k == 3 ? r->stats.maximum
                            : r->exclusive_total;
        }
        hid_t type = k == 0 ? H5T_STD_U64LE : H5T_STD_I64LE;
        rc = sp_h5_write_array(g, names[k], type, H5T_NATIVE_INT64, v, n);
    }
    if (g >= 0 && H5Gclose(g) < 0) rc = -1;
    free(u);
    free(v);
    return rc;
}

sp_status sp_write_aggregate_model(const sp_model *m, const char *path, sp_error *err) {
    H5E_auto2_t saved;
    void *saved_data;
    H5Eget_auto2(H5E_DEFAULT, &saved, &saved_data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    int rc = f >= 0 ? 0 : -1;
    if (rc == 0) rc = sp_h5_attr_int64(f, "scope_profiler_schema", 3);
    if (rc == 0) rc = sp_h5_attr_string(f, "storage_layout", "aggregate");
    if (rc == 0) rc = write_metadata(f, m);
    hid_t rt = rc == 0 ? H5Gcreate2(f, "region_table", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) : -1;
    if (rt < 0) rc = -1;
    if (rc == 0)
        rc = sp_h5_write_strings(rt, "names", (const char *const *)m->region_names, m->num_regions);
    if (rt >= 0 && H5Gclose(rt) < 0) rc = -1;
    if (rc == 0) rc = write_index(f, m);
    if (rc == 0) rc = sp_write_histograms(f, m);
    if (f >= 0 && H5Fclose(f) < 0) rc = -1;
    H5Eset_auto2(H5E_DEFAULT, saved, saved_data);
    if (rc == 0) return SP_OK;
    return sp_error_set(err, SP_ERR_HDF5, "%s: cannot write the aggregate profile", path);
}
