/* The program's language, stored as the metadata "source_language". */
#ifndef SP_RECORD_LANGUAGE_H
#define SP_RECORD_LANGUAGE_H

#define SP_LANGUAGE_SIZE 16

/* Copies "c", or what sp_set_source_language() chose, into out. */
void sp_source_language(char out[SP_LANGUAGE_SIZE]);

#endif
