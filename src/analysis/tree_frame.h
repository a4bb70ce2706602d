/* One call as the call-tree walk sees it (analysis/call_tree.h). */
#ifndef SP_ANALYSIS_TREE_FRAME_H
#define SP_ANALYSIS_TREE_FRAME_H

#include "analysis/internal.h"

typedef struct sp_tree_frame {
    int64_t start, end;
    uint64_t event; /* index into the model's event columns */
    uint32_t row;   /* model row of the call */
    int64_t lane;   /* thread id of the call (-1 unknown) */
    /* Free for the visitor: */
    uint32_t node;
    uint64_t pos;
    int64_t excl;
    int flag;
    uint32_t level;
} sp_tree_frame;

#endif
