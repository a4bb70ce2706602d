/*
 * scope-profiler COMMAND [OPTIONS] FILE...: dispatch to the sub-commands,
 * --help, --version, and the exit status of DESIGN.md §5.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_contain.h"
#include "cli/cli_error.h"
#include "analysis/suggest.h"
#include "scope_profiler.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *help;
} command;

static const command COMMANDS[] = {
    {"inspect", cli_inspect, cli_help_inspect}, {"stats", cli_stats, cli_help_stats},
    {"events", cli_events, cli_help_events},    {"metadata", cli_metadata, cli_help_metadata},
    {"merge", cli_merge, cli_help_merge},       {"diff", cli_diff, cli_help_diff},
    {"check", cli_check, cli_help_check},       {"scaling", cli_scaling, cli_help_scaling},
    {"export", cli_export, cli_help_export},
    {"plot", cli_plot, cli_help_plot},          {"report", cli_report, cli_help_report},
    {"recover", cli_recover, cli_help_recover},
    {"calibrate", cli_calibrate, cli_help_calibrate},
    {"run", cli_run, cli_help_run},
    {"waits", cli_waits, cli_help_waits},
};
#define NUM_COMMANDS (sizeof COMMANDS / sizeof COMMANDS[0])

static const command *find_command(const char *name) {
    for (size_t i = 0; i < NUM_COMMANDS; i++)
        if (strcmp(COMMANDS[i].name, name) == 0) return &COMMANDS[i];
    return NULL;
}

/* "inspect, stats, ..." from the table, so that a new command is listed everywhere. */
typedef struct names_text {
    char text[512];
} names_text;

static names_text command_names(void) {
    names_text n = {{0}};
    size_t len = 0;
    for (size_t i = 0; i < NUM_COMMANDS && len < sizeof n.text; i++)
        len += (size_t)snprintf(n.text + len, sizeof n.text - len, "%s%s", i ? ", " : "",
                                COMMANDS[i].name);
    return n;
}

static int unknown_command(const char *name) {
    const char *names[NUM_COMMANDS + 1];
    for (size_t i = 0; i < NUM_COMMANDS; i++)
        names[i] = COMMANDS[i].name;
    names[NUM_COMMANDS] = "help";
    long close = sp_suggest_name(name, names, NUM_COMMANDS + 1);
    if (close >= 0)
        cli_error("unknown command \"%s\": did you mean \"%s\"? (commands: %s; see "
                  "scope-profiler --help)",
                  name, names[close], command_names().text);
    else
        cli_error("unknown command \"%s\" (commands: %s; see scope-profiler --help)", name,
                  command_names().text);
    return CLI_EXIT_USAGE;
}

/* An option before any command: only --help and --version exist there. */
static int unknown_option(const char *name) {
    static const char *const options[] = {"--help", "--version"};
    long close = sp_suggest_name(name, options, 2);
    if (close >= 0)
        cli_error("unknown option \"%s\": did you mean \"%s\"? (a COMMAND comes first; see "
                  "scope-profiler --help)",
                  name, options[close]);
    else
        cli_error("unknown option \"%s\" (a COMMAND comes first; see scope-profiler --help)", name);
    return CLI_EXIT_USAGE;
}

/* `scope-profiler help [COMMAND]`. */
static int help(int argc, char **argv) {
    if (argc < 3) {
        fputs(cli_help_main, stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0) {
        fputs(cli_help_help, stdout);
        return CLI_EXIT_OK;
    }
    const command *c = find_command(argv[2]);
    if (!c) return unknown_command(argv[2]);
    fputs(c->help, stdout);
    return CLI_EXIT_OK;
}

/* Output that could not be written (a full disk, a closed pipe) is an error too. */
static int finish(int rc) {
    if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_error("cannot write to standard output");
        return rc ? rc : CLI_EXIT_USAGE;
    }
    return rc;
}

static int dispatch(int argc, char **argv) {
    if (argc < 2) {
        cli_error("no command given (commands: %s; see scope-profiler --help)",
                  command_names().text);
        return CLI_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) return help(1, argv);
    if (strcmp(name, "help") == 0) return help(argc, argv);
    if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0) {
        printf("scope-profiler %s\n", SP_VERSION_STRING);
        return CLI_EXIT_OK;
    }
    if (name[0] == '-') return unknown_option(name);
    const command *c = find_command(name);
    if (!c) return unknown_command(name);
    /* calibrate runs for as long as its program runs take, and reads only the files they wrote */
    if (c->run == cli_calibrate) return c->run(argc - 1, argv + 1);
    if (c->run == cli_run) return cli_run(argc - 1, argv + 1); /* executes the program: no child */
    return cli_run_contained(c->run, argc - 1, argv + 1, finish);
}

int main(int argc, char **argv) {
    return finish(dispatch(argc, argv));
}
