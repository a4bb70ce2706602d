/* Error reporting shared by every module: a status plus a one-line message. */
#ifndef SP_COMMON_ERROR_H
#define SP_COMMON_ERROR_H

#include "common/visibility.h"
#include "scope_profiler/results.h"

/* Sets err (if non-NULL) to `status` with a printf-style message; returns status. */
SP_INTERNAL_API sp_status sp_error_set(sp_error *err, sp_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Clears err (if non-NULL) to SP_OK with an empty message. */
SP_INTERNAL_API void sp_error_clear(sp_error *err);
sp_status sp_error_vset(sp_error *err, sp_status status, const char *fmt, va_list ap);

#endif
