#include "format/h5_write.h"

#include <stdlib.h>
#include <string.h>

hid_t sp_h5_string_type(void) {
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t < 0) return t;
    if (H5Tset_size(t, H5T_VARIABLE) < 0 || H5Tset_cset(t, H5T_CSET_UTF8) < 0) {
        H5Tclose(t);
        return -1;
    }
    return t;
}

hid_t sp_h5_dcpl(uint64_t n, size_t elem_size, uint64_t chunk_elements, int gzip_level) {
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (dcpl < 0) return dcpl;
    if (n * elem_size <= SP_CONTIGUOUS_MAX_BYTES) return dcpl;
    hsize_t chunk = chunk_elements < n ? chunk_elements : n;
    if (H5Pset_chunk(dcpl, 1, &chunk) < 0 ||
        (gzip_level >= 0 &&
         (H5Pset_shuffle(dcpl) < 0 || H5Pset_deflate(dcpl, (unsigned)gzip_level) < 0))) {
        H5Pclose(dcpl);
        return -1;
    }
    return dcpl;
}

int sp_h5_write_column(hid_t loc, const char *name, hid_t file_type, hid_t mem_type,
                       const void *data, uint64_t n, int gzip_level) {
    hsize_t dims = n;
    size_t elem = H5Tget_size(file_type);
    int rc = -1;
    hid_t space = H5Screate_simple(1, &dims, NULL);
    hid_t dcpl =
        sp_h5_dcpl(n, elem ? elem : 8, elem ? SP_CONTIGUOUS_MAX_BYTES / elem : 4096, gzip_level);
    hid_t ds = -1;
    if (space >= 0 && dcpl >= 0)
        ds = H5Dcreate2(loc, name, file_type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (ds >= 0 && (n == 0 || H5Dwrite(ds, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0))
        rc = 0;
    if (ds >= 0 && H5Dclose(ds) < 0) rc = -1;
    if (dcpl >= 0) H5Pclose(dcpl);
    if (space >= 0) H5Sclose(space);
    return rc;
}

int sp_h5_write_array(hid_t loc, const char *name, hid_t file_type, hid_t mem_type,
                      const void *data, uint64_t n) {
    return sp_h5_write_column(loc, name, file_type, mem_type, data, n, -1);
}

int sp_h5_write_strings(hid_t loc, const char *name, const char *const *strings, uint64_t n) {
    hid_t t = sp_h5_string_type();
    if (t < 0) return -1;
    int rc = sp_h5_write_array(loc, name, t, t, strings, n);
    H5Tclose(t);
    return rc;
}

/* A fixed-length UTF-8 type of `size` bytes, padded with NULs (close with H5Tclose). */
static hid_t fixed_string_type(size_t size) {
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t < 0) return t;
    if (H5Tset_size(t, size) < 0 || H5Tset_strpad(t, H5T_STR_NULLPAD) < 0 ||
        H5Tset_cset(t, H5T_CSET_UTF8) < 0) {
        H5Tclose(t);
        return -1;
    }
    return t;
}

static int write_fixed_strings(hid_t loc, const char *name, const char *const *strings, uint64_t n,
                               size_t size, int gzip_level) {
    char *packed = calloc(n ? n : 1, size);
    hid_t t = packed ? fixed_string_type(size) : -1;
    int rc = -1;
    if (t >= 0) {
        for (uint64_t i = 0; i < n; i++)
            memcpy(packed + i * size, strings[i], strlen(strings[i]));
        rc = sp_h5_write_column(loc, name, t, t, packed, n, gzip_level);
        H5Tclose(t);
    }
    free(packed);
    return rc;
}

int sp_h5_write_string_column(hid_t loc, const char *name, const char *const *strings, uint64_t n,
                              int gzip_level) {
    size_t longest = 0;
    for (uint64_t i = 0; i < n && longest <= SP_FIXED_STRING_MAX; i++) {
        size_t len = strlen(strings[i]);
        if (len > longest) longest = len;
    }
    /* vlen strings cost 16 bytes per row plus a heap object per non-empty one,
     * which no filter compresses; short strings of a large table are cheaper fixed */
    if (n * 16 > SP_CONTIGUOUS_MAX_BYTES && longest <= SP_FIXED_STRING_MAX)
        return write_fixed_strings(loc, name, strings, n, longest ? longest : 1, gzip_level);
    hid_t t = sp_h5_string_type();
    if (t < 0) return -1;
    int rc = sp_h5_write_column(loc, name, t, t, strings, n, gzip_level);
    H5Tclose(t);
    return rc;
}

static int write_scalar_attr(hid_t loc, const char *name, hid_t file_type, hid_t mem_type,
                             const void *value) {
    int rc = -1;
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t attr =
        space >= 0 ? H5Acreate2(loc, name, file_type, space, H5P_DEFAULT, H5P_DEFAULT) : -1;
    if (attr >= 0 && H5Awrite(attr, mem_type, value) >= 0) rc = 0;
    if (attr >= 0 && H5Aclose(attr) < 0) rc = -1;
    if (space >= 0) H5Sclose(space);
    return rc;
}

int sp_h5_attr_int64(hid_t loc, const char *name, int64_t value) {
    return write_scalar_attr(loc, name, H5T_STD_I64LE, H5T_NATIVE_INT64, &value);
}

int sp_h5_attr_double(hid_t loc, const char *name, double value) {
    return write_scalar_attr(loc, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &value);
}

int sp_h5_attr_string(hid_t loc, const char *name, const char *value) {
    hid_t t = sp_h5_string_type();
    if (t < 0) return -1;
    int rc = write_scalar_attr(loc, name, t, t, &value);
    H5Tclose(t);
    return rc;
}

int sp_h5_attr_strings(hid_t loc, const char *name, const char *const *values, size_t n) {
    hsize_t dims = n;
    int rc = -1;
    hid_t t = sp_h5_string_type();
    hid_t space = H5Screate_simple(1, &dims, NULL);
    hid_t attr =
        (t >= 0 && space >= 0) ? H5Acreate2(loc, name, t, space, H5P_DEFAULT, H5P_DEFAULT) : -1;
    if (attr >= 0 && (n == 0 || H5Awrite(attr, t, values) >= 0)) rc = 0;
    if (attr >= 0 && H5Aclose(attr) < 0) rc = -1;
    if (space >= 0) H5Sclose(space);
    if (t >= 0) H5Tclose(t);
    return rc;
}
