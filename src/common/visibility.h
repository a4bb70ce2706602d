/*
 * SP_INTERNAL_API marks internal functions that the MPI library (a separate
 * shared object) calls in the core library. They are exported but are not
 * part of the public API: only include/ is.
 */
#ifndef SP_COMMON_VISIBILITY_H
#define SP_COMMON_VISIBILITY_H

#if defined(__GNUC__)
#define SP_INTERNAL_API __attribute__((visibility("default")))
#else
#define SP_INTERNAL_API
#endif

#endif
