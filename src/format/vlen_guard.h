/*
 * Variable-length strings checked as libhdf5 converts them (issue 22 item 8,
 * docs/robustness.md). The string columns are checked before H5Dread
 * (sp_rd_check_vlen_strings), but attribute values reach libhdf5's heap
 * reader unseen: H5Aread converts them, and libhdf5 1.10 follows a damaged
 * heap reference out of bounds (H5HG_read) or fills a gigabyte a damaged
 * length claims (a damaged character size is refused before, with the
 * string type: sp_rd_string_type_problem). While a read runs, a conversion
 * function wrapping libhdf5's own is registered for variable-length types:
 * when armed, each stored string leaving the profile's file is checked
 * first (vlen_facts.h: its heap object exists with exactly its length, at
 * most SP_MAX_STRING_BYTES) and the conversion fails cleanly on damage.
 */
#ifndef SP_FORMAT_VLEN_GUARD_H
#define SP_FORMAT_VLEN_GUARD_H

#include <hdf5.h>

/* Registers the wrapper and arms it for `file` (when it can be checked). */
void sp_vlen_guard_begin(hid_t file);

/* The first damage found since sp_vlen_guard_begin ("string claims ..."),
 * or NULL. */
const char *sp_vlen_guard_damage(void);

/* Whether a check ran out of memory (the conversion then failed). */
int sp_vlen_guard_out_of_memory(void);

/* Unregisters the wrapper: libhdf5 converts as before for the program. */
void sp_vlen_guard_end(void);

#endif
