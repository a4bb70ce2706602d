#include "record/session_root.h"

#include <string.h>

#include "record/clock.h"
#include "record/registry.h"
#include "record/thread_state.h"

static sp_thread *root_thread;
static sp_event_slot *root_slot;
static sp_region_t root_region;

void sp_session_root_open(void) {
    root_thread = NULL;
    root_slot = NULL;
    sp_region_t root = sp_registry_intern_root();
    if (root == SP_REGION_NONE) return; /* out of memory: no root, nothing else changes */
    sp_internal_begin_v2_(root);
    sp_thread *t = sp_current_thread;
    if (!t || t->top == t->stack || t->top[-1].region != root) return;
    root_thread = t;
    root_slot = t->top[-1].slot;
    root_region = root;
}

void sp_session_root_close(void) {
    sp_thread *t = root_thread;
    root_thread = NULL;
    if (!t) return;
    uint64_t now = sp_clock_ticks();
    /* Aggregate mode's frames point into an array that moves as the stack
     * deepens: there the root is the lowest frame of its region. */
    uint32_t k = 0, depth = sp_thread_depth(t);
    while (k < depth && t->stack[k].slot != root_slot)
        k++;
    if (k == depth)
        for (k = 0; k < depth && t->stack[k].region != root_region;)
            k++;
    if (k < depth) {
        root_slot = t->stack[k].slot;
        root_slot->end = now ? now : 1; /* 0 would mean "still open" */
        memmove(&t->stack[k], &t->stack[k + 1], (depth - k - 1) * sizeof *t->stack);
        t->top--;
    }
    root_slot = NULL;
}
