/*
 * SP_INTERNAL_API marks internal functions that the MPI library (a separate
 * shared object) calls in the core library. They are not exported (only the
 * public API of include/ is): the MPI library reaches them through the
 * table of common/companion.h.
 */
#ifndef SP_COMMON_VISIBILITY_H
#define SP_COMMON_VISIBILITY_H

#define SP_INTERNAL_API

#endif
