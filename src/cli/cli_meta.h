/* User metadata on the command line: a run's value of a key as text (titles,
 * --group-by) and KEY[,KEY] lists. */
#ifndef SP_CLI_META_H
#define SP_CLI_META_H

#include "cli/cli_list.h"
#include "common/text_buffer.h"
#include "scope_profiler/results.h"

/* Appends the value of `key` in the run (ints as digits, floats as Python
 * prints them, lists joined by ","); 0 when the run has no such key. */
int cli_meta_value_text(const sp_results *run, const char *key, sp_textbuf *out);

/* Splits "a,b" into keys (no empty ones); 0 or an exit code after one error line. */
int cli_meta_keys(const char *cmd, const char *option, const char *value, cli_list *keys);

/* " [k=v, k2=v2]" of the keys for a title; a key the run lacks shows as "k=?". */
void cli_meta_title_suffix(const sp_results *run, const cli_list *keys, sp_textbuf *out);

#endif
