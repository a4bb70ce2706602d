#include "cli/cli_files.h"
#include "cli/cli_shown.h"

#include <glob.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/cli_error.h"

int cli_is_glob(const char *arg) {
    return strpbrk(arg, "*?[") != NULL;
}

static int add_unique(cli_list *out, const char *path, int copy) {
    if (cli_list_contains(out, path)) return 1;
    return copy ? cli_list_add_copy(out, path) : cli_list_add(out, path);
}

static int is_directory(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int expand_pattern(const char *pattern, cli_list *out) {
    glob_t g;
    memset(&g, 0, sizeof g);
    int rc = glob(pattern, 0, NULL, &g);
    if (rc == GLOB_NOSPACE) {
        globfree(&g);
        return cli_out_of_memory();
    }
    if (rc == GLOB_ABORTED) {
        globfree(&g);
        cli_error("%s: cannot read a directory while expanding the pattern", pattern);
        return CLI_EXIT_USAGE;
    }
    size_t matched = 0;
    for (size_t i = 0; rc == 0 && i < g.gl_pathc; i++) {
        if (is_directory(g.gl_pathv[i])) continue;
        matched++;
        if (!add_unique(out, g.gl_pathv[i], 1)) {
            globfree(&g);
            return cli_out_of_memory();
        }
    }
    globfree(&g);
    if (matched == 0) {
        cli_error("no files match \"%s\"", pattern);
        return CLI_EXIT_USAGE;
    }
    return 0;
}

int cli_expand_files(const char *cmd, const cli_list *args, cli_list *out) {
    if (args->count == 0) return cli_usage_error(cmd, "no FILE given");
    for (size_t i = 0; i < args->count; i++) {
        const char *arg = args->items[i];
        struct stat st;
        if (cli_is_glob(arg) && stat(arg, &st) != 0) {
            int rc = expand_pattern(arg, out);
            if (rc) return rc;
        } else if (!add_unique(out, arg, 0)) {
            return cli_out_of_memory();
        }
    }
    return 0;
}

#define CLI_LARGE_OUTPUT 10000000.0 /* bytes */

void cli_print_written(const char *what, const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) {
        printf("%s written to %s\n", what, cli_shown(path));
        return;
    }
    double bytes = (double)st.st_size;
    if (bytes < 1e6) { /* small outputs: the size is no news (and keeps test outputs stable) */
        printf("%s written to %s\n", what, cli_shown(path));
        return;
    }
    printf("%s written to %s (%.2f MB)\n", what, cli_shown(path), bytes / 1e6);
    if (bytes > CLI_LARGE_OUTPUT)
        fprintf(stderr,
                "scope-profiler: warning: %s is %.1f MB (over 10 MB): browsers open it slowly; "
                "select less with --include, --exclude or --ranks\n",
                path, bytes / 1e6);
}
