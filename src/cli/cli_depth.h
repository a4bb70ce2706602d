/* --max-depth N of inspect and export folded: frames (path elements) per call
 * path, the deepest standing for everything below (docs/robustness.md). */
#ifndef SP_CLI_DEPTH_H
#define SP_CLI_DEPTH_H

/* Parses N (2 to 1000000) into *out; 0 or an exit code after the error line. */
int cli_max_depth(const char *cmd, const char *value, unsigned *out);

#endif
