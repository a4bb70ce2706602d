/*
 * What the reader accepts beyond what our writer produces: the aggregate
 * layout, any integer width and byte order, fixed-length strings, a
 * summary_statistics compound in another order or width, absent optional
 * columns, metadata of any HDF5 type, the legacy schema-1 layout, and files
 * without the schema attribute.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "format/reader.h"
#include "format_support.h"

#define INDEX "/rank_region_index/"

static const char *basic(const char *name) {
    const char *path = fs_path(name);
    fs_write_basic(path);
    return path;
}

/* Rows, events and regions equal those of fs_basic_model(). */
static void assert_basic_content(const sp_model *m) {
    sp_model want;
    fs_basic_model(&want);
    assert_int_equal(m->num_regions, want.num_regions);
    for (size_t i = 0; i < want.num_regions; i++)
        assert_string_equal(m->region_names[i], want.region_names[i]);
    assert_int_equal(m->num_rows, want.num_rows);
    for (size_t i = 0; i < want.num_rows; i++) {
        assert_int_equal(m->rows[i].rank, want.rows[i].rank);
        assert_int_equal(m->rows[i].region, want.rows[i].region);
        assert_int_equal(m->rows[i].count, want.rows[i].count);
        assert_int_equal(m->rows[i].stats.total, want.rows[i].stats.total);
    }
    assert_int_equal(m->num_events, want.num_events);
    for (size_t i = 0; i < want.num_events; i++) {
        assert_int_equal(m->starts[i], want.starts[i]);
        assert_int_equal(m->durations[i], want.durations[i]);
    }
    sp_model_clear(&want);
}

/* --- aggregate layout ------------------------------------------------------- */

static const char *aggregate_file(const char *name, int keep_stats) {
    const char *path = basic(name);
    int64_t counts[] = {3, 2, 3, 1}, totals[] = {600, 110, 900, 10};
    int64_t minimums[] = {100, 50, 0, 10}, maximums[] = {300, 60, 500, 10};
    int64_t exclusives[] = {500, 110, -1, 10}, zeros[] = {0, 0, 0, 0};
    fs_replace_ints(path, INDEX "aggregate_counts", H5T_STD_U64LE, counts, 4);
    fs_replace_ints(path, INDEX "aggregate_totals", H5T_STD_I64LE, totals, 4);
    fs_replace_ints(path, INDEX "aggregate_minimums", H5T_STD_I64LE, minimums, 4);
    fs_replace_ints(path, INDEX "aggregate_maximums", H5T_STD_I64LE, maximums, 4);
    fs_replace_ints(path, INDEX "aggregate_exclusives", H5T_STD_I64LE, exclusives, 4);
    fs_replace_ints(path, INDEX "event_counts", H5T_STD_U64LE, zeros, 4);
    fs_replace_ints(path, INDEX "event_offsets", H5T_STD_U64LE, zeros, 4);
    fs_delete(path, "/events");
    if (!keep_stats) fs_delete(path, INDEX "summary_statistics");
    fs_set_attr_string(path, "/", "storage_layout", "aggregate");
    return path;
}

static void test_aggregate(void **state) {
    (void)state;
    sp_model m;
    fs_read_ok(aggregate_file("aggregate.h5", 0), &m);
    assert_int_equal(m.layout, SP_LAYOUT_AGGREGATE);
    assert_int_equal(m.num_events, 0);
    assert_int_equal(m.num_rows, 4);
    assert_int_equal(m.rows[2].count, 3);
    assert_int_equal(m.rows[2].stats.total, 900);
    assert_int_equal(m.rows[2].stats.minimum, 0);
    assert_int_equal(m.rows[2].stats.maximum, 500);
    assert_int_equal(m.rows[2].exclusive_total, -1);
    assert_int_equal(m.rows[0].exclusive_total, 500);
    assert_true(m.rows[2].has_stats);
    assert_true(m.rows[2].stats.mean == 300.0);
    assert_true(isnan(m.rows[2].stats.m2)); /* the spread of single calls is unknown */
    sp_model_clear(&m);
}

static void test_aggregate_with_statistics(void **state) {
    (void)state;
    sp_model m, basic_model;
    fs_read_ok(aggregate_file("aggregate_stats.h5", 1), &m);
    fs_basic_model(&basic_model);
    assert_int_equal(m.layout, SP_LAYOUT_AGGREGATE);
    assert_true(m.rows[2].stats.m2 == basic_model.rows[2].stats.m2);
    assert_int_equal(m.rows[2].stats.first, 400);
    assert_int_equal(m.rows[2].stats.maximum, 500);
    sp_model_clear(&basic_model);
    sp_model_clear(&m);
}

/* --- storage variants --------------------------------------------------------- */

static void test_any_integer_width_and_order(void **state) {
    (void)state;
    const char *path = basic("widths.h5");
    const struct { /* not static: HDF5 type ids are run-time values */
        const char *dataset;
        hid_t type;
    } columns[] = {
        {INDEX "ranks", H5T_STD_U8LE},         {INDEX "region_ids", H5T_STD_I16BE},
        {INDEX "event_counts", H5T_STD_I32BE}, {INDEX "event_offsets", H5T_STD_U16BE},
        {"/events/durations", H5T_STD_I32BE},  {"/events/start_deltas", H5T_STD_U64BE},
        {INDEX "source_lines", H5T_STD_I8LE},
    };
    for (size_t i = 0; i < sizeof columns / sizeof *columns; i++) {
        size_t n = 0;
        int64_t *values = fs_read_ints(path, columns[i].dataset, &n);
        fs_replace_ints(path, columns[i].dataset, columns[i].type, values, n);
        free(values);
    }
    sp_model m;
    fs_read_ok(path, &m);
    assert_basic_content(&m);
    sp_model_clear(&m);
}

static void write_fixed_names(const char *path, H5T_str_t pad, H5T_cset_t cset) {
    static const char data[] = "setup   solve   io      ";
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    H5Ldelete(f, "/region_table/names", H5P_DEFAULT);
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, 8);
    H5Tset_strpad(t, pad);
    H5Tset_cset(t, cset);
    hsize_t dims = 3;
    hid_t space = H5Screate_simple(1, &dims, NULL);
    hid_t ds =
        H5Dcreate2(f, "/region_table/names", t, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    char buf[24];
    memcpy(buf, data, sizeof buf);
    if (pad != H5T_STR_SPACEPAD)
        for (size_t i = 0; i < sizeof buf; i++)
            if (buf[i] == ' ') buf[i] = '\0';
    assert_true(H5Dwrite(ds, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0);
    H5Dclose(ds);
    H5Sclose(space);
    H5Tclose(t);
    H5Fclose(f);
}

static void test_fixed_length_strings(void **state) {
    (void)state;
    const H5T_str_t pads[] = {H5T_STR_NULLPAD, H5T_STR_NULLTERM, H5T_STR_SPACEPAD};
    for (size_t i = 0; i < 3; i++) {
        const char *path = basic("fixed.h5");
        write_fixed_names(path, pads[i], i == 1 ? H5T_CSET_UTF8 : H5T_CSET_ASCII);
        sp_model m;
        fs_read_ok(path, &m);
        assert_basic_content(&m);
        sp_model_clear(&m);
    }
}

/* An index string column stored fixed-length by another writer: each pad
 * kind, a value filling its slot, repeats (read once, shared) and "". */
static void write_fixed_source_files(const char *path, H5T_str_t pad) {
    char buf[24];
    memcpy(buf, "a.c   bb.cppa.c         ", sizeof buf);
    if (pad != H5T_STR_SPACEPAD)
        for (size_t i = 0; i < sizeof buf; i++)
            if (buf[i] == ' ') buf[i] = '\0';
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    H5Ldelete(f, "/rank_region_index/source_files", H5P_DEFAULT);
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, 6);
    H5Tset_strpad(t, pad);
    hsize_t dims = 4;
    hid_t space = H5Screate_simple(1, &dims, NULL);
    hid_t ds = H5Dcreate2(f, "/rank_region_index/source_files", t, space, H5P_DEFAULT, H5P_DEFAULT,
                          H5P_DEFAULT);
    assert_true(H5Dwrite(ds, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0);
    H5Dclose(ds);
    H5Sclose(space);
    H5Tclose(t);
    H5Fclose(f);
}

static void test_fixed_length_index_strings(void **state) {
    (void)state;
    const H5T_str_t pads[] = {H5T_STR_NULLPAD, H5T_STR_NULLTERM, H5T_STR_SPACEPAD};
    for (size_t i = 0; i < 3; i++) {
        const char *path = basic("fixed_index.h5");
        write_fixed_source_files(path, pads[i]);
        sp_model m;
        fs_read_ok(path, &m);
        assert_int_equal(m.num_rows, 4);
        assert_string_equal(m.rows[0].source_file, "a.c");
        assert_string_equal(m.rows[1].source_file, "bb.cpp");
        assert_string_equal(m.rows[2].source_file, "a.c");
        assert_string_equal(m.rows[3].source_file, "");
        assert_ptr_equal(m.rows[0].source_file, m.rows[2].source_file);
        sp_model_clear(&m);
    }
}

/* summary_statistics written by someone else: other order, other widths. */
static void write_foreign_stats(const char *path, int with_m2) {
    typedef struct {
        float m2;
        int32_t total, first, last, minimum, maximum;
        double mean;
        int64_t end_maximum, start_minimum;
    } foreign;
    sp_model m;
    fs_basic_model(&m);
    foreign rows[4];
    for (size_t i = 0; i < 4; i++) {
        const sp_row_stats *s = &m.rows[i].stats;
        rows[i] = (foreign){(float)s->m2,     (int32_t)s->total,   (int32_t)s->first,
                            (int32_t)s->last, (int32_t)s->minimum, (int32_t)s->maximum,
                            s->mean,          s->end_maximum,      s->start_minimum};
    }
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(foreign));
    if (with_m2) H5Tinsert(t, "m2", HOFFSET(foreign, m2), H5T_NATIVE_FLOAT);
    H5Tinsert(t, "total", HOFFSET(foreign, total), H5T_NATIVE_INT32);
    H5Tinsert(t, "first", HOFFSET(foreign, first), H5T_NATIVE_INT32);
    H5Tinsert(t, "last", HOFFSET(foreign, last), H5T_NATIVE_INT32);
    H5Tinsert(t, "minimum", HOFFSET(foreign, minimum), H5T_NATIVE_INT32);
    H5Tinsert(t, "maximum", HOFFSET(foreign, maximum), H5T_NATIVE_INT32);
    H5Tinsert(t, "mean", HOFFSET(foreign, mean), H5T_NATIVE_DOUBLE);
    H5Tinsert(t, "end_maximum", HOFFSET(foreign, end_maximum), H5T_NATIVE_INT64);
    H5Tinsert(t, "start_minimum", HOFFSET(foreign, start_minimum), H5T_NATIVE_INT64);
    /* On disk: the same members, one of them big-endian. */
    hid_t file_type = H5Tcreate(H5T_COMPOUND, sizeof(foreign));
    for (int i = 0; i < H5Tget_nmembers(t); i++) {
        char *member = H5Tget_member_name(t, (unsigned)i);
        hid_t mt = H5Tget_member_type(t, (unsigned)i);
        int big = strcmp(member, "end_maximum") == 0;
        H5Tinsert(file_type, member, H5Tget_member_offset(t, (unsigned)i),
                  big ? H5T_STD_I64BE : mt);
        H5Tclose(mt);
        H5free_memory(member);
    }
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    H5Ldelete(f, INDEX "summary_statistics", H5P_DEFAULT);
    hsize_t dims = 4;
    hid_t space = H5Screate_simple(1, &dims, NULL);
    hid_t ds = H5Dcreate2(f, INDEX "summary_statistics", file_type, space, H5P_DEFAULT, H5P_DEFAULT,
                          H5P_DEFAULT);
    assert_true(H5Dwrite(ds, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows) >= 0);
    H5Dclose(ds);
    H5Tclose(file_type);
    H5Sclose(space);
    H5Tclose(t);
    H5Fclose(f);
    sp_model_clear(&m);
}

static void test_statistics_by_field_name(void **state) {
    (void)state;
    const char *path = basic("foreign_stats.h5");
    write_foreign_stats(path, 1);
    sp_model m, want;
    fs_read_ok(path, &m);
    fs_basic_model(&want);
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(m.rows[i].stats.total, want.rows[i].stats.total);
        assert_int_equal(m.rows[i].stats.end_maximum, want.rows[i].stats.end_maximum);
        assert_int_equal(m.rows[i].stats.gpu_count, 0);
        assert_true(m.rows[i].stats.m2 == (double)(float)want.rows[i].stats.m2);
    }
    sp_model_clear(&m);
    /* Without m2 the file's statistics are incomplete: computed from the events. */
    write_foreign_stats(path, 0);
    fs_read_ok(path, &m);
    for (size_t i = 0; i < 4; i++)
        assert_true(m.rows[i].stats.m2 == want.rows[i].stats.m2);
    sp_model_clear(&m);
    fs_delete(path, INDEX "summary_statistics");
    fs_read_ok(path, &m);
    for (size_t i = 0; i < 4; i++)
        assert_true(m.rows[i].stats.m2 == want.rows[i].stats.m2);
    sp_model_clear(&m);
    sp_model_clear(&want);
}

static void test_optional_index_columns_absent(void **state) {
    (void)state;
    const char *path = basic("minimal.h5");
    static const char *const optional[] = {
        INDEX "source_lines", INDEX "exclusive_totals", INDEX "source_files", INDEX "source_texts",
        INDEX "tags",         INDEX "event_metadata",   "/metadata"};
    for (size_t i = 0; i < sizeof optional / sizeof *optional; i++)
        fs_delete(path, optional[i]);
    sp_model m;
    fs_read_ok(path, &m);
    assert_basic_content(&m);
    for (size_t i = 0; i < m.num_rows; i++) {
        assert_int_equal(m.rows[i].source_line, -1);
        assert_int_equal(m.rows[i].exclusive_total, -1);
        assert_string_equal(m.rows[i].source_file, "");
        assert_string_equal(m.rows[i].source_text, "");
        assert_string_equal(m.rows[i].tags, "[]");
        assert_string_equal(m.rows[i].event_metadata, "[]");
    }
    assert_int_equal(m.num_meta, 0);
    sp_model_clear(&m);
}

static void test_without_schema_attribute(void **state) {
    (void)state;
    const char *path = basic("no_schema.h5");
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    H5Adelete(f, "scope_profiler_schema");
    H5Adelete(f, "storage_layout");
    H5Fclose(f);
    sp_model m;
    fs_read_ok(path, &m);
    assert_int_equal(m.schema, 3);
    assert_basic_content(&m);
    sp_model_clear(&m);
}

/* Soft links inside the file are followed; external links never are. */
static void test_links(void **state) {
    (void)state;
    const char *path = basic("links.h5");
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    H5Lmove(f, "/events/durations", f, "/moved_durations", H5P_DEFAULT, H5P_DEFAULT);
    H5Lcreate_soft("/moved_durations", f, "/events/durations", H5P_DEFAULT, H5P_DEFAULT);
    H5Fclose(f);
    sp_model m;
    fs_read_ok(path, &m);
    assert_basic_content(&m);
    sp_model_clear(&m);
    const char *other = basic("other.h5");
    f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    H5Ldelete(f, "/events/durations", H5P_DEFAULT);
    H5Lcreate_external(other, "/events/durations", f, "/events/durations", H5P_DEFAULT,
                       H5P_DEFAULT);
    H5Fclose(f);
    fs_expect_error(path, SP_ERR_DAMAGED, "/events/durations is missing");
}

static void test_thread_table_defaults(void **state) {
    (void)state;
    const char *path = basic("threads.h5");
    int64_t ranks[] = {0, 1};
    const char *names[] = {"main", "worker"};
    fs_replace_ints(path, "/thread_table/ranks", H5T_STD_U32LE, ranks, 2);
    fs_replace_strings(path, "/thread_table/name", names, 2);
    sp_model m;
    fs_read_ok(path, &m);
    assert_int_equal(m.num_threads, 2);
    assert_int_equal(m.threads[1].rank, 1);
    assert_string_equal(m.threads[1].name, "worker");
    assert_int_equal(m.threads[1].index, -1);
    assert_int_equal(m.threads[1].daemon, 0);
    sp_model_clear(&m);
}

/* --- metadata of any type --------------------------------------------------- */

static void attr(hid_t group, const char *name, hid_t type, int rank, const hsize_t *dims,
                 const void *value) {
    hid_t space = rank < 0    ? H5Screate(H5S_NULL)
                  : rank == 0 ? H5Screate(H5S_SCALAR)
                              : H5Screate_simple(rank, dims, NULL);
    hid_t a = H5Acreate2(group, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(a >= 0);
    H5T_class_t cls = H5Tget_class(type);
    hid_t mem = cls == H5T_INTEGER || cls == H5T_FLOAT ? H5Tget_native_type(type, H5T_DIR_ASCEND)
                                                       : H5Tcopy(type);
    if (value) assert_true(H5Awrite(a, mem, value) >= 0);
    H5Tclose(mem);
    H5Aclose(a);
    H5Sclose(space);
}

/* A /metadata group the way h5py writes it by default: no creation order. */
static void write_odd_metadata(const char *path) {
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    H5Ldelete(f, "/metadata", H5P_DEFAULT);
    hid_t g = H5Gcreate2(f, "/metadata", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    hid_t bool_type = H5Tenum_create(H5T_NATIVE_INT8);
    int8_t no = 0, yes = 1;
    H5Tenum_insert(bool_type, "FALSE", &no);
    H5Tenum_insert(bool_type, "TRUE", &yes);
    attr(g, "z_flag", bool_type, 0, NULL, &yes);
    hsize_t three = 3, two_by_two[2] = {2, 2};
    int32_t numbers[] = {1, -2, 3};
    attr(g, "y_numbers", H5T_NATIVE_INT32, 1, &three, numbers);
    double floats[] = {0.5, 1e300, -2};
    attr(g, "x_floats", H5T_NATIVE_DOUBLE, 1, &three, floats);
    hid_t vstr = H5Tcopy(H5T_C_S1);
    H5Tset_size(vstr, H5T_VARIABLE);
    const char *grid[] = {"a", "b", "c \"d\"", "e"};
    attr(g, "w_grid", vstr, 2, two_by_two, grid);
    hid_t pair = H5Tcreate(H5T_COMPOUND, 16);
    H5Tinsert(pair, "a", 0, H5T_NATIVE_INT64);
    H5Tinsert(pair, "b", 8, H5T_NATIVE_DOUBLE);
    char raw[16] = {0};
    attr(g, "v_compound", pair, 0, NULL, raw);
    attr(g, "u_empty", H5T_NATIVE_INT64, -1, NULL, NULL);
    hid_t fixed = H5Tcopy(H5T_C_S1);
    H5Tset_size(fixed, 6);
    attr(g, "t_fixed", fixed, 0, NULL, "abc\0\0\0");
    const char fixed_list[] = "gcc\0\0\0\0openmpi";
    hsize_t two = 2;
    H5Tset_size(fixed, 7);
    attr(g, "s_fixed_list", fixed, 1, &two, fixed_list);
    uint64_t big = UINT64_MAX;
    attr(g, "r_big", H5T_NATIVE_UINT64, 0, NULL, &big);
    int8_t small = -7;
    attr(g, "q_small", H5T_STD_I8BE, 0, NULL, &small);
    float f32 = 0.25f;
    attr(g, "p_float32", H5T_IEEE_F32BE, 0, NULL, &f32);
    int64_t one = 42;
    hsize_t single = 1;
    attr(g, "o_one_element", H5T_NATIVE_INT64, 1, &single, &one);
    H5Tclose(fixed);
    H5Tclose(pair);
    H5Tclose(vstr);
    H5Tclose(bool_type);
    H5Gclose(g);
    H5Fclose(f);
}

static const sp_meta_entry *meta(const sp_model *m, const char *key) {
    const sp_meta_entry *e = sp_model_meta_find(m, key);
    if (!e) fail_msg("metadata \"%s\" missing", key);
    return e;
}

static void assert_meta_string(const sp_model *m, const char *key, const char *value) {
    const sp_meta_entry *e = meta(m, key);
    assert_int_equal(e->type, SP_META_STRING);
    assert_string_equal(e->s, value);
}

static void test_metadata_any_type(void **state) {
    (void)state;
    const char *path = basic("odd_metadata.h5");
    write_odd_metadata(path);
    sp_model m;
    fs_read_ok(path, &m);
    assert_int_equal(m.num_meta, 12);
    assert_string_equal(m.meta[0].key, "o_one_element"); /* name order when untracked */
    assert_string_equal(m.meta[11].key, "z_flag");
    assert_meta_string(&m, "z_flag", "true");
    assert_meta_string(&m, "y_numbers", "[1, -2, 3]");
    assert_meta_string(&m, "x_floats", "[0.5, 1.0000000000000001e+300, -2]");
    assert_meta_string(&m, "w_grid", "[\"a\", \"b\", \"c \\\"d\\\"\", \"e\"]");
    assert_meta_string(&m, "v_compound", "(an HDF5 compound value)");
    assert_meta_string(&m, "u_empty", "");
    assert_meta_string(&m, "t_fixed", "abc");
    assert_meta_string(&m, "r_big", "18446744073709551615");
    assert_meta_string(&m, "o_one_element", "[42]");
    const sp_meta_entry *list = meta(&m, "s_fixed_list");
    assert_int_equal(list->type, SP_META_STRING_LIST);
    assert_int_equal(list->list_len, 2);
    assert_string_equal(list->list[0], "gcc");
    assert_string_equal(list->list[1], "openmpi");
    assert_int_equal(meta(&m, "q_small")->type, SP_META_INT);
    assert_int_equal(meta(&m, "q_small")->i, -7);
    assert_int_equal(meta(&m, "p_float32")->type, SP_META_FLOAT);
    assert_true(meta(&m, "p_float32")->f == 0.25);
    sp_model_clear(&m);
}

/* --- schema 1 ---------------------------------------------------------------- */

static hid_t legacy_group(hid_t f, const char *path) {
    hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
    H5Pset_create_intermediate_group(lcpl, 1);
    hid_t g = H5Gcreate2(f, path, lcpl, H5P_DEFAULT, H5P_DEFAULT);
    H5Pclose(lcpl);
    assert_true(g >= 0);
    return g;
}

static void legacy_column(hid_t g, const char *name, const int64_t *v, size_t n) {
    hsize_t dims = n;
    hid_t space = H5Screate_simple(1, &dims, NULL);
    hid_t ds = H5Dcreate2(g, name, H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (n) assert_true(H5Dwrite(ds, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0);
    H5Dclose(ds);
    H5Sclose(space);
}

/* One region group; ids adds call_ids and parent_ids. */
static hid_t legacy_region(hid_t f, const char *rank, const char *name, int64_t start, size_t n,
                           int ids) {
    char path[256];
    snprintf(path, sizeof path, "/%s/regions/%s", rank, name);
    hid_t g = legacy_group(f, path);
    int64_t starts[8], ends[8], calls[8], parents[8];
    for (size_t i = 0; i < n; i++) {
        starts[i] = start + 100 * (int64_t)i;
        ends[i] = starts[i] + 10 + (int64_t)i;
        calls[i] = (int64_t)i;
        parents[i] = (int64_t)i - 1;
    }
    legacy_column(g, "start_times", starts, n);
    legacy_column(g, "end_times", ends, n);
    if (ids) {
        legacy_column(g, "call_ids", calls, n);
        legacy_column(g, "parent_ids", parents, n);
    }
    return g;
}

static const char *legacy_file(const char *name, int all_ids) {
    const char *path = fs_path(name);
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    H5Gclose(legacy_group(f, "/metadata"));
    hid_t g = legacy_region(f, "rank10", "a", 5000, 1, 1);
    H5Gclose(g);
    g = legacy_region(f, "rank2", "c", 3000, 2, 1);
    hid_t vstr = H5Tcopy(H5T_C_S1);
    H5Tset_size(vstr, H5T_VARIABLE);
    const char *tags[] = {"solver", "io \"x\""};
    hsize_t two = 2;
    attr(g, "tags", vstr, 1, &two, tags);
    const char *file = "solver.py";
    attr(g, "source_file", vstr, 0, NULL, &file);
    int32_t line = 17;
    attr(g, "source_lineno", H5T_NATIVE_INT32, 0, NULL, &line);
    H5Gclose(g);
    g = legacy_region(f, "rank0", "b", 1000, 3, all_ids);
    const char *json_tags = "[\"x\"]";
    attr(g, "tags", vstr, 0, NULL, &json_tags);
    H5Gclose(g);
    g = legacy_region(f, "rank0", "a", 2000, 2, 1);
    const char *plain_tag = "plain";
    attr(g, "tags", vstr, 0, NULL, &plain_tag);
    H5Gclose(g);
    H5Gclose(legacy_region(f, "rank0", "never", 0, 0, 1));
    H5Gclose(legacy_group(f, "/rank3"));
    H5Tclose(vstr);
    H5Fclose(f);
    return path;
}

static void test_schema1_order_and_attributes(void **state) {
    (void)state;
    sp_model m;
    fs_read_ok(legacy_file("legacy.h5", 1), &m);
    assert_int_equal(m.schema, 1);
    /* Ranks numerically (0, 2, 10), regions by link name within a rank. */
    assert_int_equal(m.num_regions, 4);
    assert_string_equal(m.region_names[0], "a");
    assert_string_equal(m.region_names[1], "b");
    assert_string_equal(m.region_names[2], "never");
    assert_string_equal(m.region_names[3], "c");
    assert_int_equal(m.num_rows, 4);
    const uint32_t ranks[] = {0, 0, 2, 10}, regions[] = {0, 1, 3, 0}, counts[] = {2, 3, 2, 1};
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(m.rows[i].rank, ranks[i]);
        assert_int_equal(m.rows[i].region, regions[i]);
        assert_int_equal(m.rows[i].count, counts[i]);
        assert_true(m.rows[i].has_stats);
    }
    assert_int_equal(m.starts[0], 2000);
    assert_int_equal(m.durations[1], 11);
    assert_string_equal(m.rows[0].tags, "[\"plain\"]");
    assert_string_equal(m.rows[1].tags, "[\"x\"]");
    assert_string_equal(m.rows[2].tags, "[\"solver\", \"io \\\"x\\\"\"]");
    assert_string_equal(m.rows[2].source_file, "solver.py");
    assert_int_equal(m.rows[2].source_line, 17);
    assert_int_equal(m.rows[0].source_line, -1);
    assert_non_null(m.call_ids);
    assert_int_equal(m.parent_ids[1], 0);
    sp_model_clear(&m);
    /* One region without ids: the columns are dropped, never half filled. */
    fs_read_ok(legacy_file("legacy_partial_ids.h5", 0), &m);
    assert_null(m.call_ids);
    assert_null(m.parent_ids);
    sp_model_clear(&m);
}

static void test_schema1_empty_run(void **state) {
    (void)state;
    const char *path = fs_path("legacy_empty.h5");
    fs_write_empty_hdf5(path);
    fs_make_group(path, "/metadata");
    fs_set_attr_int(path, "/", "scope_profiler_schema", 1);
    sp_model m;
    fs_read_ok(path, &m);
    assert_int_equal(m.schema, 1);
    assert_int_equal(m.num_rows, 0);
    sp_model_clear(&m);
}

static void test_schema1_errors(void **state) {
    (void)state;
    const char *path = legacy_file("legacy_no_end.h5", 1);
    fs_delete(path, "/rank0/regions/b/end_times");
    fs_expect_error(path, SP_ERR_DAMAGED, "/rank0/regions/b/end_times is missing");
    path = legacy_file("legacy_float.h5", 1);
    double starts[] = {1, 2, 3};
    fs_replace_doubles(path, "/rank0/regions/b/start_times", starts, 3);
    fs_expect_error(path, SP_ERR_BAD_DATASET,
                    "/rank0/regions/b/start_times has type float64, expected an integer");
    path = legacy_file("legacy_dataset.h5", 1);
    int64_t v[] = {1};
    fs_replace_ints(path, "/rank2/regions/z", H5T_STD_I64LE, v, 1);
    fs_expect_error(path, SP_ERR_BAD_DATASET, "/rank2/regions/z is not a group");
    path = legacy_file("legacy_backwards.h5", 1);
    int64_t ends[] = {1000, 1100, 1150};
    fs_replace_ints(path, "/rank0/regions/b/end_times", H5T_STD_I64LE, ends, 3);
    fs_expect_error(path, SP_ERR_DAMAGED, "call 2 of region \"b\" on rank 0 ends before it starts");
    path = legacy_file("legacy_short_ids.h5", 1);
    fs_replace_ints(path, "/rank0/regions/b/call_ids", H5T_STD_I64LE, v, 1);
    fs_expect_error(path, SP_ERR_DAMAGED, "/rank0/regions/b/call_ids has 1 rows");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_aggregate),
        cmocka_unit_test(test_aggregate_with_statistics),
        cmocka_unit_test(test_any_integer_width_and_order),
        cmocka_unit_test(test_fixed_length_strings),
        cmocka_unit_test(test_fixed_length_index_strings),
        cmocka_unit_test(test_statistics_by_field_name),
        cmocka_unit_test(test_optional_index_columns_absent),
        cmocka_unit_test(test_without_schema_attribute),
        cmocka_unit_test(test_links),
        cmocka_unit_test(test_thread_table_defaults),
        cmocka_unit_test(test_metadata_any_type),
        cmocka_unit_test(test_schema1_order_and_attributes),
        cmocka_unit_test(test_schema1_empty_run),
        cmocka_unit_test(test_schema1_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
