/*
 * Function names from code addresses (scope-profiler run --functions): the
 * dynamic symbol (dladdr), else the ELF symbol table of the file the address
 * lies in (static functions; with libelf), C++ names demangled, else
 * MODULE+0xOFFSET. Not for the hot path: it reads files and takes locks.
 */
#ifndef SP_PRELOAD_SYMBOLIZE_H
#define SP_PRELOAD_SYMBOLIZE_H

#include <stddef.h>
#include <stdint.h>

/* Writes the name of the function at addr into out (always terminated). */
void sp_symbolize(uintptr_t addr, char *out, size_t size);

/* Frees the symbol tables read so far. */
void sp_symbolize_forget(void);

#endif
