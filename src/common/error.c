#include "common/error.h"

#include <stdarg.h>
#include <stdio.h>

sp_status sp_error_vset(sp_error *err, sp_status status, const char *fmt, va_list ap) {
    if (err) {
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        err->status = status;
    }
    return status;
}

sp_status sp_error_set(sp_error *err, sp_status status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    sp_status st = sp_error_vset(err, status, fmt, ap);
    va_end(ap);
    return st;
}

void sp_error_clear(sp_error *err) {
    if (err) {
        err->status = SP_OK;
        err->message[0] = '\0';
    }
}
