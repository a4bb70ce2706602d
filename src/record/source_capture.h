/*
 * Source capture: the text of a region's code, read from its source file
 * at finalize. For SP_REGION the block, for SP_PROFILE the enclosing
 * function, for SP_SCOPE the enclosing block, otherwise the line itself.
 */
#ifndef SP_RECORD_SOURCE_CAPTURE_H
#define SP_RECORD_SOURCE_CAPTURE_H

/* The text (owned by the caller), or NULL when the file cannot be read. */
char *sp_source_capture(const char *path, int line);

#endif
