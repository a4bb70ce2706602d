#include "record/finalize_reserve.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>

/* What finalize was measured to need past the recording: 1.5 MiB of piece
 * buffers, libhdf5's caches and deflate state, the region and thread tables;
 * 8 MiB was enough for 10 M calls of 2 regions; 32 MiB leaves room for a few thousand regions and
 * threads. */
#define DEFAULT_RESERVE_MB 32u

static pthread_mutex_t reserve_lock = PTHREAD_MUTEX_INITIALIZER;
static void *reserve;
static size_t reserve_size;

size_t sp_finalize_reserve_bytes(void) {
    const char *v = getenv("SCOPE_PROFILER_FINALIZE_RESERVE_MB");
    char *end = NULL;
    unsigned long mb = v && *v ? strtoul(v, &end, 10) : DEFAULT_RESERVE_MB;
    if (!v || !*v || *end || mb > 4096) mb = DEFAULT_RESERVE_MB;
    return (size_t)mb << 20;
}

void sp_finalize_reserve_take(void) {
    pthread_mutex_lock(&reserve_lock);
    if (!reserve) {
        size_t size = sp_finalize_reserve_bytes();
        void *p =
            size ? mmap(NULL, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
                 : MAP_FAILED;
        if (p != MAP_FAILED) {
            reserve = p;
            reserve_size = size;
        }
    }
    pthread_mutex_unlock(&reserve_lock);
}

void sp_finalize_reserve_release(void) {
    pthread_mutex_lock(&reserve_lock);
    if (reserve) munmap(reserve, reserve_size);
    reserve = NULL;
    reserve_size = 0;
    pthread_mutex_unlock(&reserve_lock);
}

int sp_finalize_headroom(size_t extra) {
    /* libhdf5 does not check every allocation (H5Fcreate crashed in
     * H5AC_create under a cap), so it is only entered with room to spare */
    size_t size = ((size_t)SP_FINALIZE_HEADROOM_MB << 20) + extra;
    if (size < extra) return 0;
    void *p = mmap(NULL, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return 0;
    munmap(p, size);
    return 1;
}
