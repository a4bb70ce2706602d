/*
 * The scope-profiler command-line tool: one entry point per sub-command
 * (one source file each) and the exit codes of DESIGN.md §5.
 */
#ifndef SP_CLI_CLI_H
#define SP_CLI_CLI_H

#define CLI_EXIT_OK    0 /* success */
#define CLI_EXIT_CHECK 1 /* a check failed (reserved for checking commands) */
#define CLI_EXIT_USAGE 2 /* a usage or input error */

/* Each runs `scope-profiler NAME ARGS...`: argv[0] is the command name.
 * Returns the exit code. */
int cli_inspect(int argc, char **argv);
int cli_stats(int argc, char **argv);
int cli_events(int argc, char **argv);
int cli_metadata(int argc, char **argv);
int cli_merge(int argc, char **argv);
int cli_diff(int argc, char **argv);
int cli_check(int argc, char **argv);
int cli_scaling(int argc, char **argv);
int cli_waits(int argc, char **argv);
int cli_export(int argc, char **argv);
int cli_plot(int argc, char **argv);
int cli_report(int argc, char **argv);
int cli_recover(int argc, char **argv);
int cli_calibrate(int argc, char **argv);
int cli_run(int argc, char **argv); /* run.c: executes PROGRAM in this process */

/* The help texts (help.c), printed by NAME --help and `scope-profiler help NAME`. */
extern const char cli_help_main[];
extern const char cli_help_help[];
extern const char cli_help_inspect[];
extern const char cli_help_stats[];
extern const char cli_help_events[];
extern const char cli_help_metadata[];
extern const char cli_help_merge[];
extern const char cli_help_diff[];
extern const char cli_help_check[];
extern const char cli_help_scaling[];
extern const char cli_help_waits[];
extern const char cli_help_export[]; /* in export.c */
int cli_export_extrap(int argc, char **argv); /* export_extrap.c */
extern const char cli_help_plot[];   /* help_plot.c */
extern const char cli_help_report[]; /* help_plot.c */
extern const char cli_help_recover[]; /* recover.c */
extern const char cli_help_calibrate[]; /* calibrate.c */
extern const char cli_help_run[];     /* run.c */

#endif
