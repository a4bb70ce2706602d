/* A whole file in memory, for the fuzz drivers. */
#ifndef SP_FUZZ_LOAD_H
#define SP_FUZZ_LOAD_H

#include <stddef.h>

/* The file's bytes (malloc'ed) and *size, or NULL. */
unsigned char *sp_fuzz_load(const char *path, size_t *size);

#endif
