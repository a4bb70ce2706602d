/*
 * The out-of-line side of the hot path (record/hot_path.c); the inline side
 * is in the public header (src/record/README.md).
 */
#ifndef SP_RECORD_HOT_PATH_H
#define SP_RECORD_HOT_PATH_H

/* The value sp_internal_active_ takes for a recording session: whether the
 * header's inline path may record (SP_INTERNAL_ACTIVE_INLINE_) or every call
 * goes out of line (1). Call after the clock and the quiesce are set up. */
int sp_hot_path_active_value(int aggregate);

#endif
