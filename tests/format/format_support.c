#include "format_support.h"

#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "model/results_model.h"
#include "format/reader.h"
#include "format/writer.h"

static char temp_dir[256];

static void remove_temp_dir(void) {
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", temp_dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", temp_dir);
}

const char *fs_source(const char *relative) {
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s", SP_TEST_SOURCE_DIR, relative);
    return path;
}

const char *fs_path(const char *name) {
    static char paths[8][512];
    static unsigned next;
    if (!temp_dir[0]) {
        const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
        snprintf(temp_dir, sizeof temp_dir, "%s/sp_format_XXXXXX", base);
        assert_non_null(mkdtemp(temp_dir));
        atexit(remove_temp_dir);
    }
    char *p = paths[next++ % 8];
    snprintf(p, sizeof paths[0], "%s/%s", temp_dir, name);
    unlink(p);
    return p;
}

void fs_model_init(sp_model *m, const char *const *names, size_t num_names) {
    memset(m, 0, sizeof *m);
    m->schema = 3;
    m->region_names = calloc(num_names ? num_names : 1, sizeof *m->region_names);
    assert_non_null(m->region_names);
    for (size_t i = 0; i < num_names; i++)
        m->region_names[i] = sp_strdup(names[i]);
    m->num_regions = num_names;
}

/* The room an array of `count` elements was given: the next power of two,
 * so that models of 100,000s of rows are built in O(n) copies (one
 * reallocation per row was quadratic, and minutes under ASan). */
static size_t room_for(size_t count) {
    size_t room = 1;
    while (room < count)
        room *= 2;
    return room;
}

static void grow_events(sp_model *m, size_t n) {
    size_t total = m->num_events + n;
    if (m->starts && room_for(total) == room_for(m->num_events)) return;
    m->starts = realloc(m->starts, room_for(total) * sizeof *m->starts);
    m->durations = realloc(m->durations, room_for(total) * sizeof *m->durations);
    assert_non_null(m->starts);
    assert_non_null(m->durations);
}

void fs_model_add_row(sp_model *m, uint32_t rank, uint32_t region, const int64_t *starts,
                      const int64_t *durations, size_t n) {
    grow_events(m, n);
    memcpy(m->starts + m->num_events, starts, n * sizeof *starts);
    memcpy(m->durations + m->num_events, durations, n * sizeof *durations);
    if (!m->rows || room_for(m->num_rows + 1) != room_for(m->num_rows)) {
        m->rows = realloc(m->rows, room_for(m->num_rows + 1) * sizeof *m->rows);
        assert_non_null(m->rows);
    }
    sp_model_row *r = &m->rows[m->num_rows++];
    memset(r, 0, sizeof *r);
    r->region = region;
    r->rank = rank;
    r->offset = m->num_events;
    r->count = n;
    r->source_line = -1;
    r->exclusive_total = -1;
    r->source_file = sp_strdup("");
    r->source_text = sp_strdup("");
    r->tags = sp_strdup("[]");
    r->event_metadata = sp_strdup("[]");
    if (n) sp_row_stats_compute(&r->stats, starts, durations, n);
    r->has_stats = n > 0;
    m->num_events += n;
}

void fs_basic_model(sp_model *m) {
    static const char *const names[] = {"setup", "solve", "io"};
    fs_model_init(m, names, 3);
    int64_t s0[] = {1000, 5000, 9000}, d0[] = {100, 200, 300};
    int64_t s1[] = {1100, 5100}, d1[] = {50, 60};
    int64_t s2[] = {2000, 6000, 7000}, d2[] = {400, 0, 500};
    int64_t s3[] = {2100}, d3[] = {10};
    fs_model_add_row(m, 0, 1, s0, d0, 3);
    fs_model_add_row(m, 0, 2, s1, d1, 2);
    fs_model_add_row(m, 1, 1, s2, d2, 3);
    fs_model_add_row(m, 1, 0, s3, d3, 1);
    sp_model_meta_int(m, "mpi_size", 2);
    sp_model_meta_string(m, "label", "basic");
}

void fs_write_basic(const char *path) {
    sp_model m;
    fs_basic_model(&m);
    sp_error err;
    sp_status st = sp_write_model(&m, path, NULL, &err);
    if (st) fail_msg("writing %s: %s", path, err.message);
    sp_model_clear(&m);
}

static hid_t open_rw(const char *file) {
    hid_t f = H5Fopen(file, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(f >= 0);
    return f;
}

/* Deletes dataset (if present) and creates it anew with the given shape. */
static hid_t recreate(hid_t f, const char *dataset, hid_t ftype, int rank, const hsize_t *dims) {
    htri_t exists = 0;
    H5E_BEGIN_TRY {
        exists = H5Lexists(f, dataset, H5P_DEFAULT);
    }
    H5E_END_TRY;
    if (exists > 0) assert_true(H5Ldelete(f, dataset, H5P_DEFAULT) >= 0);
    hid_t space = rank ? H5Screate_simple(rank, dims, NULL) : H5Screate(H5S_SCALAR);
    hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
    H5Pset_create_intermediate_group(lcpl, 1);
    hid_t ds = H5Dcreate2(f, dataset, ftype, space, lcpl, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(ds >= 0);
    H5Pclose(lcpl);
    H5Sclose(space);
    return ds;
}

void fs_replace_ints(const char *file, const char *dataset, hid_t ftype, const int64_t *values,
                     size_t n) {
    hid_t f = open_rw(file);
    hsize_t dims = n;
    hid_t ds = recreate(f, dataset, ftype, 1, &dims);
    if (n) assert_true(H5Dwrite(ds, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, values) >= 0);
    H5Dclose(ds);
    H5Fclose(f);
}

void fs_replace_doubles(const char *file, const char *dataset, const double *values, size_t n) {
    hid_t f = open_rw(file);
    hsize_t dims = n;
    hid_t ds = recreate(f, dataset, H5T_IEEE_F64LE, 1, &dims);
    if (n) assert_true(H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values) >= 0);
    H5Dclose(ds);
    H5Fclose(f);
}

void fs_replace_strings(const char *file, const char *dataset, const char *const *values,
                        size_t n) {
    hid_t f = open_rw(file);
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, H5T_VARIABLE);
    H5Tset_cset(t, H5T_CSET_UTF8);
    hsize_t dims = n;
    hid_t ds = recreate(f, dataset, t, 1, &dims);
    if (n) assert_true(H5Dwrite(ds, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, values) >= 0);
    H5Dclose(ds);
    H5Tclose(t);
    H5Fclose(f);
}

void fs_replace_2d(const char *file, const char *dataset, size_t rows, size_t cols) {
    hid_t f = open_rw(file);
    hsize_t dims[2] = {rows, cols};
    H5Dclose(recreate(f, dataset, H5T_STD_I64LE, 2, dims));
    H5Fclose(f);
}

void fs_replace_scalar(const char *file, const char *dataset) {
    hid_t f = open_rw(file);
    H5Dclose(recreate(f, dataset, H5T_STD_I64LE, 0, NULL));
    H5Fclose(f);
}

void fs_delete(const char *file, const char *path) {
    hid_t f = open_rw(file);
    assert_true(H5Ldelete(f, path, H5P_DEFAULT) >= 0);
    H5Fclose(f);
}

void fs_make_group(const char *file, const char *path) {
    hid_t f = open_rw(file);
    hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
    H5Pset_create_intermediate_group(lcpl, 1);
    hid_t g = H5Gcreate2(f, path, lcpl, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(g >= 0);
    H5Gclose(g);
    H5Pclose(lcpl);
    H5Fclose(f);
}

static hid_t fresh_attr(hid_t f, const char *object, const char *name, hid_t type) {
    if (H5Aexists_by_name(f, object, name, H5P_DEFAULT) > 0)
        H5Adelete_by_name(f, object, name, H5P_DEFAULT);
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t a =
        H5Acreate_by_name(f, object, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(a >= 0);
    H5Sclose(space);
    return a;
}

void fs_set_attr_int(const char *file, const char *object, const char *name, int64_t value) {
    hid_t f = open_rw(file);
    hid_t a = fresh_attr(f, object, name, H5T_STD_I64LE);
    assert_true(H5Awrite(a, H5T_NATIVE_INT64, &value) >= 0);
    H5Aclose(a);
    H5Fclose(f);
}

void fs_set_attr_string(const char *file, const char *object, const char *name, const char *value) {
    hid_t f = open_rw(file);
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, H5T_VARIABLE);
    hid_t a = fresh_attr(f, object, name, t);
    assert_true(H5Awrite(a, t, &value) >= 0);
    H5Aclose(a);
    H5Tclose(t);
    H5Fclose(f);
}

int64_t *fs_read_ints(const char *file, const char *dataset, size_t *n) {
    hid_t f = H5Fopen(file, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(f >= 0);
    hid_t ds = H5Dopen2(f, dataset, H5P_DEFAULT);
    assert_true(ds >= 0);
    hid_t space = H5Dget_space(ds);
    hsize_t dims = 0;
    H5Sget_simple_extent_dims(space, &dims, NULL);
    int64_t *v = malloc((dims ? dims : 1) * sizeof *v);
    assert_non_null(v);
    if (dims) assert_true(H5Dread(ds, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0);
    H5Sclose(space);
    H5Dclose(ds);
    H5Fclose(f);
    *n = dims;
    return v;
}

void fs_write_empty_hdf5(const char *path) {
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(f >= 0);
    H5Fclose(f);
}

long fs_open_ids(void) {
    /* Files and their objects; HDF5 offers no public count of open types or spaces. */
    return (long)H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL);
}

static void check_message(const char *path, const sp_error *err, sp_status status,
                          const char *needle) {
    char prefix[600];
    snprintf(prefix, sizeof prefix, "%s: ", path);
    if (err->status != status)
        fail_msg("%s: expected status %d (%s), got %d: %s", path, status, sp_status_string(status),
                 err->status, err->message);
    if (strncmp(err->message, prefix, strlen(prefix)) != 0)
        fail_msg("message does not start with the path: %s", err->message);
    if (strchr(err->message, '\n')) fail_msg("message is not one line: %s", err->message);
    if (needle && !strstr(err->message, needle))
        fail_msg("message lacks \"%s\": %s", needle, err->message);
}

void fs_expect_error(const char *path, sp_status status, const char *needle) {
    long before = fs_open_ids();
    sp_error err;
    memset(&err, 0, sizeof err);
    sp_results *r = sp_read(path, &err);
    if (r) {
        sp_results_free(r);
        fail_msg("%s: read succeeded, expected %s", path, sp_status_string(status));
    }
    check_message(path, &err, status, needle);
    sp_model m;
    memset(&err, 0, sizeof err);
    assert_int_equal(sp_read_model(path, &m, &err), status);
    check_message(path, &err, status, needle);
    assert_int_equal(m.num_rows, 0);
    assert_null(m.rows);
    assert_int_equal(fs_open_ids(), before);
}

void fs_read_ok(const char *path, sp_model *m) {
    long before = fs_open_ids();
    sp_error err;
    sp_status st = sp_read_model(path, m, &err);
    if (st) fail_msg("reading %s failed: %s", path, err.message);
    assert_int_equal(fs_open_ids(), before);
}

unsigned char *fs_load(const char *path, size_t *n) {
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    unsigned char *bytes = malloc(st.st_size ? (size_t)st.st_size : 1);
    assert_non_null(bytes);
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    assert_int_equal(read(fd, bytes, (size_t)st.st_size), st.st_size);
    close(fd);
    *n = (size_t)st.st_size;
    return bytes;
}
