#include "mpi/thread_pack.h"

#include <stdlib.h>

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

void sp_forks_pack_put(sp_blob *b, const sp_model *m) {
    uint64_t n = m->forks ? m->num_forks : 0;
    sp_blob_put(b, &n, sizeof n);
    for (uint64_t i = 0; i < n; i++) {
        const sp_thread_fork *f = &m->forks[i];
        sp_blob_put(b, &f->thread, sizeof f->thread);
        sp_blob_put(b, &f->since_ns, sizeof f->since_ns);
        sp_blob_put(b, &f->parent, sizeof f->parent);
        sp_blob_put(b, &f->fork_ns, sizeof f->fork_ns);
    }
}

int sp_forks_pack_get(sp_blob_reader *in, uint32_t rank, sp_thread_fork **forks, size_t *n) {
    uint64_t count = 0;
    sp_blob_get(in, &count, sizeof count);
    *forks = NULL;
    *n = 0;
    if (in->failed || count > (in->size - in->pos) / (4 * sizeof(int64_t))) return 0;
    if (!count) return 1;
    *forks = malloc(count * sizeof **forks);
    if (!*forks) return 0;
    for (uint64_t i = 0; i < count; i++) {
        sp_thread_fork *f = &(*forks)[i];
        f->rank = rank;
        sp_blob_get(in, &f->thread, sizeof f->thread);
        sp_blob_get(in, &f->since_ns, sizeof f->since_ns);
        sp_blob_get(in, &f->parent, sizeof f->parent);
        sp_blob_get(in, &f->fork_ns, sizeof f->fork_ns);
    }
    *n = (size_t)count;
    return !in->failed;
}
