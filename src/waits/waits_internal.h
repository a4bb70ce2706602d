/* What the wait-state files share (waits.c, waits_messages.c, waits_collectives.c). */
#ifndef SP_WAITS_WAITS_INTERNAL_H
#define SP_WAITS_WAITS_INTERNAL_H

#include "waits/waits.h"

typedef enum wt_class {
    WT_NONE, /* the user's region */
    WT_OTHER_MPI,
    WT_SEND,
    WT_ISEND,
    WT_RECV,
    WT_IRECV,
    WT_SENDRECV,
    WT_COMPLETION,
    WT_ALL,       /* N x N collectives */
    WT_FROM_ROOT, /* 1 to N */
    WT_TO_ROOT    /* N to 1 */
} wt_class;

/* One call of a rank's thread (its main thread's only, without per-thread peer records). */
typedef struct wt_span {
    int64_t start, end;
    uint32_t region;
    wt_class cls;
    int64_t nth;    /* its position among its region's calls on the rank */
    int64_t peer;   /* its row in the peer table, -1 none */
    int64_t parent; /* the span enclosing it, -1 none */
    int64_t thread; /* the model's thread id (0 without thread ids) */
    int64_t waited; /* the wait states found in this call */
} wt_span;

typedef struct wt_rank {
    wt_span *spans; /* by thread, then start; enclosing calls before the calls they enclose */
    size_t num_spans;
    int64_t mpi_ns;          /* time in MPI calls */
    int64_t completion_base; /* the rank's first row in the completions */
    int64_t *done_by;        /* [serial]: the span completing the request, -1 none */
    int64_t *done_row;       /* [serial]: its completion row */
    int64_t max_serial;
    int64_t main_thread; /* the thread that set the session up (its calls give POP's times) */
} wt_rank;

typedef struct wt_ctx {
    const sp_model *m;
    const sp_peer_table *peers;
    sp_waits *out;
    int64_t eager_bytes;
    uint32_t num_ranks;
    wt_rank *ranks;
    int64_t first, last;
    int any;
    size_t max_rows;
    int64_t *span_of_peer; /* [peer row]: (rank << 32 | span index), -1 unaligned */
    int64_t *comm_global;  /* [comm table row]: the communicator's id across ranks */
    size_t num_global;
} wt_ctx;

wt_class sp_wt_class_of(const char *name);
/* The regions enclosing time t on a thread of rank, " > " between them. */
char *sp_wt_path_at(const wt_ctx *c, uint32_t rank, int64_t thread, int64_t t);
/* Adds a wait of `waiting` in `call` that began at `at`, caused by `late`:
 * the regions of that rank's thread late_thread halfway through the wait
 * name the cause. */
sp_status sp_wt_add(wt_ctx *c, sp_wait_kind kind, uint32_t waiting, const wt_span *call,
                    uint32_t late, int64_t late_thread, int64_t at, int64_t wait_ns);

/* waits_messages.c */
sp_status sp_wt_peers_attach(wt_ctx *c, const sp_peer_table *t);
void sp_wt_peers_free(wt_ctx *c);
sp_status sp_wt_messages(wt_ctx *c);
/* The global communicator id of a rank's local one, -1 unknown. */
int64_t sp_wt_comm(const wt_ctx *c, uint32_t rank, int64_t local);

/* pop_paths.c: POP per call path, once the waits are in */
sp_status sp_wt_pop_paths(wt_ctx *c);

/* waits_collectives.c */
sp_status sp_wt_collectives(wt_ctx *c);
sp_status sp_wt_collectives_by_order(wt_ctx *c);

#endif
