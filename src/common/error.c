#include "common/error.h"

#include <stdarg.h>
#include <stdio.h>

sp_status sp_error_set(sp_error *err, sp_status status, const char *fmt, ...) {
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
        err->status = status;
    }
    return status;
}

void sp_error_clear(sp_error *err) {
    if (err) {
        err->status = SP_OK;
        err->message[0] = '\0';
    }
}
