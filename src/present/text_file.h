/*
 * Writing an export file: parent directories are created (as the Python
 * package does), the text goes to a temporary file in the target directory
 * that is renamed over the target once complete, so a failure never leaves
 * a partial file. Error messages name the path.
 */
#ifndef SP_PRESENT_TEXT_FILE_H
#define SP_PRESENT_TEXT_FILE_H

#include <stddef.h>

#include "scope_profiler/results.h"

#include <stdio.h>

sp_status sp_write_text_file(const char *path, const char *text, size_t len, sp_error *err);

/* The same for a text written piece by piece: produce() writes it to f and
 * returns SP_OK, or an error status (with err set) that abandons the file. */
typedef sp_status (*sp_text_producer)(void *ctx, FILE *f, sp_error *err);
sp_status sp_write_text_stream(const char *path, sp_text_producer produce, void *ctx,
                               sp_error *err);

#endif
