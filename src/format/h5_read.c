#include "format/h5_read.h"

#include <stdarg.h>
#include <stdio.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "model/model.h"
#include "format/chunk_read.h"
#include "format/header_check.h"
#include "format/vlen_facts.h"

/* gzip never compresses by much more than 1:1032; a claimed extent far past
 * that ratio over the bytes actually stored comes from a damaged header. */
#define MAX_COMPRESSION_RATIO 1100u
#define SMALL_READ_BYTES      (1u << 20)

/* Why the last object sp_rd_kind_of called SP_RD_DAMAGED is damaged. */
static _Thread_local char damage_why[512];

/* Whether libhdf5 may use the header of the object at path (header_check.h). */
static int header_sound(hid_t loc, const char *path) {
    char why[160];
    int rc = sp_header_problem(loc, path, why, sizeof why);
    if (rc == -2) snprintf(why, sizeof why, "cannot be checked (out of memory)");
    if (rc) snprintf(damage_why, sizeof damage_why, "the header of %.200s %s", path, why);
    return rc == 0;
}

/* The object's kind from its header, without opening it: opening a dataset
 * decodes its layout, which libhdf5 1.10 can crash on. */
static sp_rd_kind kind_of_object(hid_t loc, const char *path) {
    H5O_info_t info;
    if (H5Oget_info_by_name2(loc, path, &info, H5O_INFO_BASIC, H5P_DEFAULT) < 0)
        return SP_RD_ABSENT;
    if (!header_sound(loc, path)) return SP_RD_DAMAGED;
    return info.type == H5O_TYPE_GROUP     ? SP_RD_GROUP
           : info.type == H5O_TYPE_DATASET ? SP_RD_DATASET
                                           : SP_RD_OTHER;
}

/* External links could pull in other files: only links inside this file count. */
static int link_is_local(hid_t loc, const char *path) {
    if (H5Lexists(loc, path, H5P_DEFAULT) <= 0) return 0;
    H5L_info_t info;
    if (H5Lget_info(loc, path, &info, H5P_DEFAULT) < 0) return 0;
    return info.type == H5L_TYPE_HARD || info.type == H5L_TYPE_SOFT;
}

const char *sp_rd_damage_of_kind(void) {
    return damage_why;
}

sp_rd_kind sp_rd_kind_of(hid_t loc, const char *path) {
    if (strcmp(path, "/") == 0) return SP_RD_GROUP;
    char small[512];
    size_t len = strlen(path);
    /* Only unusually long (schema-1) paths need the heap; if even that fails the
     * path reads as absent, which the caller reports. */
    char *prefix = len < sizeof small ? small : malloc(len + 1);
    if (!prefix) return SP_RD_ABSENT;
    memcpy(prefix, path, len + 1);
    /* every group on the way is checked before libhdf5 looks a link up in it */
    int ok = 1, sound = header_sound(loc, "/");
    /* H5Lexists fails instead of answering when an intermediate group is missing. */
    for (char *slash = strchr(prefix + 1, '/'); ok && sound && slash;
         slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        ok = link_is_local(loc, prefix) && (sound = header_sound(loc, prefix));
        *slash = '/';
    }
    ok = ok && sound && link_is_local(loc, prefix);
    if (prefix != small) free(prefix);
    return !sound ? SP_RD_DAMAGED : ok ? kind_of_object(loc, path) : SP_RD_ABSENT;
}

void sp_rd_type_name(hid_t type, char *buf, size_t size) {
    size_t bits = H5Tget_size(type) * 8;
    switch (H5Tget_class(type)) {
    case H5T_INTEGER:
        snprintf(buf, size, "%sint%zu", H5Tget_sign(type) == H5T_SGN_NONE ? "u" : "", bits);
        break;
    case H5T_FLOAT:
        snprintf(buf, size, "float%zu", bits);
        break;
    case H5T_STRING:
        snprintf(buf, size, "string");
        break;
    case H5T_COMPOUND:
        snprintf(buf, size, "compound");
        break;
    case H5T_ENUM:
        snprintf(buf, size, "enum");
        break;
    case H5T_ARRAY:
        snprintf(buf, size, "array");
        break;
    case H5T_VLEN:
        snprintf(buf, size, "variable-length sequence");
        break;
    case H5T_OPAQUE:
        snprintf(buf, size, "opaque");
        break;
    case H5T_REFERENCE:
        snprintf(buf, size, "reference");
        break;
    case H5T_BITFIELD:
        snprintf(buf, size, "bitfield");
        break;
    default:
        snprintf(buf, size, "unknown");
        break;
    }
}

sp_status sp_rd_damaged(sp_rd *rd, const char *fmt, ...) {
    char what[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return sp_error_set(rd->err, SP_ERR_DAMAGED, "%s: damaged profile: %s", rd->path, what);
}

sp_status sp_rd_no_memory(sp_rd *rd) {
    return sp_error_set(rd->err, SP_ERR_OUT_OF_MEMORY, "%s: out of memory while reading", rd->path);
}

static sp_status check_one_dimensional(sp_rd *rd, hid_t ds, const char *path, size_t *n) {
    hid_t space = H5Dget_space(ds);
    if (space < 0) return sp_rd_damaged(rd, "cannot read the shape of %s", path);
    H5S_class_t cls = H5Sget_simple_extent_type(space);
    int ndims = H5Sget_simple_extent_ndims(space);
    hsize_t dim = 0;
    if (cls == H5S_SIMPLE && ndims == 1) H5Sget_simple_extent_dims(space, &dim, NULL);
    H5Sclose(space);
    if (cls == H5S_SCALAR)
        return sp_error_set(rd->err, SP_ERR_BAD_DATASET,
                            "%s: %s is a scalar, expected a 1-D dataset", rd->path, path);
    if (cls != H5S_SIMPLE)
        return sp_error_set(rd->err, SP_ERR_BAD_DATASET,
                            "%s: %s has no extent (null dataspace), expected a 1-D dataset",
                            rd->path, path);
    if (ndims != 1)
        return sp_error_set(rd->err, SP_ERR_BAD_DATASET,
                            "%s: %s has %d dimensions, expected a 1-D dataset", rd->path, path,
                            ndims);
    if (dim > SIZE_MAX)
        return sp_rd_damaged(rd, "%s claims %llu elements", path, (unsigned long long)dim);
    *n = (size_t)dim;
    return SP_OK;
}

sp_status sp_rd_open_column(sp_rd *rd, const char *path, hid_t *ds, size_t *n) {
    *ds = -1;
    *n = 0;
    sp_rd_kind kind = sp_rd_kind_of(rd->file, path);
    if (kind == SP_RD_ABSENT) return sp_rd_damaged(rd, "%s is missing", path);
    if (kind == SP_RD_DAMAGED)
        return sp_rd_damaged(rd, "%s cannot be read: %s", path, sp_rd_damage_of_kind());
    if (kind != SP_RD_DATASET)
        return sp_error_set(rd->err, SP_ERR_BAD_DATASET, "%s: %s is a %s, expected a 1-D dataset",
                            rd->path, path, kind == SP_RD_GROUP ? "group" : "named datatype");
    hid_t d = H5Dopen2(rd->file, path, H5P_DEFAULT);
    if (d < 0) return sp_rd_damaged(rd, "cannot open %s", path);
    sp_status st = check_one_dimensional(rd, d, path, n);
    if (st) {
        H5Dclose(d);
        *n = 0;
        return st;
    }
    *ds = d;
    return SP_OK;
}

sp_status sp_rd_expect_class(sp_rd *rd, hid_t ds, const char *path, H5T_class_t want,
                             const char *expected) {
    hid_t type = H5Dget_type(ds);
    if (type < 0) return sp_rd_damaged(rd, "cannot read the type of %s", path);
    H5T_class_t cls = H5Tget_class(type);
    char name[64];
    sp_rd_type_name(type, name, sizeof name);
    H5Tclose(type);
    if (cls == want) return SP_OK;
    return sp_error_set(rd->err, SP_ERR_BAD_DATASET, "%s: %s has type %s, expected %s", rd->path,
                        path, name, expected);
}

/* The bytes one element of `type` takes in the file, 0 when unknown (a
 * variable-length type other than a string, or a file we cannot check). */
static size_t stored_element_size(hid_t file, hid_t type) {
    if (H5Tis_variable_str(type) > 0) {
        sp_vlen_file f;
        return sp_vlen_file_of(file, &f) ? sp_vlen_ref_size(f.address_size) : 0;
    }
    return H5Tdetect_class(type, H5T_VLEN) == 0 ? H5Tget_size(type) : 0;
}

/* libhdf5 1.10 copies a compact dataset's elements out of its object header
 * without checking that the header holds them all (SIGSEGV in
 * H5VM_memcpyvv: tests/fuzz/regressions_bytes/h5d-compact-size.bin). */
static sp_status check_compact(sp_rd *rd, hid_t ds, const char *path, size_t n) {
    hid_t dcpl = H5Dget_create_plist(ds);
    H5D_layout_t layout = dcpl >= 0 ? H5Pget_layout(dcpl) : H5D_LAYOUT_ERROR;
    if (dcpl >= 0) H5Pclose(dcpl);
    if (layout != H5D_COMPACT) return SP_OK;
    hid_t type = H5Dget_type(ds);
    size_t elem = type >= 0 ? stored_element_size(rd->file, type) : 0;
    if (type >= 0) H5Tclose(type);
    uint64_t stored = H5Dget_storage_size(ds);
    if (elem == 0 || n > UINT64_MAX / elem || stored == (uint64_t)n * elem) return SP_OK;
    return sp_rd_damaged(
        rd, "%s is a compact dataset of %" PRIu64 " bytes; its %zu element(s) need %" PRIu64, path,
        stored, n, (uint64_t)n * elem);
}

sp_status sp_rd_check_storage(sp_rd *rd, hid_t ds, const char *path, size_t n, size_t elem_size) {
    if (n == 0) return SP_OK;
    if (elem_size == 0 || n > SIZE_MAX / elem_size)
        return sp_rd_damaged(rd, "%s claims %zu elements, more than memory can address", path, n);
    /* a damaged type message can claim numbers of gigabytes: libhdf5 would
     * allocate and convert n of them */
    hid_t ftype = H5Dget_type(ds);
    H5T_class_t cls = ftype >= 0 ? H5Tget_class(ftype) : H5T_NO_CLASS;
    size_t fsize = ftype >= 0 ? H5Tget_size(ftype) : 0;
    if (ftype >= 0) H5Tclose(ftype);
    if ((cls == H5T_INTEGER || cls == H5T_FLOAT) && (fsize == 0 || fsize > 16))
        return sp_rd_damaged(rd, "%s stores numbers of %zu bytes", path, fsize);
    sp_status st = check_compact(rd, ds, path, n);
    if (st) return st;
    uint64_t bytes = (uint64_t)n * elem_size;
    uint64_t stored = H5Dget_storage_size(ds);
    if (bytes > SMALL_READ_BYTES && bytes / MAX_COMPRESSION_RATIO > stored)
        return sp_rd_damaged(rd, "%s claims %zu elements but stores only %llu bytes", path, n,
                             (unsigned long long)stored);
    return sp_rd_check_chunks(rd, ds, path, n);
}

/* HDF5 zero-fills a 1 MiB conversion buffer for every converting read by
 * default; a column of a few rows needs only a few bytes of it. */
#define MIN_TRANSFER_BYTES 4096u
#define MAX_TRANSFER_BYTES (1u << 20)

hid_t sp_rd_transfer_plist(hid_t ds, size_t n, size_t mem_elem) {
    hid_t type = H5Dget_type(ds);
    size_t file_elem = type >= 0 ? H5Tget_size(type) : 0;
    if (type >= 0) H5Tclose(type);
    size_t elem = file_elem > mem_elem ? file_elem : mem_elem;
    if (elem == 0 || elem > MAX_TRANSFER_BYTES / 2) return H5P_DEFAULT;
    size_t bytes = n < MAX_TRANSFER_BYTES / elem ? n * elem : MAX_TRANSFER_BYTES;
    if (bytes < MIN_TRANSFER_BYTES) bytes = MIN_TRANSFER_BYTES;
    if (bytes < 2 * elem) bytes = 2 * elem;
    hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
    if (dxpl >= 0 && H5Pset_buffer(dxpl, bytes, NULL, NULL) >= 0) return dxpl;
    if (dxpl >= 0) H5Pclose(dxpl);
    return H5P_DEFAULT;
}

void sp_rd_close_plist(hid_t plist) {
    if (plist != H5P_DEFAULT) H5Pclose(plist);
}

sp_status sp_rd_read_failed(sp_rd *rd, const char *path) {
    return sp_rd_damaged(rd,
                         "cannot read %s (a damaged file, or a compression filter this "
                         "HDF5 library lacks)",
                         path);
}

static sp_status read_int64(sp_rd *rd, hid_t ds, const char *path, size_t n, int64_t **out) {
    sp_status st = sp_rd_expect_class(rd, ds, path, H5T_INTEGER, "an integer dataset");
    if (!st) st = sp_rd_check_storage(rd, ds, path, n, sizeof(int64_t));
    if (st) return st;
    int64_t *buf = malloc((n ? n : 1) * sizeof *buf);
    if (!buf) return sp_rd_no_memory(rd);
    /* HDF5 clamps an unsigned value beyond INT64_MAX to INT64_MAX: read such
     * columns as unsigned, so that e.g. an end time of UINT64_MAX is damage,
     * not a 292-year call. */
    hid_t ftype = H5Dget_type(ds);
    int wide_unsigned = ftype >= 0 && H5Tget_sign(ftype) == H5T_SGN_NONE && H5Tget_size(ftype) >= 8;
    if (ftype >= 0) H5Tclose(ftype);
    int decoded = 0;
    if (n >= SP_CHUNK_READ_MIN_VALUES)
        st = sp_rd_chunk_read_int64(rd, ds, path, n, buf, 0, &decoded);
    herr_t rc = 0;
    if (!st && n && !decoded) {
        hid_t dxpl = sp_rd_transfer_plist(ds, n, sizeof *buf);
        hid_t mem = wide_unsigned ? H5T_NATIVE_UINT64 : H5T_NATIVE_INT64;
        rc = H5Dread(ds, mem, H5S_ALL, H5S_ALL, dxpl, buf);
        sp_rd_close_plist(dxpl);
    }
    if (st) {
        free(buf);
        return st;
    }
    if (rc < 0) {
        free(buf);
        return sp_rd_read_failed(rd, path);
    }
    for (size_t i = 0; wide_unsigned && i < n; i++) {
        uint64_t v;
        memcpy(&v, &buf[i], sizeof v);
        if (v > INT64_MAX) {
            free(buf);
            return sp_rd_damaged(rd, "row %zu of %s holds %" PRIu64 ", beyond the int64 range", i,
                                 path, v);
        }
    }
    *out = buf;
    return SP_OK;
}

sp_status sp_rd_float64_column(sp_rd *rd, const char *path, double **out, size_t *n) {
    hid_t ds;
    *out = NULL;
    sp_status st = sp_rd_open_column(rd, path, &ds, n);
    if (st) return st;
    st = sp_rd_expect_class(rd, ds, path, H5T_FLOAT, "a float dataset");
    if (!st) st = sp_rd_check_storage(rd, ds, path, *n, sizeof(double));
    double *buf = st ? NULL : malloc((*n ? *n : 1) * sizeof *buf);
    if (!st && !buf) st = sp_rd_no_memory(rd);
    if (!st) {
        hid_t dxpl = sp_rd_transfer_plist(ds, *n, sizeof *buf);
        herr_t rc = *n ? H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, dxpl, buf) : 0;
        sp_rd_close_plist(dxpl);
        if (rc < 0) st = sp_rd_read_failed(rd, path);
    }
    H5Dclose(ds);
    if (st) {
        free(buf);
        *n = 0;
        return st;
    }
    *out = buf;
    return SP_OK;
}

sp_status sp_rd_int64_column(sp_rd *rd, const char *path, int64_t **out, size_t *n) {
    hid_t ds;
    *out = NULL;
    sp_status st = sp_rd_open_column(rd, path, &ds, n);
    if (st) return st;
    st = read_int64(rd, ds, path, *n, out);
    H5Dclose(ds);
    if (st) *n = 0; /* callers keep (pointer, count) pairs consistent */
    return st;
}

/* The rows [ranges[k].first, + count) of a 1-D dataset as one hyperslab union. */
static hid_t ranges_space(size_t n, const sp_rd_range *ranges, size_t num_ranges) {
    hsize_t dims = n;
    hid_t space = H5Screate_simple(1, &dims, NULL);
    if (space < 0) return -1;
    herr_t rc = H5Sselect_none(space);
    for (size_t k = 0; rc >= 0 && k < num_ranges; k++) {
        hsize_t start = ranges[k].first, count = ranges[k].count;
        if (count) rc = H5Sselect_hyperslab(space, H5S_SELECT_OR, &start, NULL, &count, NULL);
    }
    if (rc < 0) {
        H5Sclose(space);
        return -1;
    }
    return space;
}

sp_status sp_rd_int64_column_ranges(sp_rd *rd, const char *path, const sp_rd_range *ranges,
                                    size_t num_ranges, int64_t **out, size_t *n) {
    hid_t ds;
    *out = NULL;
    sp_status st = sp_rd_open_column(rd, path, &ds, n);
    if (!st) st = sp_rd_expect_class(rd, ds, path, H5T_INTEGER, "an integer dataset");
    if (!st) st = sp_rd_check_storage(rd, ds, path, *n, sizeof(int64_t));
    size_t wanted = 0;
    for (size_t k = 0; !st && k < num_ranges; k++) {
        if (ranges[k].first > *n || ranges[k].count > *n - ranges[k].first)
            st = sp_rd_damaged(rd, "a row's events lie past the end of %s", path);
        wanted += ranges[k].count;
    }
    /* calloc: the pages of rows not read are never touched, so cost no memory */
    int64_t *buf = st ? NULL : calloc(*n ? *n : 1, sizeof *buf);
    if (!st && !buf) st = sp_rd_no_memory(rd);
    if (!st && wanted) {
        hid_t space = ranges_space(*n, ranges, num_ranges);
        hid_t dxpl = sp_rd_transfer_plist(ds, wanted, sizeof *buf);
        herr_t rc = space >= 0 ? H5Dread(ds, H5T_NATIVE_INT64, space, space, dxpl, buf) : -1;
        sp_rd_close_plist(dxpl);
        if (space >= 0) H5Sclose(space);
        if (rc < 0) st = sp_rd_read_failed(rd, path);
    }
    if (ds >= 0) H5Dclose(ds);
    if (st) {
        free(buf);
        *n = 0;
        return st;
    }
    *out = buf;
    return SP_OK;
}

void sp_rd_free_strings(char **strings, size_t n) {
    if (!strings) return;
    for (size_t i = 0; i < n; i++)
        free(strings[i]);
    free(strings);
}

void sp_rd_reclaim(hid_t mem_type, size_t n, void *buf) {
    hsize_t dims = n;
    hid_t space = H5Screate_simple(1, &dims, NULL);
    if (space < 0) return;
#if H5_VERSION_GE(1, 12, 0)
    H5Treclaim(mem_type, space, H5P_DEFAULT, buf);
#else
    H5Dvlen_reclaim(mem_type, space, H5P_DEFAULT, buf);
#endif
    H5Sclose(space);
}

/* A copy of at most len bytes of s, with fixed-length padding removed. */
static char *copy_fixed(const char *s, size_t len, H5T_str_t pad) {
    size_t n = strnlen(s, len);
    if (pad == H5T_STR_SPACEPAD)
        while (n > 0 && s[n - 1] == ' ')
            n--;
    char *copy = malloc(n + 1);
    if (!copy) return NULL;
    memcpy(copy, s, n);
    copy[n] = '\0';
    return copy;
}

/* Copies vlen strings (NULL reads as ""); returns 0, or -1 when out of memory. */
static int copy_variable(char **raw, size_t n, char **out) {
    for (size_t i = 0; i < n; i++) {
        out[i] = sp_strdup(raw[i]); /* NULL in the file reads as "" */
        if (!out[i]) return -1;
    }
    return 0;
}

/* Reads n strings of string type `type` through `read` (dataset or attribute). */
typedef herr_t (*read_fn)(hid_t obj, hid_t mem_type, void *buf);

static herr_t read_dataset_all(hid_t ds, hid_t mem_type, void *buf) {
    hssize_t n = 0;
    hid_t space = H5Dget_space(ds);
    if (space >= 0) n = H5Sget_simple_extent_npoints(space);
    if (space >= 0) H5Sclose(space);
    hid_t dxpl = sp_rd_transfer_plist(ds, n > 0 ? (size_t)n : 0, H5Tget_size(mem_type));
    herr_t rc = H5Dread(ds, mem_type, H5S_ALL, H5S_ALL, dxpl, buf);
    sp_rd_close_plist(dxpl);
    return rc;
}

static herr_t read_attribute_all(hid_t attr, hid_t mem_type, void *buf) {
    return H5Aread(attr, mem_type, buf);
}

size_t sp_rd_vlen_char_size(hid_t type) {
    /* H5Tencode's form: object kind and encoding version (2 bytes), then the
     * datatype message: class and version, 3 bytes of class bits, the size
     * (4 bytes), and for a variable-length type its base type in the same
     * form, whose size is at bytes 4-7. */
    enum { head = 2, fixed = 8, need = head + fixed + fixed };
    size_t n = 0;
    if (H5Tencode(type, NULL, &n) < 0 || n < need || n > 4096) return 0;
    unsigned char buf[4096];
    if (H5Tencode(type, buf, &n) < 0 || (buf[head] & 0x0f) != H5T_VLEN) return 0;
    const unsigned char *base_size = buf + head + fixed + 4;
    return (size_t)base_size[0] | (size_t)base_size[1] << 8 | (size_t)base_size[2] << 16 |
           (size_t)base_size[3] << 24;
}

const char *sp_rd_string_type_problem(hid_t type, char *buf, size_t size) {
    H5T_cset_t cset = H5Tget_cset(type);
    H5T_str_t pad = H5Tget_strpad(type);
    int variable = H5Tis_variable_str(type);
    size_t bytes = H5Tget_size(type), chars = 1;
    if (H5Tget_class(type) != H5T_STRING || variable < 0)
        snprintf(buf, size, "a type that is not a string type");
    else if (cset != H5T_CSET_ASCII && cset != H5T_CSET_UTF8)
        snprintf(buf, size, "strings of an unknown character set (%d)", (int)cset);
    else if (pad != H5T_STR_NULLTERM && pad != H5T_STR_NULLPAD && pad != H5T_STR_SPACEPAD)
        snprintf(buf, size, "strings of an unknown padding (%d)", (int)pad);
    else if (variable && (chars = sp_rd_vlen_char_size(type)) != 1)
        snprintf(buf, size, "variable-length strings of %zu-byte characters", chars);
    else if (!variable && (bytes == 0 || bytes > SP_MAX_STRING_BYTES))
        snprintf(buf, size, "fixed-length strings of %zu bytes (at most %u MiB are read)", bytes,
                 SP_MAX_STRING_BYTES >> 20);
    else
        return NULL;
    return buf;
}

/* Returns 0, -1 when HDF5 fails, -2 when out of memory. out has n slots. */
static int read_strings(hid_t obj, read_fn read, hid_t type, size_t n, char **out) {
    if (n == 0) return 0;
    char why[128];
    if (sp_rd_string_type_problem(type, why, sizeof why)) return -1;
    hid_t mem = H5Tcopy(type);
    if (mem < 0) return -1;
    int variable = H5Tis_variable_str(type) > 0;
    size_t size = H5Tget_size(type);
    H5T_str_t pad = H5Tget_strpad(type);
    int rc = 0;
    void *buf = variable ? calloc(n, sizeof(char *))
                         : (size && n <= SIZE_MAX / size ? malloc(n * size) : NULL);
    if (!buf) rc = -2;
    if (rc == 0 && read(obj, mem, buf) < 0) {
        rc = -1;
        variable = 0; /* nothing to reclaim */
    }
    if (rc == 0 && variable) rc = copy_variable(buf, n, out) < 0 ? -2 : 0;
    for (size_t i = 0; rc == 0 && !variable && i < n; i++)
        if (!(out[i] = copy_fixed((char *)buf + i * size, size, pad))) rc = -2;
    if (variable) sp_rd_reclaim(mem, n, buf);
    free(buf);
    H5Tclose(mem);
    return rc;
}

int sp_rd_read_attr_strings(hid_t attr, hid_t type, size_t n, char **out) {
    return read_strings(attr, read_attribute_all, type, n, out);
}

static sp_status read_string_column(sp_rd *rd, hid_t ds, const char *path, size_t n, char ***out) {
    sp_status st = sp_rd_expect_class(rd, ds, path, H5T_STRING, "a string dataset");
    if (st) return st;
    hid_t type = H5Dget_type(ds);
    if (type < 0) return sp_rd_damaged(rd, "cannot read the type of %s", path);
    char why[128];
    if (sp_rd_string_type_problem(type, why, sizeof why)) {
        H5Tclose(type);
        return sp_rd_damaged(rd, "%s holds %s", path, why);
    }
    int variable = H5Tis_variable_str(type) > 0;
    size_t elem = variable ? sizeof(char *) : H5Tget_size(type);
    st = sp_rd_check_storage(rd, ds, path, n, elem);
    if (!st && variable) st = sp_rd_check_vlen_strings(rd, ds, path, n);
    char **strings = st ? NULL : calloc(n ? n : 1, sizeof *strings);
    if (!st && !strings) st = sp_rd_no_memory(rd);
    int rc = st ? 0 : read_strings(ds, read_dataset_all, type, n, strings);
    H5Tclose(type);
    if (!st && rc) st = rc == -2 ? sp_rd_no_memory(rd) : sp_rd_read_failed(rd, path);
    if (st) {
        sp_rd_free_strings(strings, n);
        return st;
    }
    *out = strings;
    return SP_OK;
}

sp_status sp_rd_string_column(sp_rd *rd, const char *path, char ***out, size_t *n) {
    hid_t ds;
    *out = NULL;
    sp_status st = sp_rd_open_column(rd, path, &ds, n);
    if (st) return st;
    st = read_string_column(rd, ds, path, *n, out);
    H5Dclose(ds);
    if (st) *n = 0;
    return st;
}

sp_status sp_rd_same_length(sp_rd *rd, const char *path, size_t n, const char *ref_path,
                            size_t want) {
    if (n == want) return SP_OK;
    return sp_rd_damaged(rd, "%s has %zu rows but %s has %zu", path, n, ref_path, want);
}

int sp_rd_attr_string(hid_t attr, char **out) {
    hid_t type = H5Aget_type(attr);
    hid_t space = H5Aget_space(attr);
    int rc = 0;
    *out = NULL;
    if (type >= 0 && space >= 0 && H5Tget_class(type) == H5T_STRING &&
        H5Sget_simple_extent_type(space) != H5S_NULL && H5Sget_simple_extent_npoints(space) == 1)
        rc = sp_rd_read_attr_strings(attr, type, 1, out);
    if (space >= 0) H5Sclose(space);
    if (type >= 0) H5Tclose(type);
    if (rc == -1) rc = 0; /* unreadable: not a string we can use */
    return rc < 0 ? rc : *out != NULL;
}

int sp_rd_attr_int64(hid_t loc, const char *name, int64_t *value) {
    if (H5Aexists(loc, name) <= 0) return 0;
    hid_t attr = H5Aopen(loc, name, H5P_DEFAULT);
    if (attr < 0) return -1;
    hid_t type = H5Aget_type(attr);
    hid_t space = H5Aget_space(attr);
    int rc = -1;
    if (type >= 0 && space >= 0 && H5Tget_class(type) == H5T_INTEGER &&
        H5Sget_simple_extent_type(space) != H5S_NULL && H5Sget_simple_extent_npoints(space) == 1 &&
        H5Aread(attr, H5T_NATIVE_INT64, value) >= 0)
        rc = 1;
    if (space >= 0) H5Sclose(space);
    if (type >= 0) H5Tclose(type);
    H5Aclose(attr);
    return rc;
}

herr_t sp_rd_names_add(sp_rd_names *l, const char *name) {
    if (l->count == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        char **grown = realloc(l->names, cap * sizeof *grown);
        if (!grown) {
            l->out_of_memory = 1;
            return -1;
        }
        l->names = grown;
        l->cap = cap;
    }
    if (!(l->names[l->count] = sp_strdup(name))) {
        l->out_of_memory = 1;
        return -1;
    }
    l->count++;
    return 0;
}

void sp_rd_names_free(sp_rd_names *l) {
    for (size_t i = 0; i < l->count; i++)
        free(l->names[i]);
    free(l->names);
    memset(l, 0, sizeof *l);
}
