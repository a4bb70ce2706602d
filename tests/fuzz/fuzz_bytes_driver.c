/*
 * Plain driver of the byte-level fuzzer (any compiler, run by ctest):
 * replays tests/fuzz/regressions_bytes, then flips bytes of the real
 * profiles in tests/fixtures with a fixed seed. Each input is read in a
 * child process with a time limit; a crash or a hang inside libhdf5 is then
 * checked against the CLI, which must contain it (one line, exit 2). A kept
 * input must read without a crash or hang in the reading process itself
 * (sp_read() in a user's program), unless its name starts with "contained-".
 * After every read the child shuts libhdf5 down (H5close) and fails when
 * it reports that it cannot.
 *
 *   fuzz_bytes_driver CLI SEED COUNT FIXTURE.h5... [-r REGRESSION_DIR] [-c FOUND_DIR]
 *
 * FOUND_DIR holds a fuzzer's fresh finds (scripts/test): each must be
 * contained by the CLI; reading it in-process is what a kept input in the
 * regression directory proves, once the reader avoids its libhdf5 failure.
 *
 * With SP_FUZZ_SAVE=DIR, each input that crashes, hangs or leaks is written
 * to DIR/<kind>-<n>.bin (candidates for the regression directory).
 */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <hdf5.h>

#include "fuzz_bytes.h"
#include "fuzz_load.h"

/* Whether libhdf5 can shut down after the read: H5close reports a library
 * it cannot close on stderr ("infinite loop closing library"), so its stderr
 * goes to a file that is searched afterwards. */
static int shuts_down(void) {
    char path[] = "/tmp/sp_fuzz_close_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return 1;
    int saved = dup(2);
    dup2(fd, 2);
    H5close();
    dup2(saved, 2);
    close(saved);
    size_t size = 0;
    unsigned char *text = sp_fuzz_load(path, &size);
    int ok = !text || !memmem(text, size, "infinite loop", 13);
    free(text);
    close(fd);
    unlink(path);
    return ok;
}

/* 0 read fine or refused, 1 crashed, 2 hung, 3 left HDF5 identifiers open,
 * 4 libhdf5 could not shut down afterwards. */
static int read_in_child(const unsigned char *data, size_t size) {
    pid_t pid = fork();
    if (pid == 0) {
        alarm(10);
        if (sp_fuzz_bytes_one(data, size) == 2) _exit(3);
        _exit(shuts_down() ? 0 : 4);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
    if (WIFEXITED(status) && (WEXITSTATUS(status) == 3 || WEXITSTATUS(status) == 4))
        return WEXITSTATUS(status);
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM ? 2 : 1;
}

/* The CLI on the same bytes: one "scope-profiler: " line and exit 2, or success. */
static int cli_contains(const char *cli, const unsigned char *data, size_t size) {
    char dir[] = "/tmp/sp_fuzz_bytes_XXXXXX";
    if (!mkdtemp(dir)) return 0;
    char path[128], err_path[128], cmd[1024];
    snprintf(path, sizeof path, "%s/in.h5", dir);
    snprintf(err_path, sizeof err_path, "%s/err", dir);
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(data, 1, size, f);
        fclose(f);
    }
    snprintf(cmd, sizeof cmd, "SCOPE_PROFILER_CLI_TIMEOUT=10 '%s' inspect '%s' >/dev/null 2>'%s'",
             cli, path, err_path);
    int rc = system(cmd);
    size_t err_size = 0;
    unsigned char *err = sp_fuzz_load(err_path, &err_size);
    int lines = 0;
    for (size_t i = 0; err && i < err_size; i++)
        lines += err[i] == '\n';
    int ok = WIFEXITED(rc) &&
             (WEXITSTATUS(rc) == 0 || (WEXITSTATUS(rc) == 2 && lines == 1 && err &&
                                       strncmp((char *)err, "scope-profiler: ", 16) == 0));
    if (!ok) fprintf(stderr, "CLI: exit %d, stderr: %.*s\n", WEXITSTATUS(rc), (int)err_size, err);
    free(err);
    unlink(path);
    unlink(err_path);
    rmdir(dir);
    return ok;
}

static int failures, crashes, hangs, leaks, loops, inputs;

/* in_process: the read must end in results or an error status in the reading
 * process itself, not only be contained by the CLI. */
static void check(const char *cli, const unsigned char *data, size_t size, const char *what,
                  int in_process) {
    inputs++;
    int r = read_in_child(data, size);
    if (r == 0) return;
    const char *save = getenv("SP_FUZZ_SAVE");
    if (save && *save) {
        static const char *const kinds[] = {"", "crash", "hang", "leak", "shutdown-loop"};
        char path[4096];
        snprintf(path, sizeof path, "%s/%s-%d.bin", save, kinds[r], inputs);
        FILE *f = fopen(path, "wb");
        if (f) {
            fwrite(data, 1, size, f);
            fclose(f);
        }
    }
    if (r == 3) { /* the reader's own fault, not libhdf5's: nothing to contain */
        leaks++;
        failures++;
        fprintf(stderr, "FAIL: %s left HDF5 identifiers open after the read\n", what);
        return;
    }
    if (r == 4) { /* libhdf5 keeps blocks of its free lists after some failed reads: counted */
        loops++;
        fprintf(stderr, "note: %s left libhdf5 unable to shut down (H5close loops)\n", what);
        return;
    }
    if (r == 1) crashes++;
    if (r == 2) hangs++;
    if (in_process) { /* a kept input whose libhdf5 failure the reader now avoids */
        failures++;
        fprintf(stderr, "FAIL: %s %s inside a program that calls sp_read()\n", what,
                r == 1 ? "crashes" : "hangs");
        return;
    }
    if (!cli_contains(cli, data, size)) {
        failures++;
        fprintf(stderr, "FAIL: %s %s and the CLI did not contain it\n", what,
                r == 1 ? "crashes libhdf5" : "hangs");
    }
}

/* Every file of dir; kept regressions (strict) must read in-process unless
 * named contained-*, fresh finds only need the CLI to contain them. */
static void replay(const char *cli, const char *dir, int strict) {
    DIR *d = dir ? opendir(dir) : NULL;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "README") == 0) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t size;
        unsigned char *data = sp_fuzz_load(path, &size);
        if (data)
            check(cli, data, size, e->d_name,
                  strict && strncmp(e->d_name, "contained-", 10) != 0);
        free(data);
    }
    if (d) closedir(d);
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: fuzz_bytes_driver CLI SEED COUNT FIXTURE.h5... [-r DIR]\n");
        return 2;
    }
    const char *cli = argv[1];
    unsigned long seed = strtoul(argv[2], NULL, 10);
    long count = strtol(argv[3], NULL, 10);
    const char *regressions = NULL, *found = NULL;
    int num_fixtures = 0;
    const char *fixtures[32];
    for (int i = 4; i < argc; i++) {
        if (strcmp(argv[i], "-r") == 0 && i + 1 < argc)
            regressions = argv[++i];
        else if (strcmp(argv[i], "-c") == 0 && i + 1 < argc)
            found = argv[++i];
        else if (num_fixtures < 32)
            fixtures[num_fixtures++] = argv[i];
    }
    /* the harness must read the unmodified profiles, or it tests nothing */
    for (int i = 0; i < num_fixtures; i++) {
        size_t size;
        unsigned char *data = sp_fuzz_load(fixtures[i], &size);
        int failed = !data || sp_fuzz_bytes_one(data, size) != 0;
        free(data);
        if (failed) {
            fprintf(stderr, "fuzz_bytes_driver: the harness cannot read the unmodified %s\n",
                    fixtures[i]);
            return 1;
        }
    }
    replay(cli, regressions, 1);
    replay(cli, found, 0);
    srand((unsigned)seed);
    for (long n = 0; n < count && num_fixtures; n++) {
        size_t size;
        unsigned char *data = sp_fuzz_load(fixtures[n % num_fixtures], &size);
        if (!data) continue;
        int flips = 1 + rand() % 8;
        for (int k = 0; k < flips; k++)
            data[(size_t)rand() % size] ^= (unsigned char)(1 + rand() % 255);
        char what[64];
        snprintf(what, sizeof what, "mutation %ld", n);
        check(cli, data, size, what, 0);
        free(data);
    }
    printf("%d inputs: %d crashed and %d hung inside the reader's process (all contained by the "
           "CLI: %s); %d left HDF5 identifiers open; %d left libhdf5 unable to shut down\n",
           inputs, crashes, hangs, failures ? "NO" : "yes", leaks, loops);
    return failures ? 1 : 0;
}
