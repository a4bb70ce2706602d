#include "mpi/thread_pack.h"

void sp_thread_pack_put(sp_blob *b, const sp_thread_info *t) {
    sp_blob_put(b, &t->index, sizeof t->index);
    sp_blob_put(b, &t->ident, sizeof t->ident);
    sp_blob_put(b, &t->native_id, sizeof t->native_id);
    sp_blob_put(b, &t->daemon, sizeof t->daemon);
    sp_blob_put(b, &t->start_ns, sizeof t->start_ns);
    sp_blob_put(b, &t->end_ns, sizeof t->end_ns);
    sp_blob_put(b, &t->cpu_ns, sizeof t->cpu_ns);
    sp_blob_put(b, &t->parent_slot, sizeof t->parent_slot);
    sp_blob_put_string(b, t->name);
}

void sp_thread_pack_get(sp_blob_reader *in, sp_thread_info *t, uint32_t rank) {
    t->rank = rank;
    sp_blob_get(in, &t->index, sizeof t->index);
    sp_blob_get(in, &t->ident, sizeof t->ident);
    sp_blob_get(in, &t->native_id, sizeof t->native_id);
    sp_blob_get(in, &t->daemon, sizeof t->daemon);
    sp_blob_get(in, &t->start_ns, sizeof t->start_ns);
    sp_blob_get(in, &t->end_ns, sizeof t->end_ns);
    sp_blob_get(in, &t->cpu_ns, sizeof t->cpu_ns);
    sp_blob_get(in, &t->parent_slot, sizeof t->parent_slot);
    t->name = sp_blob_get_string(in);
}
