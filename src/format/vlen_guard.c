#include "format/vlen_guard.h"

#include <stdio.h>
#include <string.h>

#include "format/vlen_facts.h"

static const char guard_name[] = "scope_profiler checked vlen";

static struct {
    H5T_conv_t library; /* libhdf5's own conversion of variable-length data */
    hid_t type;         /* the type the wrapper was registered with */
    int registered, checkable, armed, no_memory;
    sp_vlen_file file;
    sp_vlen_heaps heaps;
    char damage[256];
} guard = {NULL, -1, 0, 0, 0, 0, {-1, 0, 0, 0}, {NULL, 0, 0, 0}, ""};

/* A string on its way from the file to memory: the stored form (length,
 * heap id) on the left, a char * on the right. */
static int file_to_memory_string(hid_t src, hid_t dst) {
    return H5Tis_variable_str(src) > 0 && H5Tis_variable_str(dst) > 0 &&
           H5Tget_size(src) == sp_vlen_ref_size(guard.file.address_size) &&
           H5Tget_size(dst) == sizeof(char *);
}

static herr_t check_elements(hid_t src, size_t n, size_t stride, const void *buf) {
    size_t step = stride ? stride : H5Tget_size(src);
    for (size_t i = 0; i < n; i++) {
        sp_vlen_ref r =
            sp_vlen_ref_decode((const uint8_t *)buf + i * step, guard.file.address_size, 0);
        char why[200];
        int rc = sp_vlen_ref_check(&guard.file, &guard.heaps, r, why, sizeof why);
        if (rc == 0) continue;
        if (rc == -2) guard.no_memory = 1;
        if (rc == -2 || guard.damage[0]) return -1;
        if (why[0] == ':') /* the collection itself is damaged: its reason */
            snprintf(guard.damage, sizeof guard.damage, "%s", why + 2);
        else
            snprintf(guard.damage, sizeof guard.damage, "a stored string %s", why);
        return -1;
    }
    return 0;
}

static herr_t checked_conversion(hid_t src, hid_t dst, H5T_cdata_t *cdata, size_t nelmts,
                                 size_t buf_stride, size_t bkg_stride, void *buf, void *bkg,
                                 hid_t dxpl) {
    if (cdata->command == H5T_CONV_CONV && guard.armed && guard.checkable && buf &&
        file_to_memory_string(src, dst) && check_elements(src, nelmts, buf_stride, buf) < 0)
        return -1;
    return guard.library(src, dst, cdata, nelmts, buf_stride, bkg_stride, buf, bkg, dxpl);
}

/* libhdf5's function for variable-length strings: the path between two
 * string types that differ only in padding (not the no-op path; libhdf5
 * refuses to convert between character sets). */
static H5T_conv_t library_conversion(hid_t *a_out) {
    hid_t a = H5Tcopy(H5T_C_S1), b = -1;
    H5T_conv_t conv = NULL;
    if (a >= 0 && H5Tset_size(a, H5T_VARIABLE) >= 0 && (b = H5Tcopy(a)) >= 0 &&
        H5Tset_strpad(b, H5T_STR_NULLPAD) >= 0) {
        H5T_cdata_t *cdata = NULL;
        conv = H5Tfind(a, b, &cdata);
    }
    /* check that it converts: a new copy of the string, not the same pointer */
    if (conv) {
        const char *in[1] = {"sp"};
        char *buf[1] = {(char *)in[0]};
        if (H5Tconvert(a, b, 1, buf, NULL, H5P_DEFAULT) < 0 || buf[0] == in[0] || !buf[0] ||
            strcmp(buf[0], "sp") != 0)
            conv = NULL;
        else
            H5free_memory(buf[0]);
    }
    if (b >= 0) H5Tclose(b);
    if (!conv && a >= 0) H5Tclose(a);
    *a_out = conv ? a : -1;
    return conv;
}

void sp_vlen_guard_begin(hid_t file) {
    memset(&guard.heaps, 0, sizeof guard.heaps);
    guard.damage[0] = '\0';
    guard.no_memory = 0;
    guard.checkable = sp_vlen_file_of(file, &guard.file);
    guard.armed = 1;
    if (guard.registered) return;
    guard.library = library_conversion(&guard.type);
    guard.registered = guard.library && H5Tregister(H5T_PERS_SOFT, guard_name, guard.type,
                                                    guard.type, checked_conversion) >= 0;
    if (!guard.registered && guard.type >= 0) {
        H5Tclose(guard.type);
        guard.type = -1;
    }
}

int sp_vlen_guard_out_of_memory(void) {
    return guard.no_memory;
}

const char *sp_vlen_guard_damage(void) {
    return guard.damage[0] ? guard.damage : NULL;
}

void sp_vlen_guard_end(void) {
    if (guard.registered) {
        H5Tunregister(H5T_PERS_SOFT, guard_name, guard.type, guard.type, checked_conversion);
        H5Tclose(guard.type);
        guard.type = -1;
        guard.registered = 0;
    }
    sp_vlen_heaps_free(&guard.heaps);
    memset(&guard.heaps, 0, sizeof guard.heaps);
    guard.armed = guard.checkable = 0;
}
