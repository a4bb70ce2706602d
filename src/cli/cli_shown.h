/*
 * Text of a file (names, labels, paths, metadata) as the terminal may show
 * it: every string the CLI prints for people goes through the one escaping
 * of common/terminal_text.h (issue 22 item 5).
 */
#ifndef SP_CLI_SHOWN_H
#define SP_CLI_SHOWN_H

/* s made safe for a terminal; valid until 16 more calls ("?" when out of memory). */
const char *cli_shown(const char *s);

#endif
