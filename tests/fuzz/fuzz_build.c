/*
 * The builder: turns fuzz input into an HDF5 file through the HDF5 API.
 * Every dataset passes through emit_ints / emit_strings, where the input may
 * give it a defect (absent, another class or rank, another length, a value
 * changed, an extent it does not store); otherwise it is written well-formed
 * in an integer type the input picks. Builder calls that HDF5 refuses are
 * simply skipped: the reader must cope with whatever results.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_internal.h"

#define MAX_ROWS  8
#define MAX_NAMES 8
/* Now and then a row big enough to span several chunks of a chunked column. */
#define BIG_COUNT 1500

static const char *const region_names[] = {"setup",
                                           "solve",
                                           "io/write \"x\"",
                                           "naïve ∑ région\n2",
                                           "",
                                           "timestep",
                                           "rank0",
                                           "x y",
                                           "\xff\xfe not utf-8",
                                           "tab\there",
                                           "assemble",
                                           "a much longer region name than most"};
#define NUM_REGION_NAMES (sizeof region_names / sizeof *region_names)

static const char *const strings[] = {"",    "[]",    "[\"solver\"]", "[{\"step\": 1}]",
                                      "x.c", "naïve", "{not json",    "line\nbreak"};
#define NUM_STRINGS (sizeof strings / sizeof *strings)

/* Values come from the input: sums wrap (as unsigned) instead of overflowing. */
static int64_t wrap_add(int64_t a, int64_t b) {
    return (int64_t)((uint64_t)a + (uint64_t)b);
}

static hid_t pick_int_type(fz *f) {
    const hid_t types[] = {H5T_STD_I64LE, H5T_STD_I64BE, H5T_STD_U64LE, H5T_STD_I32LE,
                           H5T_STD_U32BE, H5T_STD_I16BE, H5T_STD_U16LE, H5T_STD_I8LE,
                           H5T_STD_U8LE,  H5T_STD_U64BE};
    return types[fz_below(f, sizeof types / sizeof *types)];
}

static hid_t vlen_string_type(void) {
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, H5T_VARIABLE);
    H5Tset_cset(t, H5T_CSET_UTF8);
    return t;
}

/* Creates path (with missing parent groups) and writes buf through mtype. */
static void create(fz *f, hid_t loc, const char *path, hid_t ftype, hid_t space, hid_t mtype,
                   const void *buf) {
    hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
    H5Pset_create_intermediate_group(lcpl, 1);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    hssize_t n = H5Sget_simple_extent_npoints(space);
    if (n > 0 && H5Sget_simple_extent_ndims(space) == 1 && fz_chance(f, 32)) {
        /* At most the extent, and at most ~64 chunks (zlib starts afresh for each). */
        hsize_t chunk = 1 + fz_below(f, n < 64 ? (size_t)n : 64);
        if (chunk < (hsize_t)n / 64) chunk = (hsize_t)n / 64;
        H5Pset_chunk(dcpl, 1, &chunk);
        if (fz_chance(f, 128)) H5Pset_shuffle(dcpl);
        H5Pset_deflate(dcpl, (unsigned)fz_below(f, 10));
    }
    hid_t ds = H5Dcreate2(loc, path, ftype, space, lcpl, dcpl, H5P_DEFAULT);
    /* A conversion buffer of the data's size, not HDF5's zero-filled 1 MiB. */
    hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
    size_t bytes = n > 0 && n < 8192 ? (size_t)n * 128 : 1u << 20;
    H5Pset_buffer(dxpl, bytes < 4096 ? 4096 : bytes, NULL, NULL);
    if (ds >= 0 && buf && n > 0) H5Dwrite(ds, mtype, H5S_ALL, H5S_ALL, dxpl, buf);
    H5Pclose(dxpl);
    if (ds >= 0) H5Dclose(ds);
    H5Pclose(dcpl);
    H5Pclose(lcpl);
}

static void create_1d(fz *f, hid_t loc, const char *path, hid_t ftype, size_t n, hid_t mtype,
                      const void *buf) {
    hsize_t dims = n;
    hid_t space = H5Screate_simple(1, &dims, NULL);
    create(f, loc, path, ftype, space, mtype, buf);
    H5Sclose(space);
}

/* A dataset whose header claims far more than it stores. */
static void create_huge(hid_t loc, const char *path) {
    hsize_t dims = (hsize_t)1 << 44, chunk = 64;
    hid_t space = H5Screate_simple(1, &dims, NULL);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 1, &chunk);
    hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
    H5Pset_create_intermediate_group(lcpl, 1);
    hid_t ds = H5Dcreate2(loc, path, H5T_STD_I64LE, space, lcpl, dcpl, H5P_DEFAULT);
    if (ds >= 0) H5Dclose(ds);
    H5Pclose(lcpl);
    H5Pclose(dcpl);
    H5Sclose(space);
}

static void create_group(hid_t loc, const char *path) {
    hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
    H5Pset_create_intermediate_group(lcpl, 1);
    hid_t g = H5Gcreate2(loc, path, lcpl, H5P_DEFAULT, H5P_DEFAULT);
    if (g >= 0) H5Gclose(g);
    H5Pclose(lcpl);
}

/* Defects shared by every kind of column; returns 1 when one was made. */
static int shape_defect(fz *f, hid_t loc, const char *path, size_t n) {
    hsize_t dims[2] = {n, 2};
    hid_t space = -1;
    switch (fz_below(f, 6)) {
    case 0:
        return 1; /* absent */
    case 1:
        space = H5Screate(H5S_SCALAR);
        break;
    case 2:
        space = H5Screate_simple(2, dims, NULL);
        break;
    case 3:
        space = H5Screate(H5S_NULL);
        break;
    case 4:
        create_huge(loc, path);
        return 1;
    default:
        create_group(loc, path);
        return 1;
    }
    create(f, loc, path, H5T_STD_I64LE, space, H5T_NATIVE_INT64, NULL);
    H5Sclose(space);
    return 1;
}

static void write_as_doubles(fz *f, hid_t loc, const char *path, const int64_t *v, size_t n) {
    double *d = malloc((n ? n : 1) * sizeof *d);
    for (size_t i = 0; i < n; i++)
        d[i] = (double)v[i];
    create_1d(f, loc, path, fz_chance(f, 128) ? H5T_IEEE_F64LE : H5T_IEEE_F32BE, n,
              H5T_NATIVE_DOUBLE, d);
    free(d);
}

static void write_as_strings(fz *f, hid_t loc, const char *path, size_t n) {
    const char **s = malloc((n ? n : 1) * sizeof *s);
    for (size_t i = 0; i < n; i++)
        s[i] = "1";
    hid_t t = vlen_string_type();
    create_1d(f, loc, path, t, n, t, s);
    H5Tclose(t);
    free(s);
}

/* An integer column of n values, perhaps with a defect. */
void fz_emit_ints(fz *f, hid_t loc, const char *path, hid_t type, const int64_t *v, size_t n);
void fz_emit_ints(fz *f, hid_t loc, const char *path, hid_t type, const int64_t *v, size_t n) {
    if (!fz_defect(f)) {
        create_1d(f, loc, path, type, n, H5T_NATIVE_INT64, v);
        return;
    }
    size_t len = n;
    int64_t *copy = calloc(n + 4, sizeof *copy);
    if (n) memcpy(copy, v, n * sizeof *v);
    switch (fz_below(f, 7)) {
    case 0:
        shape_defect(f, loc, path, n);
        break;
    case 1:
        write_as_doubles(f, loc, path, v, n);
        break;
    case 2:
        write_as_strings(f, loc, path, n);
        break;
    case 3: /* another length */
        len = fz_chance(f, 128) && n ? n - 1 : n + 1 + fz_below(f, 3);
        for (size_t i = n; i < len; i++)
            copy[i] = fz_value(f);
        create_1d(f, loc, path, pick_int_type(f), len, H5T_NATIVE_INT64, copy);
        break;
    default: /* a changed value, in any integer type */
        if (n) copy[fz_below(f, n)] = fz_value(f);
        create_1d(f, loc, path, pick_int_type(f), n, H5T_NATIVE_INT64, copy);
        break;
    }
    free(copy);
}

/* A float column of n values, perhaps with a defect (the same kinds, and
 * negative, NaN or huge values). */
void fz_emit_doubles(fz *f, hid_t loc, const char *path, const double *v, size_t n);
void fz_emit_doubles(fz *f, hid_t loc, const char *path, const double *v, size_t n) {
    if (!fz_defect(f)) {
        create_1d(f, loc, path, H5T_IEEE_F64LE, n, H5T_NATIVE_DOUBLE, v);
        return;
    }
    size_t len = fz_chance(f, 64) ? n + 1 : n;
    double *copy = calloc(len + 1, sizeof *copy);
    if (n) memcpy(copy, v, n * sizeof *v);
    static const double odd[] = {-1.0, NAN, INFINITY, 1e300, -0.0};
    switch (fz_below(f, 4)) {
    case 0:
        shape_defect(f, loc, path, n);
        break;
    case 1:
        write_as_strings(f, loc, path, n);
        break;
    default:
        if (len) copy[fz_below(f, len)] = odd[fz_below(f, 5)];
        create_1d(f, loc, path, fz_chance(f, 128) ? H5T_IEEE_F64LE : H5T_IEEE_F32BE, len,
                  H5T_NATIVE_DOUBLE, copy);
        break;
    }
    free(copy);
}

static void write_fixed_strings(fz *f, hid_t loc, const char *path, const char *const *v,
                                size_t n) {
    size_t width = 1 + fz_below(f, 24);
    char *buf = calloc(n ? n : 1, width);
    for (size_t i = 0; i < n; i++)
        strncpy(buf + i * width, v[i] ? v[i] : "", width);
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, width);
    H5Tset_strpad(t, (H5T_str_t)fz_below(f, 3));
    create_1d(f, loc, path, t, n, t, buf);
    H5Tclose(t);
    free(buf);
}

/* A string column of n values, perhaps with a defect. */
void fz_emit_strings(fz *f, hid_t loc, const char *path, const char *const *v, size_t n);
void fz_emit_strings(fz *f, hid_t loc, const char *path, const char *const *v, size_t n) {
    hid_t t = vlen_string_type();
    if (!fz_defect(f)) {
        create_1d(f, loc, path, t, n, t, v);
    } else {
        const char **copy = calloc(n + 3, sizeof *copy);
        for (size_t i = 0; i < n; i++)
            copy[i] = v[i];
        size_t len = n;
        int64_t numbers[4] = {0};
        switch (fz_below(f, 5)) {
        case 0:
            shape_defect(f, loc, path, n);
            break;
        case 1:
            create_1d(f, loc, path, H5T_STD_I32LE, n < 4 ? n : 4, H5T_NATIVE_INT64, numbers);
            break;
        case 2:
            write_fixed_strings(f, loc, path, v, n);
            break;
        case 3:
            len = n + 1 + fz_below(f, 2);
            for (size_t i = n; i < len; i++)
                copy[i] = strings[fz_below(f, NUM_STRINGS)];
            create_1d(f, loc, path, t, len, t, copy);
            break;
        default: /* NULL pointers and other values */
            if (n)
                copy[fz_below(f, n)] =
                    fz_chance(f, 128) ? NULL : region_names[fz_below(f, NUM_REGION_NAMES)];
            create_1d(f, loc, path, t, n, t, copy);
            break;
        }
        free(copy);
    }
    H5Tclose(t);
}

/* --- the rows and events of an indexed (schema 2/3) profile ----------------- */

typedef struct plan {
    size_t num_regions, num_rows, num_events;
    const char *names[MAX_NAMES];
    int64_t region[MAX_ROWS], rank[MAX_ROWS], offset[MAX_ROWS], count[MAX_ROWS];
    int64_t *starts, *durations; /* absolute; num_events */
} plan;

static void plan_rows(fz *f, plan *p) {
    p->num_regions = fz_below(f, MAX_NAMES + 1);
    size_t first = fz_below(f, NUM_REGION_NAMES);
    int random_names = fz_defect(f); /* may repeat a name */
    for (size_t i = 0; i < p->num_regions; i++)
        p->names[i] = region_names[random_names ? fz_below(f, NUM_REGION_NAMES)
                                                : (first + i) % NUM_REGION_NAMES];
    p->num_rows = p->num_regions || fz_defect(f) ? fz_below(f, MAX_ROWS + 1) : 0;
    int64_t rank = fz_chance(f, 16) ? fz_value(f) : 0;
    size_t nr = p->num_regions ? p->num_regions : 1, in_rank = 0, first_region = 0;
    for (size_t i = 0; i < p->num_rows; i++) {
        /* A new rank when asked, or when this one has a row for every region. */
        if (i > 0 && (fz_chance(f, 96) || in_rank == nr)) {
            rank = wrap_add(rank, 1 + (int64_t)fz_below(f, 3));
            in_rank = 0;
        }
        if (in_rank == 0) first_region = fz_below(f, nr);
        p->rank[i] = rank;
        p->region[i] = (int64_t)((first_region + in_rank++) % nr);
        p->count[i] =
            fz_chance(f, 2) ? BIG_COUNT + (int64_t)fz_below(f, 1000) : (int64_t)fz_below(f, 6);
        p->offset[i] = (int64_t)p->num_events;
        p->num_events += (size_t)p->count[i];
    }
}

static void plan_events(fz *f, plan *p) {
    size_t n = p->num_events ? p->num_events : 1;
    p->starts = malloc(n * sizeof *p->starts);
    p->durations = malloc(n * sizeof *p->durations);
    for (size_t r = 0; r < p->num_rows; r++) {
        int64_t start = fz_chance(f, 16) ? fz_value(f) : 1000 + (int64_t)fz_below(f, 1 << 16);
        unsigned step = fz_u8(f), len = fz_u8(f);
        for (int64_t i = 0; i < p->count[r]; i++) {
            size_t e = (size_t)(p->offset[r] + i);
            /* Cheap but varied calls; the input decides the pattern, not each value. */
            start = wrap_add(start, (int64_t)((step * (uint64_t)i) % 977));
            p->starts[e] = start;
            p->durations[e] = (int64_t)((len * (uint64_t)(i + 1)) % 613);
        }
    }
    if (p->num_events && fz_defect(f)) p->durations[fz_below(f, p->num_events)] = fz_value(f);
}

static void emit_events(fz *f, hid_t file, const plan *p, int schema) {
    size_t n = p->num_events;
    int64_t *a = malloc((n ? n : 1) * sizeof *a), *b = malloc((n ? n : 1) * sizeof *b);
    for (size_t r = 0; r < p->num_rows; r++)
        for (int64_t i = 0; i < p->count[r]; i++) {
            size_t e = (size_t)(p->offset[r] + i);
            /* Unsigned: deliberately wrapping sums are part of the input space. */
            a[e] = schema >= 3 && i > 0
                       ? (int64_t)((uint64_t)p->starts[e] - (uint64_t)p->starts[e - 1])
                       : p->starts[e];
            b[e] = schema >= 3 ? p->durations[e]
                               : (int64_t)((uint64_t)p->starts[e] + (uint64_t)p->durations[e]);
        }
    fz_emit_ints(f, file, schema >= 3 ? "/events/start_deltas" : "/events/start_times",
                 H5T_STD_I64LE, a, n);
    fz_emit_ints(f, file, schema >= 3 ? "/events/durations" : "/events/end_times", H5T_STD_I64LE, b,
                 n);
    static const char *const optional[] = {"/events/thread_ids", "/events/call_ids",
                                           "/events/parent_ids"};
    for (size_t c = 0; c < 3; c++) {
        if (!fz_chance(f, 48)) continue;
        for (size_t e = 0; e < n; e++)
            a[e] = (int64_t)(e % 3) - (c == 0);
        fz_emit_ints(f, file, optional[c], H5T_STD_I64LE, a, n);
    }
    free(a);
    free(b);
}

static void emit_index_strings(fz *f, hid_t file, const plan *p) {
    static const char *const columns[] = {"source_files", "source_texts", "tags", "event_metadata"};
    const char *v[MAX_ROWS];
    for (size_t c = 0; c < 4; c++) {
        if (fz_chance(f, 32)) continue; /* optional */
        for (size_t i = 0; i < p->num_rows; i++)
            v[i] = strings[fz_below(f, NUM_STRINGS)];
        char path[64];
        snprintf(path, sizeof path, "/rank_region_index/%s", columns[c]);
        fz_emit_strings(f, file, path, v, p->num_rows);
    }
}

static void emit_index(fz *f, hid_t file, const plan *p, int aggregate) {
    int64_t v[MAX_ROWS];
    fz_emit_strings(f, file, "/region_table/names", p->names, p->num_regions);
    fz_emit_ints(f, file, "/rank_region_index/region_ids", H5T_STD_U32LE, p->region, p->num_rows);
    fz_emit_ints(f, file, "/rank_region_index/ranks", H5T_STD_U32LE, p->rank, p->num_rows);
    fz_emit_ints(f, file, "/rank_region_index/event_offsets", H5T_STD_U64LE, p->offset,
                 p->num_rows);
    fz_emit_ints(f, file, "/rank_region_index/event_counts", H5T_STD_U64LE, p->count, p->num_rows);
    for (size_t i = 0; i < p->num_rows; i++)
        v[i] = (int64_t)fz_below(f, 300) - 1;
    if (fz_chance(f, 224))
        fz_emit_ints(f, file, "/rank_region_index/source_lines", H5T_STD_I64LE, v, p->num_rows);
    if (fz_chance(f, 224))
        fz_emit_ints(f, file, "/rank_region_index/exclusive_totals", H5T_STD_I64LE, v, p->num_rows);
    for (size_t i = 0; i < p->num_rows; i++) /* our extension: -1 = not counted */
        v[i] = fz_chance(f, 96) ? -1 : fz_value(f);
    if (fz_chance(f, 32))
        fz_emit_ints(f, file, "/scope_profiler_c/message_bytes/bytes", H5T_STD_I64LE, v,
                     p->num_rows);
    emit_index_strings(f, file, p);
    if (!aggregate) return;
    static const char *const columns[] = {"aggregate_counts", "aggregate_totals",
                                          "aggregate_minimums", "aggregate_maximums",
                                          "aggregate_exclusives"};
    int64_t mins[MAX_ROWS], maxs[MAX_ROWS], totals[MAX_ROWS];
    for (size_t c = 0; c < 5; c++) {
        for (size_t i = 0; i < p->num_rows; i++) {
            int64_t total = 500 * p->count[i], max = total < 900 ? total : 900;
            v[i] = c == 0 ? p->count[i] : c == 1 ? total : c == 2 ? (max < 10 ? max : 10) : max;
            if (c == 1) totals[i] = v[i];
            if (c == 2) mins[i] = v[i];
            if (c == 3) maxs[i] = v[i];
        }
        char path[64];
        snprintf(path, sizeof path, "/rank_region_index/%s", columns[c]);
        fz_emit_ints(f, file, path, c == 0 ? H5T_STD_U64LE : H5T_STD_I64LE, v, p->num_rows);
    }
    if (fz_chance(f, 128)) /* our extension: the calls' histograms */
        fz_emit_histograms(f, file, p->rank, p->region, p->count, totals, mins, maxs, p->num_rows);
}

/* --- summary_statistics: any subset of fields, any numeric types ------------ */

typedef struct stats_row {
    int64_t v[9]; /* total .. gpu_total, in the order of stat_names */
    double mean, m2;
} stats_row;

static const char *const stat_names[] = {"total",     "minimum",       "maximum",     "first",
                                         "last",      "start_minimum", "end_maximum", "gpu_count",
                                         "gpu_total", "mean",          "m2"};

static hid_t pick_stat_type(fz *f, int is_float) {
    switch (fz_below(f, 8)) {
    case 0:
        return H5T_IEEE_F32BE;
    case 1:
        return H5T_IEEE_F64LE;
    case 2:
        return H5T_STD_I32BE;
    case 3:
        return H5T_STD_U64LE;
    default:
        return is_float ? H5T_IEEE_F64LE : H5T_STD_I64LE;
    }
}

/* What a writer would store for the row; wrapping, since the plan's calls
 * may deliberately leave the int64 range (sp_row_stats_compute may not). */
static void row_stats(const int64_t *starts, const int64_t *durations, size_t n, stats_row *out) {
    memset(out, 0, sizeof *out);
    if (n == 0) return;
    int64_t *v = out->v; /* total, minimum, maximum, first, last, start_minimum, end_maximum */
    v[1] = v[2] = v[3] = durations[0];
    v[4] = durations[n - 1];
    v[5] = starts[0];
    v[6] = wrap_add(starts[0], durations[0]);
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t d = durations[i], end = wrap_add(starts[i], d);
        v[0] = wrap_add(v[0], d);
        v[1] = d < v[1] ? d : v[1];
        v[2] = d > v[2] ? d : v[2];
        v[5] = starts[i] < v[5] ? starts[i] : v[5];
        v[6] = end > v[6] ? end : v[6];
        sum += (double)d;
    }
    out->mean = sum / (double)n;
    for (size_t i = 0; i < n; i++)
        out->m2 += ((double)durations[i] - out->mean) * ((double)durations[i] - out->mean);
}

static void fill_stats(const plan *p, stats_row *rows) {
    for (size_t r = 0; r < p->num_rows; r++) {
        size_t o = (size_t)p->offset[r];
        row_stats(p->starts + o, p->durations + o, (size_t)p->count[r], &rows[r]);
    }
}

static void emit_stats(fz *f, hid_t file, const plan *p) {
    stats_row rows[MAX_ROWS];
    memset(rows, 0, sizeof rows);
    fill_stats(p, rows);
    if (p->num_rows && fz_defect(f)) rows[fz_below(f, p->num_rows)].v[fz_below(f, 9)] = fz_value(f);
    hid_t mem = H5Tcreate(H5T_COMPOUND, sizeof(stats_row));
    hid_t disk = H5Tcreate(H5T_COMPOUND, 11 * 8);
    for (size_t i = 0; i < 11; i++) {
        int is_float = i >= 9;
        size_t offset = is_float ? (i == 9 ? offsetof(stats_row, mean) : offsetof(stats_row, m2))
                                 : offsetof(stats_row, v) + i * sizeof(int64_t);
        H5Tinsert(mem, stat_names[i], offset, is_float ? H5T_NATIVE_DOUBLE : H5T_NATIVE_INT64);
        if (fz_chance(f, 8)) continue; /* field left out */
        hid_t t = fz_chance(f, 2) ? H5T_C_S1 : pick_stat_type(f, is_float);
        H5Tinsert(disk, stat_names[i], (10 - i) * 8, t); /* reversed order on disk */
    }
    if (H5Tget_nmembers(disk) > 0) {
        H5Tpack(disk);
        create_1d(f, file, "/rank_region_index/summary_statistics", disk, p->num_rows, mem, rows);
    }
    H5Tclose(mem);
    H5Tclose(disk);
}

/* --- metadata: attributes of every kind -------------------------------------- */

static void attribute(hid_t loc, const char *name, hid_t type, hid_t space, hid_t mem,
                      const void *value) {
    hid_t a = H5Acreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    if (a < 0) return;
    if (value) H5Awrite(a, mem, value);
    H5Aclose(a);
}

static void scalar_attribute(hid_t loc, const char *name, hid_t type, hid_t mem,
                             const void *value) {
    hid_t space = H5Screate(H5S_SCALAR);
    attribute(loc, name, type, space, mem, value);
    H5Sclose(space);
}

static void array_attribute(hid_t loc, const char *name, hid_t type, int rank, hid_t mem,
                            const void *value) {
    hsize_t dims[2] = {2, 2};
    hid_t space = H5Screate_simple(rank, dims, NULL);
    attribute(loc, name, type, space, mem, value);
    H5Sclose(space);
}

static void one_attribute(fz *f, hid_t g, const char *name) {
    int64_t ints[4] = {fz_value(f), fz_value(f), 3, 4};
    double floats[4] = {(double)fz_value(f), 0.5, -1e300, 1e-300};
    const char *texts[4] = {strings[fz_below(f, NUM_STRINGS)],
                            region_names[fz_below(f, NUM_REGION_NAMES)], "", "x"};
    hid_t vstr = vlen_string_type(), fixed = H5Tcopy(H5T_C_S1),
          en = H5Tenum_create(H5T_NATIVE_INT8);
    H5Tset_size(fixed, 1 + fz_below(f, 8));
    int8_t no = 0, yes = 1, flag = (int8_t)fz_below(f, 3);
    H5Tenum_insert(en, "FALSE", &no);
    H5Tenum_insert(en, "TRUE", &yes);
    switch (fz_below(f, 11)) {
    case 0:
        scalar_attribute(g, name, pick_int_type(f), H5T_NATIVE_INT64, ints);
        break;
    case 1:
        scalar_attribute(g, name, pick_stat_type(f, 1), H5T_NATIVE_DOUBLE, floats);
        break;
    case 2:
        scalar_attribute(g, name, vstr, vstr, texts);
        break;
    case 3:
        scalar_attribute(g, name, fixed, fixed, "abcdefgh");
        break;
    case 4:
        array_attribute(g, name, vstr, 1, vstr, texts);
        break;
    case 5:
        array_attribute(g, name, pick_int_type(f), 1 + (int)fz_below(f, 2), H5T_NATIVE_INT64, ints);
        break;
    case 6:
        scalar_attribute(g, name, en, en, &flag);
        break;
    case 7:
        array_attribute(g, name, vstr, 2, vstr, texts);
        break;
    case 8:
        array_attribute(g, name, H5T_IEEE_F64LE, 1, H5T_NATIVE_DOUBLE, floats);
        break;
    case 9: {
        hid_t space = H5Screate(H5S_NULL);
        attribute(g, name, vstr, space, vstr, NULL);
        H5Sclose(space);
        break;
    }
    default: {
        hid_t pair = H5Tcreate(H5T_COMPOUND, 16);
        H5Tinsert(pair, "a", 0, H5T_NATIVE_INT64);
        H5Tinsert(pair, "b", 8, H5T_NATIVE_DOUBLE);
        scalar_attribute(g, name, pair, pair, ints);
        H5Tclose(pair);
    }
    }
    H5Tclose(en);
    H5Tclose(fixed);
    H5Tclose(vstr);
}

static void emit_metadata(fz *f, hid_t file) {
    static const char *const keys[] = {
        "label",   "mpi_size", "start_time_ns", "modules", "finalize_time_ns", "hostname",
        "naïve ∑", "x"};
    if (fz_chance(f, 24)) return;
    hid_t gcpl = H5Pcreate(H5P_GROUP_CREATE);
    if (fz_chance(f, 128))
        H5Pset_attr_creation_order(gcpl, H5P_CRT_ORDER_TRACKED |
                                             (fz_chance(f, 128) ? H5P_CRT_ORDER_INDEXED : 0));
    hid_t g = H5Gcreate2(file, "/metadata", H5P_DEFAULT, gcpl, H5P_DEFAULT);
    H5Pclose(gcpl);
    if (g < 0) return;
    size_t n = fz_below(f, 8);
    for (size_t i = 0; i < n; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s%s", keys[fz_below(f, 8)], fz_chance(f, 128) ? "" : "_2");
        one_attribute(f, g, name);
    }
    H5Gclose(g);
}

/* --- optional tables --------------------------------------------------------- */

static void emit_small_table(fz *f, hid_t file, const char *group, const char *const *columns,
                             size_t num_columns) {
    size_t n = fz_below(f, 4);
    int64_t v[4];
    const char *names[4] = {"MainThread", "", "worker ∑", NULL};
    for (size_t c = 0; c < num_columns; c++) {
        char path[96];
        snprintf(path, sizeof path, "%s/%s", group, columns[c]);
        if (strcmp(columns[c], "name") == 0) {
            fz_emit_strings(f, file, path, names, n);
            continue;
        }
        for (size_t i = 0; i < n; i++)
            v[i] = c == 0 ? (int64_t)i : fz_value(f);
        fz_emit_ints(f, file, path, H5T_STD_I64LE, v, n);
    }
}

static void emit_tables(fz *f, hid_t file) {
    static const char *const threads[] = {"ranks",    "index",  "ident",  "native_id", "daemon",
                                          "start_ns", "end_ns", "cpu_ns", "name"};
    static const char *const offsets[] = {"ranks", "offset_ns", "uncertainty_ns"};
    static const char *const forks[] = {"ranks", "threads", "since_ns", "parent_threads",
                                        "fork_ns"};
    if (fz_chance(f, 32)) emit_small_table(f, file, "/thread_table", threads, 9);
    if (fz_chance(f, 32)) emit_small_table(f, file, "/scope_profiler_c/clock_offsets", offsets, 3);
    if (fz_chance(f, 32)) emit_small_table(f, file, "/scope_profiler_c/thread_forks", forks, 5);
}

/* --- schema 1: rank<N>/regions/<name>/{start_times,end_times} ---------------- */

static void legacy_attributes(fz *f, hid_t file, const char *group) {
    hid_t g = H5Gopen2(file, group, H5P_DEFAULT);
    if (g < 0) return;
    hid_t vstr = vlen_string_type();
    const char *texts[2] = {strings[fz_below(f, NUM_STRINGS)], "b"};
    int64_t line = fz_value(f);
    if (fz_chance(f, 64)) scalar_attribute(g, "source_file", vstr, vstr, texts);
    if (fz_chance(f, 64)) {
        int as_text = fz_chance(f, 32); /* the wrong type: must read as unknown */
        scalar_attribute(g, "source_lineno", as_text ? vstr : pick_int_type(f),
                         as_text ? vstr : H5T_NATIVE_INT64, as_text ? (void *)texts : &line);
    }
    if (fz_chance(f, 32)) scalar_attribute(g, "source_text", vstr, vstr, texts);
    if (fz_chance(f, 64)) {
        if (fz_chance(f, 128))
            array_attribute(g, "tags", vstr, 1, vstr, texts);
        else
            scalar_attribute(g, "tags", vstr, vstr, texts);
    }
    H5Tclose(vstr);
    H5Gclose(g);
}

static void legacy_region(fz *f, hid_t file, const char *rank_group, const char *name) {
    char group[256], path[300];
    snprintf(group, sizeof group, "/%s/regions/%s", rank_group, name);
    size_t n = fz_chance(f, 2) ? BIG_COUNT : fz_below(f, 6);
    int64_t *starts = malloc((n ? n : 1) * sizeof *starts),
            *ends = malloc((n ? n : 1) * sizeof *ends);
    int64_t t = fz_chance(f, 16) ? fz_value(f) : 5000 + (int64_t)fz_below(f, 100000);
    for (size_t i = 0; i < n; i++) {
        starts[i] = wrap_add(t, 100 * (int64_t)i);
        ends[i] = wrap_add(starts[i], (int64_t)(i % 50));
    }
    snprintf(path, sizeof path, "%s/start_times", group);
    fz_emit_ints(f, file, path, pick_int_type(f), starts, n);
    snprintf(path, sizeof path, "%s/end_times", group);
    fz_emit_ints(f, file, path, H5T_STD_I64LE, ends, n);
    for (size_t c = 0; c < 2; c++) {
        if (!fz_chance(f, 96)) continue;
        for (size_t i = 0; i < n; i++)
            starts[i] = (int64_t)i - (int64_t)c;
        snprintf(path, sizeof path, "%s/%s", group, c ? "parent_ids" : "call_ids");
        fz_emit_ints(f, file, path, H5T_STD_I64LE, starts, n);
    }
    legacy_attributes(f, file, group);
    free(starts);
    free(ends);
}

static void rank_group_name(fz *f, char *buf, size_t size) {
    switch (fz_chance(f, 32) ? fz_below(f, 4) : 4) {
    case 0:
        snprintf(buf, size, "rank0%u", (unsigned)fz_below(f, 10));
        break;
    case 1:
        snprintf(buf, size, "rankx");
        break;
    case 2:
        snprintf(buf, size, "rank%llu", (unsigned long long)fz_u64(f));
        break;
    case 3:
        snprintf(buf, size, "rank-1");
        break;
    default:
        snprintf(buf, size, "rank%u", (unsigned)fz_below(f, 12));
        break;
    }
}

static void emit_legacy(fz *f, hid_t file) {
    size_t ranks = fz_chance(f, 16) ? 0 : 1 + fz_below(f, 3);
    for (size_t r = 0; r < ranks; r++) {
        char rank[40];
        rank_group_name(f, rank, sizeof rank);
        if (fz_chance(f, 16)) {
            char path[64];
            snprintf(path, sizeof path, "/%s", rank);
            create_group(file, path); /* a rank that recorded nothing */
            continue;
        }
        char group[64];
        snprintf(group, sizeof group, "/%s/regions", rank);
        create_group(file, group);
        size_t regions = fz_below(f, 4);
        for (size_t i = 0; i < regions; i++) {
            const char *name = region_names[fz_below(f, NUM_REGION_NAMES)];
            if (!*name || strchr(name, '/')) name = "plain";
            if (fz_defect(f) && fz_chance(f, 64)) {
                char path[256];
                int64_t one = 1;
                snprintf(path, sizeof path, "/%s/regions/%s", rank, name);
                create_1d(f, file, path, H5T_STD_I64LE, 1, H5T_NATIVE_INT64, &one);
                continue;
            }
            legacy_region(f, file, rank, name);
        }
    }
}

/* --- the whole file ---------------------------------------------------------- */

static void root_attributes(fz *f, hid_t file, int64_t schema, const char *layout) {
    hid_t vstr = vlen_string_type();
    if (fz_defect(f)) {
        switch (fz_below(f, 4)) {
        case 0:
            schema = fz_value(f);
            break;
        case 1:
            layout = strings[fz_below(f, NUM_STRINGS)];
            break;
        case 2:
            scalar_attribute(file, "scope_profiler_schema", vstr, vstr, &layout);
            break;
        default:
            scalar_attribute(file, "storage_layout", H5T_STD_I8LE, H5T_NATIVE_INT64, &schema);
            break;
        }
    }
    if (schema)
        scalar_attribute(file, "scope_profiler_schema", pick_int_type(f), H5T_NATIVE_INT64,
                         &schema);
    if (layout) scalar_attribute(file, "storage_layout", vstr, vstr, &layout);
    H5Tclose(vstr);
}

static void emit_indexed(fz *f, hid_t file, int schema, int aggregate) {
    plan p;
    memset(&p, 0, sizeof p);
    plan_rows(f, &p);
    plan_events(f, &p);
    root_attributes(f, file, schema,
                    aggregate           ? "aggregate"
                    : fz_chance(f, 200) ? "columnar"
                                        : NULL);
    emit_index(f, file, &p, aggregate);
    if (!aggregate || fz_chance(f, 32)) emit_events(f, file, &p, schema);
    if (fz_chance(f, 192)) emit_stats(f, file, &p);
    emit_tables(f, file);
    free(p.starts);
    free(p.durations);
}

void fz_build_file(fz *f, const char *path) {
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    FZ_CHECK(file >= 0);
    switch (fz_below(f, 10)) {
    case 0:
    case 1:
    case 2:
    case 3:
        emit_indexed(f, file, 3, 0);
        break;
    case 4:
        emit_indexed(f, file, 3, 1);
        break;
    case 5:
        emit_indexed(f, file, 2, fz_chance(f, 32));
        break;
    case 6:
    case 7:
    case 8:
        if (fz_chance(f, 32)) root_attributes(f, file, 1, NULL);
        emit_legacy(f, file);
        break;
    default: /* a mixture of layouts, or nothing of either */
        if (fz_chance(f, 128)) emit_indexed(f, file, (int)fz_below(f, 5), fz_chance(f, 64));
        if (fz_chance(f, 128)) emit_legacy(f, file);
        break;
    }
    emit_metadata(f, file);
    FZ_CHECK(H5Fclose(file) >= 0);
}
