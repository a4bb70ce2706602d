#include "fuzz_bytes.h"

#include <hdf5.h>
#include <scope_profiler/results.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* A real file: HDF5 1.10 resolves the path it opens (realpath), so a memfd's
 * /proc/self/fd/N, which resolves to "/memfd:... (deleted)", never opens. */
int sp_fuzz_bytes_one(const uint8_t *data, size_t size) {
    const char *dir = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/sp_fuzz_XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0) return 1;
    size_t done = 0;
    while (done < size) {
        ssize_t n = write(fd, data + done, size - done);
        if (n <= 0) break;
        done += (size_t)n;
    }
    close(fd);
    sp_error err;
    sp_results *r = sp_read(path, &err);
    int failed = r == NULL;
    sp_results_free(r);
    unlink(path);
    if (H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL) != 0) {
        fprintf(stderr, "fuzz_bytes: HDF5 objects left open after %s: %s\n",
                failed ? "the failed read" : "the read", failed ? err.message : "");
        return 2;
    }
    return failed;
}
