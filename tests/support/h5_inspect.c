#include "h5_inspect.h"

#include <stdlib.h>
#include <string.h>

int h5i_exists(hid_t file, const char *path) {
    return H5Lexists(file, path, H5P_DEFAULT) > 0 && H5Oexists_by_name(file, path, H5P_DEFAULT) > 0;
}

static int parents_exist(hid_t file, const char *path) {
    char buf[512];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; (p = strchr(p, '/')); p++) {
        *p = '\0';
        int ok = H5Lexists(file, buf, H5P_DEFAULT) > 0;
        *p = '/';
        if (!ok) return 0;
    }
    return H5Lexists(file, path, H5P_DEFAULT) > 0;
}

int64_t *h5i_read_int64(hid_t file, const char *path, size_t *n) {
    *n = 0;
    if (!parents_exist(file, path)) return NULL;
    hid_t ds = H5Dopen2(file, path, H5P_DEFAULT);
    if (ds < 0) return NULL;
    hid_t space = H5Dget_space(ds);
    hssize_t count = H5Sget_simple_extent_npoints(space);
    int64_t *data = malloc((count > 0 ? (size_t)count : 1) * sizeof *data);
    if (count > 0) H5Dread(ds, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
    H5Sclose(space);
    H5Dclose(ds);
    *n = (size_t)count;
    return data;
}

char **h5i_read_strings(hid_t file, const char *path, size_t *n) {
    *n = 0;
    if (!parents_exist(file, path)) return NULL;
    hid_t ds = H5Dopen2(file, path, H5P_DEFAULT);
    if (ds < 0) return NULL;
    hid_t space = H5Dget_space(ds);
    hssize_t count = H5Sget_simple_extent_npoints(space);
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, H5T_VARIABLE);
    H5Tset_cset(t, H5T_CSET_UTF8);
    char **raw = calloc(count > 0 ? (size_t)count : 1, sizeof *raw);
    char **copy = calloc(count > 0 ? (size_t)count : 1, sizeof *copy);
    if (count > 0) H5Dread(ds, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, raw);
    for (hssize_t i = 0; i < count; i++)
        copy[i] = strdup(raw[i] ? raw[i] : "");
    if (count > 0) H5Dvlen_reclaim(t, space, H5P_DEFAULT, raw);
    free(raw);
    H5Tclose(t);
    H5Sclose(space);
    H5Dclose(ds);
    *n = (size_t)count;
    return copy;
}

void h5i_free_strings(char **s, size_t n) {
    if (!s) return;
    for (size_t i = 0; i < n; i++)
        free(s[i]);
    free(s);
}

int h5i_dataset_type(hid_t file, const char *path, h5i_type *out) {
    memset(out, 0, sizeof *out);
    if (!parents_exist(file, path)) return -1;
    hid_t ds = H5Dopen2(file, path, H5P_DEFAULT);
    if (ds < 0) return -1;
    hid_t t = H5Dget_type(ds);
    out->cls = H5Tget_class(t);
    out->size = H5Tget_size(t);
    if (out->cls == H5T_INTEGER) out->is_signed = H5Tget_sign(t) == H5T_SGN_2;
    if (out->cls == H5T_INTEGER || out->cls == H5T_FLOAT) out->order = H5Tget_order(t);
    if (out->cls == H5T_STRING) {
        out->is_vlen_string = H5Tis_variable_str(t) > 0;
        out->cset = H5Tget_cset(t);
    }
    H5Tclose(t);
    H5Dclose(ds);
    return 0;
}

int h5i_dataset_storage(hid_t file, const char *path, H5D_layout_t *layout, int *deflate,
                        int *shuffle) {
    if (!parents_exist(file, path)) return -1;
    hid_t ds = H5Dopen2(file, path, H5P_DEFAULT);
    if (ds < 0) return -1;
    hid_t dcpl = H5Dget_create_plist(ds);
    *layout = H5Pget_layout(dcpl);
    *deflate = *shuffle = 0;
    int nf = H5Pget_nfilters(dcpl);
    for (int i = 0; i < nf; i++) {
        unsigned flags, conf;
        size_t nelem = 0;
        H5Z_filter_t f = H5Pget_filter2(dcpl, (unsigned)i, &flags, &nelem, NULL, 0, NULL, &conf);
        if (f == H5Z_FILTER_DEFLATE) *deflate = 1;
        if (f == H5Z_FILTER_SHUFFLE) *shuffle = 1;
    }
    H5Pclose(dcpl);
    H5Dclose(ds);
    return 0;
}

int h5i_attr_exists(hid_t file, const char *obj, const char *name) {
    return H5Aexists_by_name(file, obj, name, H5P_DEFAULT) > 0;
}

int h5i_attr_int64(hid_t file, const char *obj, const char *name, int64_t *out) {
    if (!h5i_attr_exists(file, obj, name)) return -1;
    hid_t a = H5Aopen_by_name(file, obj, name, H5P_DEFAULT, H5P_DEFAULT);
    int rc = H5Aread(a, H5T_NATIVE_INT64, out) < 0 ? -1 : 0;
    H5Aclose(a);
    return rc;
}

char *h5i_attr_string(hid_t file, const char *obj, const char *name) {
    if (!h5i_attr_exists(file, obj, name)) return NULL;
    hid_t a = H5Aopen_by_name(file, obj, name, H5P_DEFAULT, H5P_DEFAULT);
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, H5T_VARIABLE);
    H5Tset_cset(t, H5T_CSET_UTF8);
    char *raw = NULL, *copy = NULL;
    if (H5Aread(a, t, &raw) >= 0 && raw) copy = strdup(raw);
    if (raw) H5free_memory(raw);
    H5Tclose(t);
    H5Aclose(a);
    return copy;
}

int64_t *h5i_decode_starts(hid_t file, size_t *n) {
    size_t nd, no, nc;
    int64_t *deltas = h5i_read_int64(file, "/events/start_deltas", &nd);
    int64_t *offsets = h5i_read_int64(file, "/rank_region_index/event_offsets", &no);
    int64_t *counts = h5i_read_int64(file, "/rank_region_index/event_counts", &nc);
    int64_t *starts = deltas ? malloc((nd ? nd : 1) * sizeof *starts) : NULL;
    for (size_t r = 0; starts && r < no && r < nc; r++) {
        int64_t acc = 0;
        for (int64_t i = 0; i < counts[r]; i++) {
            acc += deltas[offsets[r] + i];
            starts[offsets[r] + i] = acc;
        }
    }
    free(deltas);
    free(offsets);
    free(counts);
    *n = nd;
    return starts;
}
