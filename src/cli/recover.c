/*
 * scope-profiler recover JOURNAL... -o FILE.h5: turns the journals a run
 * left behind (killed, crashed, or ended without sp_finalize) into one
 * profile marked incomplete. Each journal is one process (one rank).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_shown.h"
#include "cli/cli_args.h"
#include "cli/cli_error.h"
#include "cli/cli_files.h"
#include "common/error.h"
#include "format/writer.h"
#include "recover/journal_read.h"

enum { OPT_OUTPUT = 1 };

static const cli_option OPTIONS[] = {
    {"output", 'o', CLI_VALUE, OPT_OUTPUT},
};

static int on_option(void *ctx, int id, const char *value) {
    (void)id;
    *(const char **)ctx = value;
    return 0;
}

/* The whole file (journals are read, never mapped: a file that shrinks while
 * read must not kill the reader). NULL after printing the error. */
static unsigned char *slurp(const char *path, size_t *size) {
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        cli_error("cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        cli_error("%s is not a regular file (give the journal files a run left behind)", path);
        close(fd);
        return NULL;
    }
    size_t cap = (size_t)st.st_size + 1, n = 0;
    unsigned char *buf = malloc(cap);
    if (!buf) {
        cli_error("out of memory reading %s", path);
        close(fd);
        return NULL;
    }
    for (;;) {
        if (n == cap) {
            unsigned char *grown = realloc(buf, cap *= 2);
            if (!grown) {
                free(buf);
                close(fd);
                cli_error("out of memory reading %s", path);
                return NULL;
            }
            buf = grown;
        }
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            cli_error("cannot read %s: %s", path, strerror(errno));
            free(buf);
            close(fd);
            return NULL;
        }
        if (got == 0) break;
        n += (size_t)got;
    }
    close(fd);
    *size = n;
    return buf;
}

static void report_journal(const char *path, const sp_journal *j, uint32_t rank) {
    char ending[200];
    sp_journal_ending_text(j, ending, sizeof ending);
    fprintf(stderr, "scope-profiler: %s: rank %u, process %lld on %s: %s\n", cli_shown(path), rank,
            (long long)j->header.pid, j->header.host[0] ? cli_shown(j->header.host) : "?", ending);
    if (j->torn_chunks || j->damaged_bytes)
        fprintf(stderr,
                "scope-profiler: %s: %llu damaged piece(s) (%llu bytes) skipped: every whole "
                "chunk is kept\n",
                cli_shown(path), (unsigned long long)j->torn_chunks,
                (unsigned long long)j->damaged_bytes);
    if (j->truncated_bytes)
        fprintf(stderr, "scope-profiler: %s: the file is cut short (%llu bytes missing)\n",
                cli_shown(path), (unsigned long long)j->truncated_bytes);
    if (j->failed_checks)
        fprintf(stderr,
                "scope-profiler: %s: %llu chunk(s) whose calls do not match their check value "
                "(damage): their calls are left out\n",
                cli_shown(path), (unsigned long long)j->failed_checks);
    if (j->bad_calls)
        fprintf(stderr, "scope-profiler: %s: %llu damaged call(s) left out\n", cli_shown(path),
                (unsigned long long)j->bad_calls);
    if (j->unnamed_calls)
        fprintf(stderr,
                "scope-profiler: %s: %llu call(s) of regions whose names were lost, left out\n",
                cli_shown(path), (unsigned long long)j->unnamed_calls);
}

/* Journals in rank order: by the ranks their headers name when these are
 * distinct, else in the order given. */
static void order_by_rank(sp_journal **js, const char **paths, size_t n) {
    int usable = 1;
    for (size_t i = 0; i < n && usable; i++) {
        if (js[i]->header.rank < 0) usable = 0;
        for (size_t k = 0; k < i && usable; k++)
            if (js[k]->header.rank == js[i]->header.rank) usable = 0;
    }
    if (!usable) return;
    for (size_t i = 1; i < n; i++)
        for (size_t k = i; k > 0 && js[k - 1]->header.rank > js[k]->header.rank; k--) {
            sp_journal *t = js[k];
            js[k] = js[k - 1];
            js[k - 1] = t;
            const char *p = paths[k];
            paths[k] = paths[k - 1];
            paths[k - 1] = p;
        }
}

static int run(const cli_list *files, const char *out_path) {
    size_t n = files->count;
    sp_journal *store = calloc(n, sizeof *store);
    sp_journal **js = calloc(n, sizeof *js);
    unsigned char **bytes = calloc(n, sizeof *bytes);
    const char **paths = calloc(n, sizeof *paths);
    int rc = CLI_EXIT_USAGE;
    size_t parsed = 0;
    sp_model m;
    memset(&m, 0, sizeof m);
    if (!store || !js || !bytes || !paths) {
        rc = cli_out_of_memory();
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        size_t size = 0;
        paths[i] = files->items[i];
        if (!(bytes[i] = slurp(paths[i], &size))) goto done;
        sp_error err = {SP_OK, ""};
        if (sp_journal_parse(bytes[i], size, paths[i], &store[i], &err) != SP_OK) {
            cli_error("%s (recover reads the journal files NAME.h5.journal-HOST-PID that a run "
                      "left next to its output)",
                      err.message);
            goto done;
        }
        js[i] = &store[i];
        parsed = i + 1;
    }
    order_by_rank(js, paths, n);
    sp_recover_report report;
    sp_error err = {SP_OK, ""};
    if (sp_journal_build_model(js, n, &m, &report, &err) != SP_OK) {
        cli_error_sp(&err);
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        report_journal(paths[i], js[i], (uint32_t)i);
    if (report.open_calls)
        fprintf(stderr,
                "scope-profiler: %llu call(s) still open when the run ended were left out\n",
                (unsigned long long)report.open_calls);
    sp_write_options wo = {SP_COMPRESSION_AUTO, 0};
    if (sp_write_model(&m, out_path, &wo, &err) != SP_OK) {
        cli_error_sp(&err);
        goto done;
    }
    fprintf(stderr,
            "scope-profiler: recovered %llu call(s) of %zu process(es) into %s (marked "
            "incomplete)\n",
            (unsigned long long)report.calls, n, cli_shown(out_path));
    rc = CLI_EXIT_OK;
done:
    sp_model_clear(&m);
    for (size_t i = 0; i < parsed; i++)
        sp_journal_free(&store[i]);
    for (size_t i = 0; bytes && i < n; i++)
        free(bytes[i]);
    free(store);
    free(js);
    free(bytes);
    free(paths);
    return rc;
}

int cli_recover(int argc, char **argv) {
    static const cli_command_spec spec = {"recover", cli_help_recover, OPTIONS,
                                          sizeof OPTIONS / sizeof OPTIONS[0], on_option};
    const char *output = NULL;
    cli_list args = CLI_LIST_INIT, files = CLI_LIST_INIT;
    int rc = cli_parse(&spec, argc, argv, &output, &args);
    if (!rc && !output) rc = cli_usage_error("recover", "no output file given (-o FILE.h5)");
    if (!rc) rc = cli_expand_files("recover", &args, &files);
    if (!rc) rc = run(&files, output);
    cli_list_free(&args);
    cli_list_free(&files);
    return rc == CLI_PARSED_HELP ? CLI_EXIT_OK : rc;
}

const char cli_help_recover[] =
    "Usage: scope-profiler recover JOURNAL... -o FILE.h5\n"
    "\n"
    "Turns the journals of a run that ended without sp_finalize (killed by\n"
    "SIGKILL or SIGTERM, crashed, aborted, a node lost) into a profile. Each\n"
    "journal is one process; the journals of an MPI run's ranks become one file\n"
    "(ranks as the journals name them). Every call that had completed is kept;\n"
    "calls still open at the end are reported and left out; a torn or cut\n"
    "journal keeps every whole chunk and reports what it skipped. The profile's\n"
    "metadata says incomplete = 1 and how the run ended (\"ending\").\n"
    "\n"
    "A journal is NAME.h5.journal-HOST-PID next to the output (or in\n"
    "SCOPE_PROFILER_JOURNAL_DIR); sp_finalize removes it after writing the profile.\n"
    "\n"
    "Options:\n"
    "  -o, --output FILE.h5  the recovered profile (required)\n"
    "\n"
    "Examples:\n"
    "  scope-profiler recover profiling_data.h5.journal-node1-4711 -o run.h5\n"
    "  scope-profiler recover 'run.h5.journal-*' -o run.h5\n";
