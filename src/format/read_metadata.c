#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/json_escape.h"
#include "format/read_internal.h"

static herr_t collect_name(hid_t loc, const char *name, const H5A_info_t *info, void *data) {
    (void)loc;
    (void)info;
    return sp_rd_names_add(data, name);
}

static int list_attributes(hid_t group, sp_rd_names *out) {
    unsigned flags = 0;
    hid_t gcpl = H5Gget_create_plist(group);
    if (gcpl >= 0) {
        H5Pget_attr_creation_order(gcpl, &flags);
        H5Pclose(gcpl);
    }
    hsize_t idx = 0;
    if ((flags & H5P_CRT_ORDER_TRACKED) &&
        H5Aiterate2(group, H5_INDEX_CRT_ORDER, H5_ITER_INC, &idx, collect_name, out) >= 0)
        return 0;
    if (out->out_of_memory) return -1; /* not a reason to fall back to name order */
    sp_rd_names_free(out);
    idx = 0;
    return H5Aiterate2(group, H5_INDEX_NAME, H5_ITER_INC, &idx, collect_name, out) < 0 ? -1 : 0;
}

/* Renders n numbers / strings / enum names as text; 0 when not readable. */
static int render_ints(hid_t attr, hid_t type, size_t n, sp_textbuf *t) {
    int is_unsigned = H5Tget_sign(type) == H5T_SGN_NONE;
    int64_t *v = n <= SIZE_MAX / sizeof *v ? malloc(n * sizeof *v) : NULL;
    if (!v || H5Aread(attr, is_unsigned ? H5T_NATIVE_UINT64 : H5T_NATIVE_INT64, v) < 0) {
        free(v);
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        if (is_unsigned)
            sp_textbuf_printf(t, "%s%" PRIu64, i ? ", " : "", (uint64_t)v[i]);
        else
            sp_textbuf_printf(t, "%s%" PRId64, i ? ", " : "", v[i]);
    }
    free(v);
    return 1;
}

static int render_floats(hid_t attr, size_t n, sp_textbuf *t) {
    double *v = n <= SIZE_MAX / sizeof *v ? malloc(n * sizeof *v) : NULL;
    if (!v || H5Aread(attr, H5T_NATIVE_DOUBLE, v) < 0) {
        free(v);
        return 0;
    }
    for (size_t i = 0; i < n; i++)
        sp_textbuf_printf(t, "%s%.17g", i ? ", " : "", v[i]);
    free(v);
    return 1;
}

static int render_strings(hid_t attr, hid_t type, size_t n, sp_textbuf *t) {
    char **v = calloc(n, sizeof *v);
    if (!v || sp_rd_read_attr_strings(attr, type, n, v) != 0) {
        sp_rd_free_strings(v, n);
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        if (i) sp_textbuf_append_n(t, ", ", 2);
        sp_json_escape(t, v[i]);
    }
    sp_rd_free_strings(v, n);
    return 1;
}

static void append_enum_name(sp_textbuf *t, hid_t mem, const void *value) {
    char name[256];
    if (H5Tenum_nameof(mem, value, name, sizeof name) < 0) snprintf(name, sizeof name, "?");
    /* h5py stores Python bools as an enum {FALSE, TRUE}. */
    const char *shown = strcmp(name, "TRUE") == 0    ? "true"
                        : strcmp(name, "FALSE") == 0 ? "false"
                                                     : name;
    sp_textbuf_append_n(t, shown, strlen(shown));
}

static int render_enums(hid_t attr, hid_t type, size_t n, sp_textbuf *t) {
    hid_t mem = H5Tget_native_type(type, H5T_DIR_ASCEND);
    size_t size = mem >= 0 ? H5Tget_size(mem) : 0;
    unsigned char *v = size && n <= SIZE_MAX / size ? malloc(n * size) : NULL;
    int ok = v && H5Aread(attr, mem, v) >= 0;
    for (size_t i = 0; ok && i < n; i++) {
        if (i) sp_textbuf_append_n(t, ", ", 2);
        append_enum_name(t, mem, v + i * size);
    }
    free(v);
    if (mem >= 0) H5Tclose(mem);
    return ok;
}

static int render_values(hid_t attr, hid_t type, size_t n, sp_textbuf *t) {
    switch (H5Tget_class(type)) {
    case H5T_INTEGER:
        return render_ints(attr, type, n, t);
    case H5T_FLOAT:
        return render_floats(attr, n, t);
    case H5T_STRING:
        return render_strings(attr, type, n, t);
    case H5T_ENUM:
        return render_enums(attr, type, n, t);
    default:
        return 0;
    }
}

/* Any attribute as readable text: "[1, 2]", "true", "(an HDF5 compound value)". */
static char *render(hid_t attr, hid_t type, size_t n, int scalar) {
    sp_textbuf values = SP_TEXTBUF_INIT, t = SP_TEXTBUF_INIT;
    if (n > 0 && render_values(attr, type, n, &values) && !values.failed) {
        if (!scalar) sp_textbuf_append_n(&t, "[", 1);
        sp_textbuf_append_n(&t, values.data ? values.data : "", values.len);
        if (!scalar) sp_textbuf_append_n(&t, "]", 1);
    } else if (n == 0) {
        sp_textbuf_append_n(&t, "[]", 2);
    } else {
        char name[64];
        sp_rd_type_name(type, name, sizeof name);
        sp_textbuf_printf(&t, "(an HDF5 %s value)", name);
    }
    sp_textbuf_free(&values);
    return sp_textbuf_take(&t);
}

static sp_status store_scalar_int(sp_model *m, const char *key, hid_t attr, hid_t type) {
    if (H5Tget_sign(type) == H5T_SGN_NONE && H5Tget_size(type) >= 8) {
        uint64_t u = 0;
        if (H5Aread(attr, H5T_NATIVE_UINT64, &u) >= 0 && u > INT64_MAX) {
            char text[32];
            snprintf(text, sizeof text, "%" PRIu64, u);
            return sp_model_meta_string(m, key, text);
        }
    }
    int64_t v = 0;
    if (H5Aread(attr, H5T_NATIVE_INT64, &v) < 0)
        return sp_model_meta_string(m, key, "(unreadable)");
    return sp_model_meta_int(m, key, v);
}

static sp_status store_scalar_float(sp_model *m, const char *key, hid_t attr) {
    double v = 0;
    if (H5Aread(attr, H5T_NATIVE_DOUBLE, &v) < 0)
        return sp_model_meta_string(m, key, "(unreadable)");
    return sp_model_meta_float(m, key, v);
}

static sp_status store_strings(sp_model *m, const char *key, hid_t attr, hid_t type, size_t n,
                               int scalar) {
    char **v = calloc(n ? n : 1, sizeof *v);
    if (!v) return SP_ERR_OUT_OF_MEMORY;
    int rc = sp_rd_read_attr_strings(attr, type, n, v);
    sp_status st;
    if (rc == -2)
        st = SP_ERR_OUT_OF_MEMORY;
    else if (rc == -1)
        st = sp_model_meta_string(m, key, "(unreadable)");
    else if (scalar)
        st = sp_model_meta_string(m, key, v[0]);
    else
        st = sp_model_meta_list(m, key, (const char *const *)v, n);
    sp_rd_free_strings(v, n);
    return st;
}

static sp_status store_rendered(sp_model *m, const char *key, hid_t attr, hid_t type, size_t n,
                                int scalar) {
    char *text = render(attr, type, n, scalar);
    if (!text) return SP_ERR_OUT_OF_MEMORY;
    sp_status st = sp_model_meta_string(m, key, text);
    free(text);
    return st;
}

static sp_status store_attribute(sp_rd *rd, sp_model *m, const char *key, hid_t attr) {
    hid_t type = H5Aget_type(attr), space = H5Aget_space(attr);
    if (type < 0 || space < 0) {
        if (type >= 0) H5Tclose(type);
        if (space >= 0) H5Sclose(space);
        return sp_model_meta_string(m, key, "(unreadable)");
    }
    H5S_class_t shape = H5Sget_simple_extent_type(space);
    int scalar = shape == H5S_SCALAR;
    hssize_t points = shape == H5S_NULL ? 0 : H5Sget_simple_extent_npoints(space);
    size_t n = points > 0 ? (size_t)points : 0;
    H5T_class_t cls = H5Tget_class(type);
    sp_status st;
    char why[128];
    if (cls == H5T_STRING && sp_rd_string_type_problem(type, why, sizeof why))
        st = sp_rd_damaged(rd,
                           "the attribute %s of /metadata holds %s; deleting it (h5py: del "
                           "f['metadata'].attrs['%s']) lets the rest of the profile be read",
                           key, why, key);
    else if (shape == H5S_NULL)
        st = sp_model_meta_string(m, key, "");
    else if (scalar && cls == H5T_INTEGER)
        st = store_scalar_int(m, key, attr, type);
    else if (scalar && cls == H5T_FLOAT)
        st = store_scalar_float(m, key, attr);
    else if (cls == H5T_STRING && (scalar || H5Sget_simple_extent_ndims(space) == 1))
        st = store_strings(m, key, attr, type, scalar ? 1 : n, scalar);
    else
        st = store_rendered(m, key, attr, type, n, scalar);
    H5Tclose(type);
    H5Sclose(space);
    return st;
}

/* No attribute of a profile has this name (a control character leads it). */
static const char probe_name[] = "\001scope_profiler: no such attribute";

/*
 * Whether every compact attribute message of group decodes. libhdf5 1.10
 * builds a table of the attributes for H5Aiterate2 and for every by-index
 * lookup, and when a message fails to decode it releases the attributes
 * already in the table twice (SIGSEGV in H5A__close:
 * tests/fuzz/regressions_bytes/h5a-close-attribute-iterate.bin). A lookup by
 * a name that no attribute has decodes every message in turn without a
 * table and fails cleanly, so it runs first: once it has passed, the table
 * can be built. Nothing is copied or written (an H5Ocopy into a file in
 * memory, used before, wrote damaged strings into its global heap and
 * crashed in H5HG_insert). Dense storage (a fractal heap) is read in place.
 */
static int attributes_decode(hid_t group) {
    return H5Aexists_by_name(group, ".", probe_name, H5P_DEFAULT) >= 0;
}

sp_status sp_rd_metadata(sp_rd *rd, sp_model *m) {
    if (sp_rd_kind_of(rd->file, "/metadata") != SP_RD_GROUP) return SP_OK;
    hid_t group = H5Gopen2(rd->file, "/metadata", H5P_DEFAULT);
    if (group < 0) return SP_OK;
    sp_status st = SP_OK;
    sp_rd_names names = {0};
    if (!attributes_decode(group))
        st = sp_rd_damaged(rd, "the attributes of /metadata cannot be read (a damaged "
                               "attribute message)");
    else if (list_attributes(group, &names) < 0)
        st = names.out_of_memory ? sp_rd_no_memory(rd)
                                 : sp_rd_damaged(rd, "cannot list the attributes of /metadata");
    for (size_t i = 0; !st && i < names.count; i++) {
        hid_t attr = H5Aopen(group, names.names[i], H5P_DEFAULT);
        st = attr < 0 ? sp_model_meta_string(m, names.names[i], "(unreadable)")
                      : store_attribute(rd, m, names.names[i], attr);
        if (attr >= 0) H5Aclose(attr);
        if (st && st != SP_ERR_DAMAGED) st = sp_rd_no_memory(rd);
    }
    sp_rd_names_free(&names);
    H5Gclose(group);
    return st;
}
