/*
 * Containment of the HDF5 library (docs/robustness.md): a damaged file can
 * make libhdf5 crash or loop where our own checks cannot see. The command
 * runs in a child process with a time limit; if the child dies of a signal
 * or runs out of time, the parent prints one line naming the file being read
 * and exits with status 2.
 */
#ifndef SP_CLI_CONTAIN_H
#define SP_CLI_CONTAIN_H

/* Runs run(argc, argv) then finish(rc) in a child (unless
 * SCOPE_PROFILER_CONTAIN=0); returns its exit status. */
int cli_run_contained(int (*run)(int, char **), int argc, char **argv, int (*finish)(int));

/* Notes the file about to be read (named if the reading crashes). */
void cli_reading(const char *path);

#endif
