/*
 * Per-chunk storage of a chunked 1-D dataset checked before H5Dread (issue
 * 22 item 8, docs/robustness.md): libhdf5 1.10 copies a chunk of the size
 * its layout claims out of whatever it read, so a damaged chunk index or
 * layout message overruns a buffer. Every chunk must start on a chunk
 * boundary inside the extent, lie inside the file, and store what its
 * chunk holds: exactly that without filters, not far more with them.
 */
#include <inttypes.h>

#include "format/h5_read.h"

/* Chunks looked at one by one (H5Dget_chunk_info walks the index each time);
 * beyond this the totals check of sp_rd_check_storage stands alone. */
#define MAX_CHECKED_CHUNKS 1024u

static sp_status check_one(sp_rd *rd, hid_t ds, hid_t space, const char *path, hsize_t c,
                           hsize_t chunk, size_t n, size_t elem, int nfilters, hsize_t eof) {
    hsize_t offset = 0, stored = 0;
    unsigned mask = 0;
    haddr_t address = 0;
    if (H5Dget_chunk_info(ds, space, c, &offset, &mask, &address, &stored) < 0)
        return sp_rd_damaged(rd, "chunk %llu of %s cannot be located", (unsigned long long)c, path);
    uint64_t want = (uint64_t)chunk * elem;
    if (offset % chunk || offset >= n)
        return sp_rd_damaged(rd, "chunk %llu of %s starts at element %llu, not a chunk of its %zu",
                             (unsigned long long)c, path, (unsigned long long)offset, n);
    if (address == HADDR_UNDEF || address > eof || stored > eof - address || stored == 0)
        return sp_rd_damaged(rd, "chunk %llu of %s (%llu bytes) lies outside the file",
                             (unsigned long long)c, path, (unsigned long long)stored);
    unsigned all = nfilters >= 32 ? ~0u : (1u << nfilters) - 1; /* a set bit: filter skipped */
    int unfiltered = nfilters <= 0 || (mask & all) == all;
    if (elem && ((unfiltered && stored != want) || stored > sp_rd_max_stored_chunk(want)))
        return sp_rd_damaged(rd, "chunk %llu of %s stores %llu bytes for %llu",
                             (unsigned long long)c, path, (unsigned long long)stored,
                             (unsigned long long)want);
    return SP_OK;
}

sp_status sp_rd_check_chunks(sp_rd *rd, hid_t ds, const char *path, size_t n) {
    hid_t dcpl = H5Dget_create_plist(ds);
    if (dcpl < 0) return sp_rd_damaged(rd, "cannot read the layout of %s", path);
    hsize_t chunk = 0, num = 0, eof = 0;
    sp_status st = SP_OK;
    int chunked = H5Pget_layout(dcpl) == H5D_CHUNKED;
    if (chunked && (H5Pget_chunk(dcpl, 1, &chunk) != 1 || chunk == 0))
        st = sp_rd_damaged(rd, "%s is chunked without a chunk size", path);
    int nfilters = chunked ? H5Pget_nfilters(dcpl) : 0;
    H5Pclose(dcpl);
    if (st || !chunked || n == 0) return st;
    /* the stored element: a string's is its length and heap id, not a char * */
    hid_t type = H5Dget_type(ds);
    size_t elem = type >= 0 && H5Tis_variable_str(type) <= 0 && H5Tget_class(type) != H5T_VLEN
                      ? H5Tget_size(type)
                      : 0; /* not checked exactly */
    if (type >= 0) H5Tclose(type);
    if (elem && chunk > SP_RD_MAX_CHUNK_BYTES / elem)
        return sp_rd_damaged(rd, "%s is stored in chunks of %llu elements, more than %llu MiB",
                             path, (unsigned long long)chunk, SP_RD_MAX_CHUNK_BYTES >> 20);
    hid_t space = H5Dget_space(ds);
    if (space < 0 || H5Dget_num_chunks(ds, space, &num) < 0 || H5Fget_filesize(rd->file, &eof) < 0)
        st = sp_rd_damaged(rd, "the chunks of %s cannot be counted", path);
    else if (num > (n + chunk - 1) / chunk)
        st = sp_rd_damaged(rd, "%s stores %llu chunks, its %zu elements fill %llu", path,
                           (unsigned long long)num, n,
                           (unsigned long long)((n + chunk - 1) / chunk));
    for (hsize_t c = 0; !st && c < num && c < MAX_CHECKED_CHUNKS; c++)
        st = check_one(rd, ds, space, path, c, chunk, n, elem, nfilters, eof);
    if (space >= 0) H5Sclose(space);
    return st;
}
