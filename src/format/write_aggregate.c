#include "format/write_aggregate.h"

#include <errno.h>
#include <hdf5.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "format/atomic_file.h"
#include "format/guarded_driver.h"
#include "format/h5_write.h"
#include "format/write_histograms.h"
#include "format/writer_tables.h"

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

/* The per-call columns of the Python package's aggregate files: there, as
 * in its files, with no rows (FORMAT.md §3). */
static int write_empty_columns(hid_t file, hid_t index) {
    static const char *const u64[] = {"event_offsets", "event_counts"};
    static const char *const i64[] = {"source_lines", "exclusive_totals"};
    static const char *const text[] = {"source_files", "source_texts", "tags"};
    int rc = 0;
    for (int k = 0; rc == 0 && k < 2; k++)
        rc = sp_h5_write_array(index, u64[k], H5T_STD_U64LE, H5T_NATIVE_UINT64, NULL, 0);
    for (int k = 0; rc == 0 && k < 2; k++)
        rc = sp_h5_write_array(index, i64[k], H5T_STD_I64LE, H5T_NATIVE_INT64, NULL, 0);
    for (int k = 0; rc == 0 && k < 3; k++)
        rc = sp_h5_write_strings(index, text[k], NULL, 0);
    hid_t events = rc == 0 ? H5Gcreate2(file, "events", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) : -1;
    if (events < 0) rc = -1;
    if (rc == 0)
        rc = sp_h5_write_array(events, "start_deltas", H5T_STD_I64LE, H5T_NATIVE_INT64, NULL, 0);
    if (rc == 0)
        rc = sp_h5_write_array(events, "durations", H5T_STD_I64LE, H5T_NATIVE_INT64, NULL, 0);
    if (events >= 0 && H5Gclose(events) < 0) rc = -1;
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
    int exclusives = 1, stats = 1;
    for (size_t i = 0; i < n; i++) {
        exclusives &= m->rows[i].exclusive_total >= 0;
        stats &= m->rows[i].has_stats;
    }
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
    /* The one per-call column an aggregate file can fill: the spread (m2) is
     * known from the sums of squares, so std needs no events. */
    if (rc == 0)
        rc = stats && n ? sp_write_summary_statistics(g, m->rows, n, -1)
                        : sp_write_summary_statistics(g, NULL, 0, -1);
    if (rc == 0) rc = write_empty_columns(file, g);
    if (g >= 0 && H5Gclose(g) < 0) rc = -1;
    free(u);
    free(v);
    return rc;
}

/* The thread table (and thread_parents) when the rows came from threads. */
static int write_threads(hid_t file, const sp_model *m) {
    if (!m->num_threads) return 0;
    const sp_meta_entry *origin = sp_model_meta_find(m, "start_time_ns");
    int64_t origin_ns = origin && origin->type == SP_META_INT ? origin->i : 0;
    int rc = sp_write_thread_table(file, m->threads, m->num_threads, origin_ns);
    return rc == 0 ? sp_write_thread_parents(file, m->threads, m->num_threads) : rc;
}

static int write_contents(hid_t f, const sp_model *m) {
    int rc = sp_h5_attr_int64(f, "scope_profiler_schema", 3);
    if (rc == 0) rc = sp_h5_attr_string(f, "storage_layout", "aggregate");
    if (rc == 0) rc = write_metadata(f, m);
    hid_t rt = rc == 0 ? H5Gcreate2(f, "region_table", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) : -1;
    if (rt < 0) rc = -1;
    if (rc == 0)
        rc = sp_h5_write_strings(rt, "names", (const char *const *)m->region_names, m->num_regions);
    if (rt >= 0 && H5Gclose(rt) < 0) rc = -1;
    if (rc == 0) rc = write_index(f, m);
    if (rc == 0) rc = write_threads(f, m);
    if (rc == 0) rc = sp_write_histograms(f, m);
    return rc;
}

sp_status sp_write_aggregate_model_guarded(const sp_model *m, const char *path,
                                           const sp_target_id *since, char **saved_as,
                                           sp_error *err) {
    char *tmp = sp_atomic_begin(path, err);
    if (!tmp) return err ? err->status : SP_ERR_IO;
    H5E_auto2_t saved;
    void *saved_data;
    H5Eget_auto2(H5E_DEFAULT, &saved, &saved_data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    int io_errno = 0;
    hid_t fapl = sp_guarded_fapl(&io_errno);
    errno = 0;
    hid_t f = fapl >= 0 ? H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, fapl) : -1;
    if (fapl >= 0) H5Pclose(fapl);
    int rc = f >= 0 ? write_contents(f, m) : -1;
    if (f >= 0 && H5Fclose(f) < 0) rc = -1;
    H5Eset_auto2(H5E_DEFAULT, saved, saved_data);
    if (rc == 0 && !io_errno) {
        sp_status st = sp_atomic_commit_checked(tmp, path, since, saved_as, err);
        free(tmp);
        return st;
    }
    sp_atomic_abort(tmp);
    free(tmp);
    int e = io_errno ? io_errno : errno;
    if (e == ENOSPC || e == EDQUOT || e == EFBIG)
        return sp_error_set(err, SP_ERR_DISK_FULL,
                            "cannot write %s: %s; free some space or write elsewhere", path,
                            strerror(e));
    if (io_errno)
        return sp_error_set(err, SP_ERR_IO, "cannot write %s: %s; check the file system", path,
                            strerror(e));
    return sp_error_set(err, SP_ERR_HDF5, "%s: cannot write the aggregate profile", path);
}

sp_status sp_write_aggregate_model(const sp_model *m, const char *path, sp_error *err) {
    return sp_write_aggregate_model_guarded(m, path, NULL, NULL, err);
}
