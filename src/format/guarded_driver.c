/*
 * A POSIX file driver for HDF5 that survives write failures.
 *
 * With HDF5's own sec2 driver, a failed write (full disk, quota, file-size
 * limit) leaves the file impossible to flush: H5Fclose fails, the file stays
 * open inside the library, and the library crashes at exit trying to close
 * it again. This driver records the first failure (its errno) and from then
 * on accepts and discards every write and truncation, so the file closes
 * cleanly; the writer then reports the failure and deletes the file.
 *
 * Opened for reading with sp_guarded_read_fapl(), it also checks every global
 * heap collection libhdf5 reads (they arrive as raw-data reads that start with
 * "GCOL") with format/vlen_check.h before libhdf5 parses it: a damaged one
 * fails the read, so libhdf5 reports an error instead of copying past the
 * collection (H5HG_read trusts the object sizes it finds).
 */
#include "format/guarded_driver.h"

#include "format/vlen_check.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* Driver info set on the file access property list: where to report. */
typedef struct guarded_info {
    int *failure;      /* receives the first failing errno */
    char *heap_damage; /* reading: receives why a heap collection is damaged */
    size_t heap_damage_size;
} guarded_info;

typedef struct guarded_file {
    H5FD_t pub; /* must come first: HDF5 sees this part */
    int fd;
    haddr_t eoa;
    haddr_t eof;
    int failed_errno;   /* 0 until a write or truncation fails */
    int *report;        /* the caller's copy of failed_errno, may be NULL */
    size_t length_size; /* reading with checks: the file's size of lengths, 0 = no checks */
    char *heap_damage;
    size_t heap_damage_size;
} guarded_file;

/* The size of lengths from a superblock at offset 0 (no user block), or 0. */
static size_t superblock_length_size(int fd) {
    unsigned char sb[16];
    if (pread(fd, sb, sizeof sb, 0) != (ssize_t)sizeof sb ||
        memcmp(sb, "\x89HDF\r\n\x1a\n", 8) != 0)
        return 0;
    size_t n = sb[8] <= 1 ? sb[14] : sb[8] <= 3 ? sb[10] : 0;
    return n == 2 || n == 4 || n == 8 ? n : 0;
}

static void fail(guarded_file *f, int error_number) {
    f->failed_errno = error_number ? error_number : EIO;
    if (f->report && !*f->report) *f->report = f->failed_errno;
}

static hid_t driver_id = H5I_INVALID_HID;
static pthread_mutex_t register_lock = PTHREAD_MUTEX_INITIALIZER;

static H5FD_t *guarded_open(const char *name, unsigned flags, hid_t fapl, haddr_t maxaddr) {
    (void)maxaddr;
    const guarded_info *info = H5Pget_driver_info(fapl);
    int oflags = (flags & H5F_ACC_RDWR) ? O_RDWR : O_RDONLY;
    if (flags & H5F_ACC_TRUNC) oflags |= O_TRUNC;
    if (flags & H5F_ACC_CREAT) oflags |= O_CREAT;
    if (flags & H5F_ACC_EXCL) oflags |= O_EXCL;
    int fd = open(name, oflags | O_CLOEXEC, 0666);
    if (fd < 0) return NULL;
    struct stat st;
    guarded_file *f = calloc(1, sizeof *f);
    if (!f || fstat(fd, &st) != 0) {
        int e = f ? errno : ENOMEM;
        free(f);
        close(fd);
        errno = e; /* the reader tells "out of memory" from damage by it */
        return NULL;
    }
    f->fd = fd;
    f->eof = (haddr_t)st.st_size;
    f->report = info ? info->failure : NULL;
    if (info && info->heap_damage && !(flags & H5F_ACC_RDWR)) {
        f->heap_damage = info->heap_damage;
        f->heap_damage_size = info->heap_damage_size;
        f->length_size = superblock_length_size(fd);
    }
    return &f->pub;
}

static herr_t guarded_close(H5FD_t *file) {
    guarded_file *f = (guarded_file *)file;
    close(f->fd);
    free(f);
    return 0;
}

static herr_t guarded_query(const H5FD_t *file, unsigned long *flags) {
    (void)file;
    *flags = H5FD_FEAT_AGGREGATE_METADATA | H5FD_FEAT_ACCUMULATE_METADATA | H5FD_FEAT_DATA_SIEVE |
             H5FD_FEAT_AGGREGATE_SMALLDATA | H5FD_FEAT_POSIX_COMPAT_HANDLE;
    return 0;
}

static haddr_t guarded_get_eoa(const H5FD_t *file, H5FD_mem_t type) {
    (void)type;
    return ((const guarded_file *)file)->eoa;
}

static herr_t guarded_set_eoa(H5FD_t *file, H5FD_mem_t type, haddr_t addr) {
    (void)type;
    ((guarded_file *)file)->eoa = addr;
    return 0;
}

static haddr_t guarded_get_eof(const H5FD_t *file, H5FD_mem_t type) {
    (void)type;
    return ((const guarded_file *)file)->eof;
}

/* The handle HDF5 hands out (H5Fget_vfd_handle) is the file itself, so the
 * writer can ask it whether a write failed. */
static herr_t guarded_get_handle(H5FD_t *file, hid_t fapl, void **handle) {
    (void)fapl;
    *handle = file;
    return 0;
}

/* A read that starts a global heap collection: the whole collection parses,
 * or (the first, partial read) its size fits the file. 0, or -1: damaged. */
static int check_collection(guarded_file *f, haddr_t addr, const unsigned char *buf, size_t n) {
    if (n < 8 + f->length_size || memcmp(buf, "GCOL", 4) != 0) return 0;
    char why[200];
    uint64_t size;
    int rc = sp_gheap_header(buf, n, f->length_size, &size, why, sizeof why);
    if (rc == 0 && (addr > f->eof || size > f->eof - addr)) {
        snprintf(why, sizeof why,
                 "a global heap collection at byte %llu claims %llu bytes, past the end of the "
                 "file",
                 (unsigned long long)addr, (unsigned long long)size);
        rc = -1;
    }
    if (rc == 0 && size <= n)
        rc = sp_gheap_parse(buf, (size_t)size, f->length_size, NULL, why, sizeof why);
    if (rc == -1 && !f->heap_damage[0]) snprintf(f->heap_damage, f->heap_damage_size, "%s", why);
    return rc == -1 ? -1 : 0;
}

static herr_t guarded_read(H5FD_t *file, H5FD_mem_t type, hid_t dxpl, haddr_t addr, size_t size,
                           void *buf) {
    (void)dxpl;
    guarded_file *f = (guarded_file *)file;
    haddr_t start = addr;
    size_t wanted = size;
    char *out = buf;
    while (size > 0) {
        ssize_t n = pread(f->fd, out, size, (off_t)addr);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return -1;
        if (n == 0) { /* past the end of the file: zeros, as sec2 does */
            memset(out, 0, size);
            break;
        }
        out += n;
        addr += (haddr_t)n;
        size -= (size_t)n;
    }
    /* libhdf5 reads heap collections as raw data (H5FD_MEM_DRAW) */
    if (f->length_size && (type == H5FD_MEM_DRAW || type == H5FD_MEM_GHEAP) &&
        check_collection(f, start, buf, wanted) < 0)
        return -1;
    return 0;
}

static herr_t guarded_write(H5FD_t *file, H5FD_mem_t type, hid_t dxpl, haddr_t addr, size_t size,
                            const void *buf) {
    (void)type;
    (void)dxpl;
    guarded_file *f = (guarded_file *)file;
    if (f->failed_errno) return 0; /* already failed: discard, so the file can close */
    const char *in = buf;
    haddr_t end = addr + size;
    while (size > 0) {
        ssize_t n = pwrite(f->fd, in, size, (off_t)addr);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            fail(f, n < 0 ? errno : EIO);
            return 0;
        }
        in += n;
        addr += (haddr_t)n;
        size -= (size_t)n;
    }
    if (end > f->eof) f->eof = end;
    return 0;
}

static herr_t guarded_truncate(H5FD_t *file, hid_t dxpl, hbool_t closing) {
    (void)dxpl;
    (void)closing;
    guarded_file *f = (guarded_file *)file;
    if (f->failed_errno || f->eoa == f->eof) return 0;
    if (ftruncate(f->fd, (off_t)f->eoa) != 0) {
        fail(f, errno);
        return 0;
    }
    f->eof = f->eoa;
    return 0;
}

/* As sec2: a shared lock to read, an exclusive one to write, never waiting
 * (a file another process is writing fails to open with EWOULDBLOCK). */
static herr_t guarded_lock(H5FD_t *file, hbool_t rw) {
    guarded_file *f = (guarded_file *)file;
    if (flock(f->fd, (rw ? LOCK_EX : LOCK_SH) | LOCK_NB) == 0) return 0;
    return errno == ENOSYS ? 0 : -1; /* no locks on this file system: as sec2, go on */
}

static herr_t guarded_unlock(H5FD_t *file) {
    guarded_file *f = (guarded_file *)file;
    if (flock(f->fd, LOCK_UN) == 0) return 0;
    return errno == ENOSYS ? 0 : -1;
}

static const H5FD_class_t guarded_class = {
#if H5_VERSION_GE(1, 13, 0)
    .version = H5FD_CLASS_VERSION,
    .value = 601, /* in the range HDF5 leaves to applications */
#endif
    .name = "sp_guarded_posix",
    .maxaddr = (haddr_t)INT64_MAX,
    .fc_degree = H5F_CLOSE_STRONG,
    .fapl_size = sizeof(guarded_info),
    .open = guarded_open,
    .close = guarded_close,
    .query = guarded_query,
    .get_eoa = guarded_get_eoa,
    .set_eoa = guarded_set_eoa,
    .get_eof = guarded_get_eof,
    .get_handle = guarded_get_handle,
    .read = guarded_read,
    .write = guarded_write,
    .truncate = guarded_truncate,
    .lock = guarded_lock,
    .unlock = guarded_unlock,
    .fl_map = H5FD_FLMAP_DICHOTOMY,
};

static hid_t make_fapl(const guarded_info *info, H5F_close_degree_t degree) {
    pthread_mutex_lock(&register_lock);
    /* The id dies with the library (H5close), so check it is still valid. */
    if (driver_id < 0 || H5Iis_valid(driver_id) <= 0) driver_id = H5FDregister(&guarded_class);
    hid_t id = driver_id;
    pthread_mutex_unlock(&register_lock);
    if (id < 0) return -1;
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (fapl < 0) return -1;
    if (H5Pset_driver(fapl, id, info) < 0 || H5Pset_fclose_degree(fapl, degree) < 0) {
        H5Pclose(fapl);
        return -1;
    }
    return fapl;
}

hid_t sp_guarded_fapl(int *failure) {
    guarded_info info = {failure, NULL, 0};
    return make_fapl(&info, H5F_CLOSE_STRONG);
}

hid_t sp_guarded_read_fapl(char *heap_damage, size_t size) {
    guarded_info info = {NULL, heap_damage, size};
    /* weak, as sec2: an object left open by mistake stays visible (H5Fget_obj_count) */
    return make_fapl(&info, H5F_CLOSE_WEAK);
}

int sp_guarded_fd(hid_t file) {
    hid_t fapl = H5Fget_access_plist(file);
    int ours = fapl >= 0 && driver_id >= 0 && H5Pget_driver(fapl) == driver_id;
    if (fapl >= 0) H5Pclose(fapl);
    void *handle = NULL;
    if (!ours || H5Fget_vfd_handle(file, H5P_DEFAULT, &handle) < 0 || !handle) return -1;
    return ((guarded_file *)handle)->fd;
}
