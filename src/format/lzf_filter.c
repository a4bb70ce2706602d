#include "format/lzf_filter.h"

#include <errno.h>
#include <hdf5.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>

#ifdef SP_HAVE_LZF
#include <lzf.h>

/* cd_values as h5py sets them: filter revision, LZF version, chunk bytes. */
#define CD_CHUNK_BYTES 2

size_t sp_lzf_filter(unsigned int flags, size_t cd_nelmts, const unsigned int cd_values[],
                     size_t nbytes, size_t *buf_size, void **buf) {
    if (!(flags & H5Z_FLAG_REVERSE) || nbytes == 0 || nbytes > UINT_MAX) return 0;
    size_t chunk = cd_nelmts > CD_CHUNK_BYTES ? cd_values[CD_CHUNK_BYTES] : 0;
    /* Without the chunk size, guess and double: LZF does not store it. */
    size_t limit = chunk ? chunk : UINT_MAX;
    size_t size = chunk ? chunk : (nbytes < limit / 4 ? nbytes * 4 : limit);
    for (;;) {
        void *out = malloc(size);
        if (!out) return 0;
        errno = 0;
        unsigned int got = lzf_decompress(*buf, (unsigned int)nbytes, out, (unsigned int)size);
        if (got > 0) {
            free(*buf);
            *buf = out;
            *buf_size = size;
            return got;
        }
        free(out);
        if (errno != E2BIG || size >= limit) return 0;
        size = size <= limit / 2 ? size * 2 : limit;
    }
}

static void register_once(void) {
    if (H5Zfilter_avail(SP_LZF_FILTER_ID) > 0) return;
    static const H5Z_class2_t lzf_class = {
        .version = H5Z_CLASS_T_VERS,
        .id = SP_LZF_FILTER_ID,
        .encoder_present = 0,
        .decoder_present = 1,
        .name = "lzf (scope-profiler: decompression only)",
        .can_apply = NULL,
        .set_local = NULL,
        .filter = sp_lzf_filter,
    };
    H5Zregister(&lzf_class);
}

int sp_lzf_available(void) {
    return 1;
}
#else
size_t sp_lzf_filter(unsigned int flags, size_t cd_nelmts, const unsigned int cd_values[],
                     size_t nbytes, size_t *buf_size, void **buf) {
    (void)flags, (void)cd_nelmts, (void)cd_values, (void)nbytes, (void)buf_size, (void)buf;
    return 0;
}

static void register_once(void) {}

int sp_lzf_available(void) {
    return 0;
}
#endif

void sp_lzf_register(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, register_once);
}
