#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "format/chunk_read.h"
#include "format/read_internal.h"

#define STATS_PATH "/rank_region_index/summary_statistics"

typedef enum kind { K_INT64, K_UINT64, K_DOUBLE } kind;

typedef struct stats_field {
    const char *name;
    size_t offset;
    kind kind;
    int required; /* without it the file's statistics are not used */
} stats_field;

static const stats_field fields[] = {
    {"total", offsetof(sp_row_stats, total), K_INT64, 1},
    {"minimum", offsetof(sp_row_stats, minimum), K_INT64, 1},
    {"maximum", offsetof(sp_row_stats, maximum), K_INT64, 1},
    {"first", offsetof(sp_row_stats, first), K_INT64, 1},
    {"last", offsetof(sp_row_stats, last), K_INT64, 1},
    {"start_minimum", offsetof(sp_row_stats, start_minimum), K_INT64, 1},
    {"end_maximum", offsetof(sp_row_stats, end_maximum), K_INT64, 1},
    {"gpu_count", offsetof(sp_row_stats, gpu_count), K_UINT64, 0},
    {"gpu_total", offsetof(sp_row_stats, gpu_total), K_INT64, 0},
    {"mean", offsetof(sp_row_stats, mean), K_DOUBLE, 1},
    {"m2", offsetof(sp_row_stats, m2), K_DOUBLE, 1},
};
#define NUM_FIELDS (sizeof fields / sizeof *fields)

static hid_t native_type(kind k) {
    return k == K_INT64 ? H5T_NATIVE_INT64 : k == K_UINT64 ? H5T_NATIVE_UINT64 : H5T_NATIVE_DOUBLE;
}

/*
 * Builds the memory compound from the fields the file has, matched by name
 * (HDF5 converts any integer or float width). *complete = 0 when a required
 * field is missing.
 */
static sp_status memory_type(sp_rd *rd, hid_t file_type, hid_t *out, int *complete) {
    hid_t mt = H5Tcreate(H5T_COMPOUND, sizeof(sp_row_stats));
    if (mt < 0) return sp_rd_no_memory(rd);
    *complete = 1;
    for (size_t i = 0; i < NUM_FIELDS; i++) {
        int idx = H5Tget_member_index(file_type, fields[i].name);
        if (idx < 0) {
            if (fields[i].required) *complete = 0;
            continue;
        }
        H5T_class_t cls = H5Tget_member_class(file_type, (unsigned)idx);
        if (cls != H5T_INTEGER && cls != H5T_FLOAT) {
            H5Tclose(mt);
            return sp_error_set(rd->err, SP_ERR_BAD_DATASET,
                                "%s: field '%s' of " STATS_PATH " is not a number", rd->path,
                                fields[i].name);
        }
        if (H5Tinsert(mt, fields[i].name, fields[i].offset, native_type(fields[i].kind)) < 0) {
            H5Tclose(mt);
            return sp_rd_damaged(rd, "cannot read field '%s' of " STATS_PATH, fields[i].name);
        }
    }
    *out = mt;
    return SP_OK;
}

/* Every member of the file's compound inside the compound: a damaged
 * datatype message can place one past the end, and libhdf5 1.10's
 * conversion then copies from beyond its buffer (SIGSEGV in
 * H5T__conv_struct_opt, found by the byte fuzzer). */
static sp_status check_members(sp_rd *rd, hid_t file_type) {
    size_t size = H5Tget_size(file_type);
    int n = H5Tget_nmembers(file_type);
    if (size == 0 || n < 0) return sp_rd_damaged(rd, "cannot read the type of " STATS_PATH);
    for (int i = 0; i < n; i++) {
        size_t offset = H5Tget_member_offset(file_type, (unsigned)i);
        hid_t mt = H5Tget_member_type(file_type, (unsigned)i);
        size_t msize = mt >= 0 ? H5Tget_size(mt) : 0;
        if (mt >= 0) H5Tclose(mt);
        if (msize == 0 || offset > size || msize > size - offset)
            return sp_rd_damaged(rd,
                                 "member %d of the type of " STATS_PATH
                                 " lies outside it (%zu + %zu bytes of %zu)",
                                 i, offset, msize, size);
    }
    return SP_OK;
}

static hid_t stored_type(kind k) {
    return k == K_INT64 ? H5T_STD_I64LE : k == K_UINT64 ? H5T_STD_U64LE : H5T_IEEE_F64LE;
}

/* 1 when the file's records are sp_row_stats byte for byte (every field,
 * in order, at its offset, little-endian on a little-endian host): what
 * this library and the Python package write. Such records need no
 * conversion, so the reader decodes their chunks itself (chunk_read.h). */
static int stored_as_in_memory(hid_t ft) {
    if (!sp_rd_host_little_endian() || H5Tget_size(ft) != sizeof(sp_row_stats) ||
        H5Tget_nmembers(ft) != (int)NUM_FIELDS)
        return 0;
    int same = 1;
    for (unsigned i = 0; i < NUM_FIELDS && same; i++) {
        char *name = H5Tget_member_name(ft, i);
        hid_t mt = H5Tget_member_type(ft, i);
        same = name && strcmp(name, fields[i].name) == 0 && mt >= 0 &&
               H5Tget_member_offset(ft, i) == fields[i].offset &&
               H5Tequal(mt, stored_type(fields[i].kind)) > 0;
        if (name) H5free_memory(name);
        if (mt >= 0) H5Tclose(mt);
    }
    return same;
}

/* The records straight from their decoded chunks when they need no
 * conversion; *handled 0: HDF5 reads them. */
static sp_status read_records_directly(sp_rd *rd, hid_t ds, hid_t ft, size_t n, sp_row_stats *buf,
                                       int *handled) {
    *handled = 0;
    if (n < SP_CHUNK_READ_MIN_VALUES || !stored_as_in_memory(ft)) return SP_OK;
    return sp_rd_chunk_read(rd, ds, STATS_PATH, n, sizeof *buf, buf, 0, handled);
}

static sp_status read_compound(sp_rd *rd, hid_t ds, size_t n, sp_row_stats **out) {
    sp_status st = sp_rd_expect_class(rd, ds, STATS_PATH, H5T_COMPOUND, "a compound dataset");
    if (!st) st = sp_rd_check_storage(rd, ds, STATS_PATH, n, sizeof(sp_row_stats));
    hid_t ft = st ? -1 : H5Dget_type(ds);
    if (!st && ft < 0) st = sp_rd_damaged(rd, "cannot read the type of " STATS_PATH);
    hid_t mt = -1;
    int complete = 0;
    if (!st) st = check_members(rd, ft);
    if (!st) st = memory_type(rd, ft, &mt, &complete);
    if (st || !complete) {
        if (mt >= 0) H5Tclose(mt);
        if (ft >= 0) H5Tclose(ft);
        return st;
    }
    sp_row_stats *buf = calloc(n ? n : 1, sizeof *buf);
    int direct = 0;
    if (!buf)
        st = sp_rd_no_memory(rd);
    else
        st = read_records_directly(rd, ds, ft, n, buf, &direct);
    H5Tclose(ft);
    if (!st && buf && n && !direct) {
        hid_t dxpl = sp_rd_transfer_plist(ds, n, sizeof *buf);
        if (H5Dread(ds, mt, H5S_ALL, H5S_ALL, dxpl, buf) < 0)
            st = sp_rd_damaged(rd, "cannot read " STATS_PATH);
        sp_rd_close_plist(dxpl);
    }
    H5Tclose(mt);
    if (st)
        free(buf);
    else
        *out = buf;
    return st;
}

/* Cheap plausibility, so that later arithmetic on a damaged file stays sane. */
static const char *implausible(const sp_row_stats *s, int aggregate) {
    if (s->total < 0 || s->minimum < 0 || s->maximum < s->minimum || s->maximum > s->total)
        return "total, minimum and maximum contradict each other";
    /* Aggregate rows may lack m2 (NaN: unknown). */
    if (!isfinite(s->mean) || s->mean < 0 || s->m2 < 0 || isinf(s->m2) ||
        (!aggregate && isnan(s->m2)))
        return "mean or m2 is negative or not a number";
    if (aggregate) return NULL;
    if (s->first < s->minimum || s->first > s->maximum || s->last < s->minimum ||
        s->last > s->maximum)
        return "first or last lies outside [minimum, maximum]";
    if (s->start_minimum < 0 || s->end_maximum < s->start_minimum)
        return "start_minimum and end_maximum contradict each other";
    return NULL;
}

static void apply(sp_model *m, const sp_row_stats *file_stats) {
    int aggregate = m->layout == SP_LAYOUT_AGGREGATE;
    for (size_t i = 0; i < m->num_rows; i++) {
        sp_model_row *r = &m->rows[i];
        if (r->count == 0) continue;
        sp_row_stats s = file_stats[i];
        if (aggregate) { /* the aggregate_* columns are authoritative */
            s.total = r->stats.total;
            s.minimum = r->stats.minimum;
            s.maximum = r->stats.maximum;
        }
        r->stats = s;
        r->has_stats = 1;
    }
}

sp_status sp_rd_summary_statistics(sp_rd *rd, sp_model *m) {
    if (sp_rd_kind_of(rd->file, STATS_PATH) == SP_RD_ABSENT) return SP_OK;
    hid_t ds;
    size_t n = 0;
    sp_status st = sp_rd_open_column(rd, STATS_PATH, &ds, &n);
    if (st) return st;
    int use = 1;
    st = sp_rd_optional_rows(rd, m, STATS_PATH, n, &use);
    sp_row_stats *buf = NULL;
    if (!st && use) st = read_compound(rd, ds, n, &buf);
    H5Dclose(ds);
    if (!st && buf) apply(m, buf);
    free(buf);
    return st;
}

sp_status sp_rd_check_stats(sp_rd *rd, const sp_model *m) {
    int aggregate = m->layout == SP_LAYOUT_AGGREGATE;
    for (size_t i = 0; i < m->num_rows; i++) {
        const sp_model_row *r = &m->rows[i];
        const char *why = r->has_stats ? implausible(&r->stats, aggregate) : NULL;
        if (why)
            return sp_rd_damaged(rd, "the statistics of row %zu of /rank_region_index: %s", i, why);
        /* a call's own time is part of its time: never more than the row's total */
        if (r->has_stats && r->exclusive_total > r->stats.total)
            return sp_rd_damaged(rd,
                                 "row %zu of /rank_region_index: exclusive total %" PRId64
                                 " ns exceeds the row's total %" PRId64 " ns",
                                 i, r->exclusive_total, r->stats.total);
    }
    return SP_OK;
}
