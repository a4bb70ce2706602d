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

sp_status sp_write_text_file(const char *path, const char *text, size_t len, sp_error *err);

#endif
