/*
 * The small tables of a profile, written at commit: /rank_region_index
 * (with the summary_statistics compound of FORMAT.md 2.3), /thread_table,
 * and our /scope_profiler_c/clock_offsets. Each returns 0 or -1.
 */
#include "format/writer_tables.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "format/h5_write.h"

hid_t sp_h5_stats_memory_type(void) {
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(sp_row_stats));
    H5Tinsert(t, "total", HOFFSET(sp_row_stats, total), H5T_NATIVE_INT64);
    H5Tinsert(t, "minimum", HOFFSET(sp_row_stats, minimum), H5T_NATIVE_INT64);
    H5Tinsert(t, "maximum", HOFFSET(sp_row_stats, maximum), H5T_NATIVE_INT64);
    H5Tinsert(t, "first", HOFFSET(sp_row_stats, first), H5T_NATIVE_INT64);
    H5Tinsert(t, "last", HOFFSET(sp_row_stats, last), H5T_NATIVE_INT64);
    H5Tinsert(t, "start_minimum", HOFFSET(sp_row_stats, start_minimum), H5T_NATIVE_INT64);
    H5Tinsert(t, "end_maximum", HOFFSET(sp_row_stats, end_maximum), H5T_NATIVE_INT64);
    H5Tinsert(t, "gpu_count", HOFFSET(sp_row_stats, gpu_count), H5T_NATIVE_UINT64);
    H5Tinsert(t, "gpu_total", HOFFSET(sp_row_stats, gpu_total), H5T_NATIVE_INT64);
    H5Tinsert(t, "mean", HOFFSET(sp_row_stats, mean), H5T_NATIVE_DOUBLE);
    H5Tinsert(t, "m2", HOFFSET(sp_row_stats, m2), H5T_NATIVE_DOUBLE);
    return t;
}

hid_t sp_h5_stats_file_type(void) {
    static const char *const names[] = {"total",     "minimum",       "maximum",     "first",
                                        "last",      "start_minimum", "end_maximum", "gpu_count",
                                        "gpu_total", "mean",          "m2"};
    hid_t t = H5Tcreate(H5T_COMPOUND, 11 * 8);
    for (size_t i = 0; i < 11; i++) {
        hid_t field = i == 7 ? H5T_STD_U64LE : i >= 9 ? H5T_IEEE_F64LE : H5T_STD_I64LE;
        H5Tinsert(t, names[i], i * 8, field);
    }
    return t;
}

int sp_write_index(hid_t group, const sp_model_row *rows, size_t n, int gzip_level) {
    uint32_t *u32 = malloc((n ? n : 1) * sizeof *u32);
    uint64_t *u64 = malloc((n ? n : 1) * sizeof *u64);
    int64_t *i64 = malloc((n ? n : 1) * sizeof *i64);
    const char **strings = malloc((n ? n : 1) * sizeof *strings);
    int rc = (u32 && u64 && i64 && strings) ? 0 : -1;
#define COLUMN(buf, expr, name, ftype, mtype)                                                      \
    if (rc == 0) {                                                                                 \
        for (size_t i = 0; i < n; i++)                                                             \
            buf[i] = (expr);                                                                       \
        rc = sp_h5_write_column(group, name, ftype, mtype, buf, n, gzip_level);                    \
    }
    COLUMN(u32, rows[i].region, "region_ids", H5T_STD_U32LE, H5T_NATIVE_UINT32)
    COLUMN(u32, rows[i].rank, "ranks", H5T_STD_U32LE, H5T_NATIVE_UINT32)
    COLUMN(u64, rows[i].offset, "event_offsets", H5T_STD_U64LE, H5T_NATIVE_UINT64)
    COLUMN(u64, rows[i].count, "event_counts", H5T_STD_U64LE, H5T_NATIVE_UINT64)
    COLUMN(i64, rows[i].source_line, "source_lines", H5T_STD_I64LE, H5T_NATIVE_INT64)
    COLUMN(i64, rows[i].exclusive_total, "exclusive_totals", H5T_STD_I64LE, H5T_NATIVE_INT64)
#undef COLUMN
#define STRINGS(field, name)                                                                       \
    if (rc == 0) {                                                                                 \
        for (size_t i = 0; i < n; i++)                                                             \
            strings[i] = rows[i].field;                                                            \
        rc = sp_h5_write_string_column(group, name, strings, n, gzip_level);                       \
    }
    STRINGS(source_file, "source_files")
    STRINGS(source_text, "source_texts")
    STRINGS(tags, "tags")
    STRINGS(event_metadata, "event_metadata")
#undef STRINGS
    if (rc == 0) rc = sp_write_summary_statistics(group, rows, n, gzip_level);
    free(u32);
    free(u64);
    free(i64);
    free(strings);
    return rc;
}

int sp_write_summary_statistics(hid_t group, const sp_model_row *rows, size_t n, int gzip_level) {
    sp_row_stats *stats = malloc((n ? n : 1) * sizeof *stats);
    if (!stats) return -1;
    for (size_t i = 0; i < n; i++)
        stats[i] = rows[i].stats;
    hid_t ft = sp_h5_stats_file_type(), mt = sp_h5_stats_memory_type();
    int rc = (ft >= 0 && mt >= 0)
                 ? sp_h5_write_column(group, "summary_statistics", ft, mt, stats, n, gzip_level)
                 : -1;
    if (ft >= 0) H5Tclose(ft);
    if (mt >= 0) H5Tclose(mt);
    free(stats);
    return rc;
}

/* A thread time relative to the run's start, as the Python package stores it
 * (-1, unknown, stays -1). */
static int64_t relative_time(int64_t t, int64_t origin) {
    return t == -1 ? -1 : t - origin;
}

int sp_write_thread_table(hid_t file, const sp_thread_info *threads, size_t count,
                          int64_t time_origin_ns) {
    hid_t group = H5Gcreate2(file, "thread_table", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    /* Tells our reader these times are relative (docs/format.md, extension 2). */
    int rc = group >= 0 ? sp_h5_attr_int64(group, "relative_times", 1) : -1;
    uint32_t *ranks = malloc((count ? count : 1) * sizeof *ranks);
    int64_t *values = malloc((count ? count : 1) * sizeof *values);
    int8_t *daemon = malloc(count ? count : 1);
    const char **names = malloc((count ? count : 1) * sizeof *names);
    if (!ranks || !values || !daemon || !names) rc = -1;
    if (rc == 0) {
        for (size_t i = 0; i < count; i++)
            ranks[i] = threads[i].rank;
        rc = sp_h5_write_array(group, "ranks", H5T_STD_U32LE, H5T_NATIVE_UINT32, ranks, count);
    }
#define INT64_COLUMN(field)                                                                        \
    if (rc == 0) {                                                                                 \
        for (size_t i = 0; i < count; i++)                                                         \
            values[i] = threads[i].field;                                                          \
        rc = sp_h5_write_array(group, #field, H5T_STD_I64LE, H5T_NATIVE_INT64, values, count);     \
    }
    INT64_COLUMN(index)
    INT64_COLUMN(ident)
    INT64_COLUMN(native_id)
#undef INT64_COLUMN
    if (rc == 0) {
        for (size_t i = 0; i < count; i++)
            daemon[i] = threads[i].daemon;
        rc = sp_h5_write_array(group, "daemon", H5T_STD_I8LE, H5T_NATIVE_INT8, daemon, count);
    }
#define INT64_COLUMN(field)                                                                        \
    if (rc == 0) {                                                                                 \
        for (size_t i = 0; i < count; i++)                                                         \
            values[i] = threads[i].field;                                                          \
        rc = sp_h5_write_array(group, #field, H5T_STD_I64LE, H5T_NATIVE_INT64, values, count);     \
    }
#define TIME_COLUMN(field)                                                                         \
    if (rc == 0) {                                                                                 \
        for (size_t i = 0; i < count; i++)                                                         \
            values[i] = relative_time(threads[i].field, time_origin_ns);                           \
        rc = sp_h5_write_array(group, #field, H5T_STD_I64LE, H5T_NATIVE_INT64, values, count);     \
    }
    TIME_COLUMN(start_ns)
    TIME_COLUMN(end_ns)
#undef TIME_COLUMN
    INT64_COLUMN(cpu_ns)
#undef INT64_COLUMN
    if (rc == 0) {
        for (size_t i = 0; i < count; i++)
            names[i] = threads[i].name;
        rc = sp_h5_write_strings(group, "name", names, count);
    }
    free(ranks);
    free(values);
    free(daemon);
    free(names);
    if (group >= 0 && H5Gclose(group) < 0) rc = -1;
    return rc;
}

/* /scope_profiler_c, created by the first extension written. */
static hid_t extension_group(hid_t file) {
    if (H5Lexists(file, "scope_profiler_c", H5P_DEFAULT) > 0)
        return H5Gopen2(file, "scope_profiler_c", H5P_DEFAULT);
    return H5Gcreate2(file, "scope_profiler_c", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
}

int sp_write_thread_parents(hid_t file, const sp_thread_info *threads, size_t count) {
    int any = 0;
    for (size_t i = 0; i < count; i++)
        any |= sp_thread_parent(&threads[i]) >= 0;
    if (!any) return 0;
    int64_t *values = malloc(count * sizeof *values);
    if (!values) return -1;
    for (size_t i = 0; i < count; i++)
        values[i] = sp_thread_parent(&threads[i]);
    hid_t group = extension_group(file);
    hid_t sub = group >= 0
                    ? H5Gcreate2(group, "thread_parents", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)
                    : -1;
    int rc = sub >= 0 ? sp_h5_attr_int64(sub, "extension_version", 1) : -1;
    if (rc == 0)
        rc = sp_h5_write_array(sub, "parent_index", H5T_STD_I64LE, H5T_NATIVE_INT64, values, count);
    free(values);
    if (sub >= 0 && H5Gclose(sub) < 0) rc = -1;
    if (group >= 0 && H5Gclose(group) < 0) rc = -1;
    return rc;
}

int sp_write_message_bytes(hid_t file, const sp_model_row *rows, size_t n) {
    int any = 0;
    for (size_t i = 0; i < n; i++)
        any |= rows[i].has_message_bytes;
    if (!any) return 0;
    int64_t *values = malloc(n * sizeof *values);
    if (!values) return -1;
    for (size_t i = 0; i < n; i++)
        values[i] = rows[i].has_message_bytes ? rows[i].message_bytes : -1;
    hid_t group = extension_group(file);
    hid_t sub =
        group >= 0 ? H5Gcreate2(group, "message_bytes", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) : -1;
    int rc = sub >= 0 ? sp_h5_attr_int64(sub, "extension_version", 1) : -1;
    if (rc == 0) rc = sp_h5_write_array(sub, "bytes", H5T_STD_I64LE, H5T_NATIVE_INT64, values, n);
    free(values);
    if (sub >= 0 && H5Gclose(sub) < 0) rc = -1;
    if (group >= 0 && H5Gclose(group) < 0) rc = -1;
    return rc;
}

int sp_write_clock_offsets(hid_t file, const sp_clock_offset *offsets, size_t count) {
    hid_t group = extension_group(file);
    hid_t sub =
        group >= 0 ? H5Gcreate2(group, "clock_offsets", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) : -1;
    int rc = sub >= 0 ? sp_h5_attr_int64(sub, "extension_version", 1) : -1;
    uint32_t *ranks = malloc((count ? count : 1) * sizeof *ranks);
    int64_t *values = malloc((count ? count : 1) * sizeof *values);
    if (!ranks || !values) rc = -1;
    if (rc == 0) {
        for (size_t i = 0; i < count; i++)
            ranks[i] = offsets[i].rank;
        rc = sp_h5_write_array(sub, "ranks", H5T_STD_U32LE, H5T_NATIVE_UINT32, ranks, count);
    }
    if (rc == 0) {
        for (size_t i = 0; i < count; i++)
            values[i] = offsets[i].offset_ns;
        rc = sp_h5_write_array(sub, "offset_ns", H5T_STD_I64LE, H5T_NATIVE_INT64, values, count);
    }
    if (rc == 0) {
        for (size_t i = 0; i < count; i++)
            values[i] = offsets[i].uncertainty_ns;
        rc = sp_h5_write_array(sub, "uncertainty_ns", H5T_STD_I64LE, H5T_NATIVE_INT64, values,
                               count);
    }
    free(ranks);
    free(values);
    if (sub >= 0 && H5Gclose(sub) < 0) rc = -1;
    if (group >= 0 && H5Gclose(group) < 0) rc = -1;
    return rc;
}

int sp_write_metadata(hid_t file, const sp_meta_entry *meta, size_t count) {
    /* Track creation order so that readers can list the attributes as written. */
    hid_t gcpl = H5Pcreate(H5P_GROUP_CREATE);
    if (gcpl >= 0) H5Pset_attr_creation_order(gcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED);
    hid_t group = gcpl >= 0 ? H5Gcreate2(file, "metadata", H5P_DEFAULT, gcpl, H5P_DEFAULT) : -1;
    if (gcpl >= 0) H5Pclose(gcpl);
    int rc = group >= 0 ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < count; i++) {
        const sp_meta_entry *e = &meta[i];
        switch (e->type) {
        case SP_META_INT:
            rc = sp_h5_attr_int64(group, e->key, e->i);
            break;
        case SP_META_FLOAT:
            rc = sp_h5_attr_double(group, e->key, e->f);
            break;
        case SP_META_STRING:
            rc = sp_h5_attr_string(group, e->key, e->s);
            break;
        case SP_META_STRING_LIST:
            rc = sp_h5_attr_strings(group, e->key, (const char *const *)e->list, e->list_len);
            break;
        }
    }
    if (group >= 0 && H5Gclose(group) < 0) rc = -1;
    return rc;
}

int64_t sp_metadata_time_origin(const sp_meta_entry *meta, size_t count) {
    int64_t origin = 0;
    for (size_t i = 0; i < count; i++)
        if (meta[i].type == SP_META_INT && strcmp(meta[i].key, "start_time_ns") == 0)
            origin = meta[i].i;
    return origin;
}

/* One int64 column of the fork table, picked by its offset in sp_thread_fork. */
static int write_fork_column(hid_t sub, const char *name, const sp_thread_fork *forks, size_t n,
                             size_t offset) {
    int64_t *values = malloc((n ? n : 1) * sizeof *values);
    if (!values) return -1;
    for (size_t i = 0; i < n; i++)
        memcpy(&values[i], (const char *)&forks[i] + offset, sizeof *values);
    int rc = sp_h5_write_array(sub, name, H5T_STD_I64LE, H5T_NATIVE_INT64, values, n);
    free(values);
    return rc;
}

int sp_write_thread_forks(hid_t file, const sp_thread_fork *forks, size_t n) {
    if (!n) return 0;
    hid_t group = extension_group(file);
    hid_t sub =
        group >= 0 ? H5Gcreate2(group, "thread_forks", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) : -1;
    int rc = sub >= 0 ? sp_h5_attr_int64(sub, "extension_version", 1) : -1;
    uint32_t *ranks = malloc(n * sizeof *ranks);
    if (!ranks) rc = -1;
    for (size_t i = 0; rc == 0 && i < n; i++)
        ranks[i] = forks[i].rank;
    if (rc == 0) rc = sp_h5_write_array(sub, "ranks", H5T_STD_U32LE, H5T_NATIVE_UINT32, ranks, n);
    free(ranks);
    if (rc == 0) rc = write_fork_column(sub, "threads", forks, n, offsetof(sp_thread_fork, thread));
    if (rc == 0)
        rc = write_fork_column(sub, "since_ns", forks, n, offsetof(sp_thread_fork, since_ns));
    if (rc == 0)
        rc = write_fork_column(sub, "parent_threads", forks, n, offsetof(sp_thread_fork, parent));
    if (rc == 0)
        rc = write_fork_column(sub, "fork_ns", forks, n, offsetof(sp_thread_fork, fork_ns));
    if (sub >= 0 && H5Gclose(sub) < 0) rc = -1;
    if (group >= 0 && H5Gclose(group) < 0) rc = -1;
    return rc;
}
