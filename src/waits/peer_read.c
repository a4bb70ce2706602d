/*
 * Reads /scope_profiler_c/mpi_calls (docs/format.md) into sp_peer_table,
 * trusting nothing: equal column lengths, ranks below mpi_size checked by
 * the analysis, call indices inside call_names, completion slices inside
 * the completions, communicator members inside the member list.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "format/guarded_driver.h"
#include "format/h5_read.h"
#include "format/lzf_filter.h"
#include "waits/waits.h"

#define G "/scope_profiler_c/mpi_calls/"

void sp_peer_table_free(sp_peer_table *t) {
    int64_t *cols[] = {t->ranks,      t->calls,        t->peers,    t->tags,        t->comms,
                       t->bytes,      t->aux,          t->sources,  t->source_tags, t->c_ranks,
                       t->c_requests, t->c_sources,    t->c_tags,   t->comm_ranks,  t->comm_ids,
                       t->comm_sizes, t->comm_members, t->complete, t->threads};
    for (size_t i = 0; i < sizeof cols / sizeof *cols; i++)
        free(cols[i]);
    sp_rd_free_strings(t->call_names, t->num_call_names);
    memset(t, 0, sizeof *t);
}

/* Columns of one table: all the same length as the first. */
static sp_status read_columns(sp_rd *rd, const char *const *names, int64_t **const *dst, size_t k,
                              size_t *n) {
    sp_status st = SP_OK;
    for (size_t i = 0; !st && i < k; i++) {
        size_t len = 0;
        st = sp_rd_int64_column(rd, names[i], dst[i], &len);
        if (!st && i == 0) *n = len;
        if (!st && i > 0) st = sp_rd_same_length(rd, names[i], len, names[0], *n);
    }
    return st;
}

static sp_status check(sp_rd *rd, const sp_peer_table *t) {
    for (size_t i = 0; i < t->n; i++) {
        if (t->calls[i] < 0 || (size_t)t->calls[i] >= t->num_call_names)
            return sp_rd_damaged(rd, G "calls row %zu names call %" PRId64 " of %zu", i,
                                 t->calls[i], t->num_call_names);
        if (t->ranks[i] < 0 || t->ranks[i] > UINT32_MAX)
            return sp_rd_damaged(rd, G "ranks row %zu is %" PRId64, i, t->ranks[i]);
    }
    uint64_t members = 0;
    for (size_t i = 0; i < t->num_comms; i++) {
        if (t->comm_sizes[i] < 1 || t->comm_sizes[i] > INT32_MAX ||
            members + (uint64_t)t->comm_sizes[i] > t->num_members)
            return sp_rd_damaged(rd, G "comm_sizes row %zu (%" PRId64 ") overruns comm_members", i,
                                 t->comm_sizes[i]);
        members += (uint64_t)t->comm_sizes[i];
    }
    if (members != t->num_members)
        return sp_rd_damaged(rd, G "comm_members has %zu values, comm_sizes add up to %" PRIu64,
                             t->num_members, members);
    return SP_OK;
}

static sp_status read_group(sp_rd *rd, sp_peer_table *t) {
    static const char *const records[] = {G "ranks", G "calls",         G "peers",
                                          G "tags",  G "communicators", G "bytes",
                                          G "aux",   G "sources",       G "source_tags"};
    int64_t **const rec_dst[] = {&t->ranks, &t->calls, &t->peers,   &t->tags,       &t->comms,
                                 &t->bytes, &t->aux,   &t->sources, &t->source_tags};
    static const char *const done[] = {G "completion_ranks", G "completion_requests",
                                       G "completion_sources", G "completion_tags"};
    int64_t **const done_dst[] = {&t->c_ranks, &t->c_requests, &t->c_sources, &t->c_tags};
    static const char *const comms[] = {G "comm_ranks", G "comm_ids", G "comm_sizes"};
    int64_t **const comm_dst[] = {&t->comm_ranks, &t->comm_ids, &t->comm_sizes};
    int64_t version = 0;
    hid_t g = H5Gopen2(rd->file, G, H5P_DEFAULT);
    int have_version = g >= 0 && sp_rd_attr_int64(g, "extension_version", &version) == 0;
    if (g >= 0) H5Gclose(g);
    if (have_version && version > 1)
        return sp_error_set(rd->err, SP_ERR_SCHEMA_TOO_NEW,
                            "%s: " G " is version %" PRId64 ", newer than this reader (1)",
                            rd->path, version);
    sp_status st = read_columns(rd, records, rec_dst, 9, &t->n);
    if (!st) st = read_columns(rd, done, done_dst, 4, &t->num_completions);
    if (!st) st = read_columns(rd, comms, comm_dst, 3, &t->num_comms);
    if (!st) st = sp_rd_int64_column(rd, G "comm_members", &t->comm_members, &t->num_members);
    if (!st) st = sp_rd_int64_column(rd, G "complete", &t->complete, &t->num_complete);
    if (!st) st = sp_rd_string_column(rd, G "call_names", &t->call_names, &t->num_call_names);
    if (!st && sp_rd_kind_of(rd->file, G "threads") != SP_RD_ABSENT) { /* optional */
        size_t len = 0;
        st = sp_rd_int64_column(rd, G "threads", &t->threads, &len);
        if (!st) st = sp_rd_same_length(rd, G "threads", len, G "ranks", t->n);
    }
    return st ? st : check(rd, t);
}

sp_status sp_peer_table_read(const char *path, sp_peer_table *t, int *present, sp_error *err) {
    memset(t, 0, sizeof *t);
    *present = 0;
    H5E_auto2_t saved_handler;
    void *saved_data;
    H5Eget_auto2(H5E_DEFAULT, &saved_handler, &saved_data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    sp_lzf_register();
    char heap_damage[256] = "";
    hid_t fapl = sp_guarded_read_fapl(heap_damage, sizeof heap_damage);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, fapl >= 0 ? fapl : H5P_DEFAULT);
    if (fapl >= 0) H5Pclose(fapl);
    sp_status st = SP_OK;
    if (file < 0) {
        st = sp_error_set(err, SP_ERR_DAMAGED, "%s: cannot open the file to read its MPI peer data",
                          path);
    } else if (sp_rd_kind_of(file, "/scope_profiler_c/mpi_calls") == SP_RD_GROUP) {
        sp_rd rd = {file, path, err};
        *present = 1;
        st = read_group(&rd, t);
    }
    if (file >= 0) H5Fclose(file);
    H5Eset_auto2(H5E_DEFAULT, saved_handler, saved_data);
    if (st) {
        sp_peer_table_free(t);
        *present = 0;
    }
    return st;
}
