/*
 * scope-profiler run [OPTIONS] [--] PROGRAM [ARGS...]: profiles a program
 * nobody annotated (docs/run.md). Checks the program (found, executable,
 * dynamically linked, which MPI), puts libscope_profiler_preload.so (and,
 * for an Open MPI program, libscope_profiler_mpi.so and
 * libscope_profiler_preload_fortran.so) in LD_PRELOAD, turns
 * the options into the SCOPE_PROFILER_* variables the libraries read, and
 * executes the program in this process: its pid, exit status and signals
 * are the program's, so mpirun/srun see it as the program itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "common/user_meta.h"
#include "cli/cli_error.h"

extern char **environ;

const char cli_help_run[] =
    "usage: scope-profiler run [OPTIONS] [--] PROGRAM [ARGS...]\n"
    "\n"
    "Runs PROGRAM (no annotations, no relinking) with the profiler preloaded and\n"
    "writes its profile at exit: the whole run as one region, the MPI calls of an\n"
    "Open MPI program (C and Fortran; one file for the job under mpirun/srun),\n"
    "and, with --functions, every function compiled with -finstrument-functions.\n"
    "The summary goes to stderr; the program's output, exit status and signals\n"
    "are its own. Under MPI: mpirun -np 4 scope-profiler run -- ./app\n"
    "\n"
    "options:\n"
    "  -o, --output FILE   the profile (default profiling_data.h5; placeholders as\n"
    "                      SCOPE_PROFILER_OUTPUT: {pid} {rank} {time} ...)\n"
    "  --label TEXT        a label stored with the run\n"
    "  --meta KEY=VALUE    user metadata in /metadata (repeatable; an integer or a\n"
    "                      number is stored as one, anything else as text)\n"
    "  --aggregate         aggregate mode: statistics per call path, no per-call rows\n"
    "  --quiet             no summary table\n"
    "  --mpi-calls         record MPI calls as regions (the default)\n"
    "  --no-mpi-calls      only the run and MPI_Init..MPI_Finalize\n"
    "  --no-openmp         no OpenMP regions (by default, with LLVM's libomp, every\n"
    "                      parallel construct, its implicit tasks and barrier waits)\n"
    "  --functions         record functions built with -finstrument-functions\n"
    "  --include GLOB      only functions whose name matches (repeatable; implies\n"
    "                      --functions)\n"
    "  --exclude GLOB      not functions whose name matches (repeatable)\n"
    "  --follow-exec       also profile programs PROGRAM executes (each its own\n"
    "                      file NAME.exec<PID>.h5); by default they run unprofiled\n"
    "\n"
    "environment (what the options set): SCOPE_PROFILER_RUN_OUTPUT, _RUN_LABEL,\n"
    "_RUN_AGGREGATE, _RUN_QUIET, _RUN_MPI_CALLS, _RUN_OPENMP,\n"
    "SCOPE_PROFILER_FUNCTIONS,\n"
    "_FUNCTIONS_INCLUDE, _FUNCTIONS_EXCLUDE (';' between globs), _FOLLOW_EXEC,\n"
    "_THROTTLE_CALLS, _THROTTLE_NS. Without this command:\n"
    "LD_PRELOAD=libscope_profiler_preload.so ./app (docs/run.md).\n";

typedef struct run_options {
    const char *output, *label;
    int aggregate, quiet, mpi_calls, functions, follow_exec, no_openmp;
    char includes[4096], excludes[4096];
} run_options;

static int append_glob(char *list, size_t size, const char *glob) {
    size_t len = strlen(list);
    int n = snprintf(list + len, size - len, "%s%s", len ? ";" : "", glob);
    return n >= 0 && (size_t)n < size - len;
}

/* --meta KEY=VALUE: SCOPE_PROFILER_METADATA_<KEY> for the program (docs/metadata.md). */
static int set_meta(const char *item) {
    const char *eq = strchr(item, '=');
    char key[SP_USER_META_KEY_MAX + 2] = "";
    size_t len = eq ? (size_t)(eq - item) : 0;
    if (len > SP_USER_META_KEY_MAX) len = SP_USER_META_KEY_MAX + 1; /* fails the check */
    memcpy(key, item, len);
    key[len] = '\0';
    const char *problem = eq ? sp_user_meta_key_problem(key) : "expected KEY=VALUE";
    if (problem) {
        cli_error("run: --meta \"%s\": %s", item, problem);
        return 0;
    }
    char name[sizeof SP_USER_META_ENV_PREFIX + sizeof key]; /* the prefix and any key */
    snprintf(name, sizeof name, "%s%s", SP_USER_META_ENV_PREFIX, key);
    if (setenv(name, eq + 1, 1) == 0) return 1;
    cli_error("run: cannot set %s: %s", name, strerror(errno));
    return 0;
}

/* Parses OPTIONS; returns the index of PROGRAM, or -1 after an error line, or 0 for --help. */
static int parse(int argc, char **argv, run_options *o) {
    o->mpi_calls = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has_value = i + 1 < argc;
        if (strcmp(a, "--") == 0)
            return i + 1 < argc ? i + 1 : (cli_error("run: no PROGRAM given after --"), -1);
        if (a[0] != '-') return i;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) return 0;
        if ((strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) && has_value)
            o->output = argv[++i];
        else if (strcmp(a, "--label") == 0 && has_value)
            o->label = argv[++i];
        else if (strcmp(a, "--meta") == 0 && has_value) {
            if (!set_meta(argv[++i])) return -1;
        } else if (strcmp(a, "--aggregate") == 0)
            o->aggregate = 1;
        else if (strcmp(a, "--quiet") == 0)
            o->quiet = 1;
        else if (strcmp(a, "--mpi-calls") == 0)
            o->mpi_calls = 1;
        else if (strcmp(a, "--no-mpi-calls") == 0)
            o->mpi_calls = 0;
        else if (strcmp(a, "--functions") == 0)
            o->functions = 1;
        else if (strcmp(a, "--no-openmp") == 0)
            o->no_openmp = 1;
        else if (strcmp(a, "--follow-exec") == 0)
            o->follow_exec = 1;
        else if ((strcmp(a, "--include") == 0 || strcmp(a, "--exclude") == 0) && has_value) {
            int include = a[2] == 'i';
            o->functions |= include;
            char *list = include ? o->includes : o->excludes;
            if (!append_glob(list, sizeof o->includes, argv[++i])) {
                cli_error("run: too many --%s globs (4 KiB in all)",
                          include ? "include" : "exclude");
                return -1;
            }
        } else {
            int wants_value = strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0 ||
                              strcmp(a, "--label") == 0 || strcmp(a, "--include") == 0 ||
                              strcmp(a, "--exclude") == 0 || strcmp(a, "--meta") == 0;
            if (wants_value)
                cli_error("run: %s needs a value (see scope-profiler run --help)", a);
            else
                cli_error("run: unknown option \"%s\" (put -- before PROGRAM if it starts with "
                          "'-'; see scope-profiler run --help)",
                          a);
            return -1;
        }
    }
    cli_error("run: no PROGRAM given (usage: scope-profiler run [OPTIONS] -- PROGRAM [ARGS...])");
    return -1;
}

/* PROGRAM as execvp would find it, into out; 0 when not found. */
static int locate(const char *program, char *out, size_t size) {
    if (strchr(program, '/')) {
        snprintf(out, size, "%s", program);
        return access(out, F_OK) == 0;
    }
    const char *path = getenv("PATH");
    if (!path || !*path) path = "/usr/local/bin:/usr/bin:/bin";
    for (const char *p = path; *p;) {
        const char *end = strchr(p, ':');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        snprintf(out, size, "%.*s%s%s", (int)len, len ? p : ".", "/", program);
        struct stat st;
        if (stat(out, &st) == 0 && S_ISREG(st.st_mode) && access(out, X_OK) == 0) return 1;
        if (!end) break;
        p = end + 1;
    }
    return 0;
}

typedef enum program_kind { KIND_DYNAMIC, KIND_STATIC, KIND_SCRIPT, KIND_OTHER } program_kind;

typedef struct program_facts {
    program_kind kind;
    int open_mpi;        /* links Open MPI's libmpi.so.40 */
    char other_mpi[128]; /* another MPI library it links, if any */
} program_facts;

/* What the dynamic loader would load (ldd), scanned for static linking and MPI. */
static void ask_loader(const char *path, program_facts *f) {
    int fds[2];
    if (pipe(fds) != 0) return;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDERR_FILENO);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    char *args[] = {"ldd", (char *)path, NULL};
    pid_t child;
    int rc = posix_spawnp(&child, "ldd", &actions, NULL, args, environ);
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        return; /* no ldd: assume a dynamic program without MPI */
    }
    FILE *in = fdopen(fds[0], "r");
    char line[1024];
    while (in && fgets(line, sizeof line, in)) {
        if (strstr(line, "not a dynamic executable") || strstr(line, "statically linked"))
            f->kind = KIND_STATIC;
        char *name = line + strspn(line, " \t");
        if (strncmp(name, "libmpi.so.40 ", 13) == 0)
            f->open_mpi = 1;
        else if (!f->other_mpi[0] &&
                 (strncmp(name, "libmpich", 8) == 0 || strncmp(name, "libmpi.so", 9) == 0 ||
                  strncmp(name, "libmpi_ibm", 10) == 0 || strncmp(name, "libmpifort", 10) == 0)) {
            size_t len = strcspn(name, " \t\n");
            snprintf(f->other_mpi, sizeof f->other_mpi, "%.*s", (int)len, name);
        }
    }
    if (in)
        fclose(in);
    else
        close(fds[0]);
    int status;
    waitpid(child, &status, 0);
}

static void inspect(const char *path, program_facts *f) {
    memset(f, 0, sizeof *f);
    f->kind = KIND_OTHER;
    unsigned char head[4] = {0};
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n = fd >= 0 ? read(fd, head, sizeof head) : -1;
    if (fd >= 0) close(fd);
    if (n >= 2 && head[0] == '#' && head[1] == '!') f->kind = KIND_SCRIPT;
    if (n == 4 && memcmp(head, "\177ELF", 4) == 0) {
        f->kind = KIND_DYNAMIC;
        ask_loader(path, f);
    }
}

/* The directory of this executable, into out. */
static void own_directory(char *out, size_t size) {
    ssize_t n = readlink("/proc/self/exe", out, size - 1);
    out[n > 0 ? n : 0] = '\0';
    char *slash = strrchr(out, '/');
    if (slash) *slash = '\0';
}

/* A library beside the installed tool, else where the build put it. */
static int find_library(const char *name, const char *built, char *out, size_t size) {
    char dir[PATH_MAX];
    own_directory(dir, sizeof dir);
    int n = snprintf(out, size, "%s/%s/%s", dir, SP_RUN_RELATIVE_LIBDIR, name);
    if (n > 0 && (size_t)n < size && access(out, R_OK) == 0) return 1;
    snprintf(out, size, "%s", built);
    return built[0] && access(out, R_OK) == 0;
}

static int set(const char *name, const char *value) {
    if (setenv(name, value, 1) == 0) return 1;
    cli_error("run: cannot set %s: %s", name, strerror(errno));
    return 0;
}

static int apply(const run_options *o) {
    int ok = 1;
    /* run's own variables (common/run_options.h): a program's sp_setup() keeps its settings */
    if (o->output) ok &= set("SCOPE_PROFILER_RUN_OUTPUT", o->output);
    if (o->label) ok &= set("SCOPE_PROFILER_RUN_LABEL", o->label);
    if (o->aggregate) ok &= set("SCOPE_PROFILER_RUN_AGGREGATE", "1");
    if (o->quiet) ok &= set("SCOPE_PROFILER_RUN_QUIET", "1");
    ok &= set("SCOPE_PROFILER_RUN_MPI_CALLS", o->mpi_calls ? "1" : "0");
    if (o->functions) ok &= set("SCOPE_PROFILER_FUNCTIONS", "1");
    if (o->no_openmp) ok &= set("SCOPE_PROFILER_RUN_OPENMP", "0");
    if (o->includes[0]) ok &= set("SCOPE_PROFILER_FUNCTIONS_INCLUDE", o->includes);
    if (o->excludes[0]) ok &= set("SCOPE_PROFILER_FUNCTIONS_EXCLUDE", o->excludes);
    if (o->follow_exec) ok &= set("SCOPE_PROFILER_FOLLOW_EXEC", "1");
    char pid[32];
    snprintf(pid, sizeof pid, "%ld", (long)getpid()); /* exec keeps it: the program's pid */
    return ok & set("SCOPE_PROFILER_RUN_PID", pid);
}

static int preload(const program_facts *f, const char *program) {
    char lib[PATH_MAX], mpi[PATH_MAX], fortran[PATH_MAX], value[4 * PATH_MAX];
    if (!find_library("libscope_profiler_preload.so", SP_RUN_BUILT_PRELOAD, lib, sizeof lib)) {
        cli_error("run: libscope_profiler_preload.so is not installed beside scope-profiler "
                  "(looked in %s); reinstall scope-profiler",
                  SP_RUN_RELATIVE_LIBDIR);
        return 0;
    }
    int with_mpi = 0;
    if (f->open_mpi) {
        /* the C wrappers, then the Fortran bindings' (preloaded only: fortran_calls.c) */
        with_mpi = find_library("libscope_profiler_mpi.so", SP_RUN_BUILT_MPI, mpi, sizeof mpi) &&
                   find_library("libscope_profiler_preload_fortran.so", SP_RUN_BUILT_FORTRAN,
                                fortran, sizeof fortran);
        if (!with_mpi)
            cli_warn("run: %s uses MPI, but this scope-profiler was built without MPI support: "
                     "each process writes its own file and MPI calls are not recorded",
                     program);
    } else if (f->other_mpi[0])
        cli_warn("run: %s uses %s, not Open MPI (libmpi.so.40), which the MPI wrappers are "
                 "built for: running without them (each process writes its own file; no MPI "
                 "calls)",
                 program, f->other_mpi);
    const char *old = getenv("LD_PRELOAD");
    snprintf(value, sizeof value, "%s%s%s%s%s%s%s", lib, with_mpi ? ":" : "", with_mpi ? mpi : "",
             with_mpi ? ":" : "", with_mpi ? fortran : "", old && *old ? ":" : "",
             old && *old ? old : "");
    return set("LD_PRELOAD", value);
}

int cli_run(int argc, char **argv) {
    run_options o;
    memset(&o, 0, sizeof o);
    int first = parse(argc, argv, &o);
    if (first == 0) {
        fputs(cli_help_run, stdout);
        return CLI_EXIT_OK;
    }
    if (first < 0) return CLI_EXIT_USAGE;
    const char *program = argv[first];
    char path[PATH_MAX];
    if (!locate(program, path, sizeof path)) {
        if (strchr(program, '/'))
            cli_error("run: %s: no such file", program);
        else
            cli_error("run: %s: command not found in PATH", program);
        return CLI_EXIT_USAGE;
    }
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || access(path, X_OK) != 0) {
        cli_error("run: %s: not an executable file (check its permissions: chmod +x)", program);
        return CLI_EXIT_USAGE;
    }
    program_facts facts;
    inspect(path, &facts);
    if (facts.kind == KIND_STATIC) {
        cli_error("run: %s is statically linked, so no library can be preloaded into it: "
                  "link it dynamically, or link libscope_profiler and call sp_setup() "
                  "(docs/run.md, \"Static programs\")",
                  program);
        return CLI_EXIT_USAGE;
    }
    if (!apply(&o) || !preload(&facts, program)) return CLI_EXIT_USAGE;
    fflush(NULL);
    execv(path, argv + first);
    cli_error("run: cannot execute %s: %s", program, strerror(errno));
    return CLI_EXIT_USAGE;
}
