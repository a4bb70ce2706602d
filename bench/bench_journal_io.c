/*
 * bench_journal_io: what the journal costs in I/O (issue 15), journal against
 * memory only, each in fresh processes (median of 5):
 *   1. a run of N calls (default 10 M) at full speed, then sp_finalize: the
 *      bytes the process dirtied while recording and the bytes it sent to
 *      storage in all (/proc/self/io: write_bytes minus cancelled_write_bytes:
 *      journal pages dropped unwritten when the journal is deleted cancel);
 *   2. the same while another process writes 4 MiB pieces with fdatasync
 *      into $TMPDIR: the pair's ratio to the two TSC reads (wall and thread
 *      CPU) and the writer's throughput during the run;
 *   3. with --long SECONDS (e.g. 45, beyond vm.dirty_expire_centisecs): a
 *      paced run (bursts of 100,000 pairs every 100 ms, 16 MB/s of journal),
 *      the pair's thread CPU per burst before and after the kernel starts
 *      writing the journal back, and the bytes written back.
 * Usage: bench_journal_io [calls] [--long SECONDS]
 */
#include <fcntl.h>
#include <scope_profiler.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#define RUNS 5

static double clock_s(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static volatile uint64_t sink;

/* Thread CPU ns per iteration of the two bare reads. */
static double bare_cpu_ns(long n) {
    uint64_t acc = 0;
    double c0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
    for (long i = 0; i < n; i++) {
#if defined(__x86_64__)
        uint64_t a = __rdtsc();
        uint64_t b = __rdtsc();
        acc += b - a;
#else
        acc += (uint64_t)i;
#endif
    }
    sink += acc;
    return (clock_s(CLOCK_THREAD_CPUTIME_ID) - c0) * 1e9 / (double)n;
}

/* Bytes this process sent to storage so far (written minus cancelled);
 * *dirtied: the bytes it dirtied at all. */
static double storage_bytes_dirtied(double *dirtied) {
    FILE *f = fopen("/proc/self/io", "r");
    if (!f) return -1;
    char line[128];
    long long written = 0, cancelled = 0, v;
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "write_bytes: %lld", &v) == 1) written = v;
        if (sscanf(line, "cancelled_write_bytes: %lld", &v) == 1) cancelled = v;
    }
    fclose(f);
    if (dirtied) *dirtied = (double)written;
    return (double)(written - cancelled);
}

/* Pages the whole system wrote back so far (/proc/vmstat nr_written), in MB. */
static double system_written_mb(void) {
    FILE *f = fopen("/proc/vmstat", "r");
    if (!f) return -1;
    char line[128];
    long long pages = -1, v;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "nr_written %lld", &v) == 1) pages = v;
    fclose(f);
    return (double)pages * 4096 / 1e6;
}

static double storage_bytes(void) {
    return storage_bytes_dirtied(NULL);
}

static void start(const char *dir, int journal) {
    static char path[4096];
    snprintf(path, sizeof path, "%s/bench_journal_io_%ld.h5", dir, (long)getpid());
    setenv("SCOPE_PROFILER_JOURNAL", journal ? "1" : "0", 1);
    setenv("SCOPE_PROFILER_CLOCK", "tsc", 1);
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = path;
    opt.compression = SP_COMPRESSION_NONE;
    if (sp_setup(&opt) != SP_OK) exit(1);
}

static void finish(const char *dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/bench_journal_io_%ld.h5", dir, (long)getpid());
    sp_finalize_options quiet = {.quiet = 1};
    sp_finalize(&quiet);
    unlink(path);
}

/* Child of parts 1 and 2: prints "wall_ratio cpu_ratio MB_net_before_finalize MB_dirtied
 * MB_net_all". */
static int full_speed_child(const char *dir, int journal, long n) {
    double bare = bare_cpu_ns(n);
    double dirtied0 = 0;
    double io0 = storage_bytes_dirtied(&dirtied0);
    start(dir, journal);
    sp_region_t h = sp_region("bench");
    double bare_wall0 = clock_s(CLOCK_MONOTONIC);
    bare_cpu_ns(n / 10);
    double bare_wall = (clock_s(CLOCK_MONOTONIC) - bare_wall0) * 1e10 / (double)n;
    double c0 = clock_s(CLOCK_THREAD_CPUTIME_ID), t0 = clock_s(CLOCK_MONOTONIC);
    for (long i = 0; i < n; i++) {
        sp_begin(h);
        sp_end(h);
    }
    double wall = (clock_s(CLOCK_MONOTONIC) - t0) * 1e9 / (double)n;
    double cpu = (clock_s(CLOCK_THREAD_CPUTIME_ID) - c0) * 1e9 / (double)n;
    double dirtied = 0;
    double before = storage_bytes_dirtied(&dirtied) - io0;
    finish(dir);
    printf("%.4f %.4f %.3f %.3f %.3f\n", wall / bare_wall, cpu / bare, before / 1e6,
           (dirtied - dirtied0) / 1e6, (storage_bytes() - io0) / 1e6);
    return 0;
}

/* Part 3's child: prints the thread CPU per pair of each burst as "second ns". */
static int long_child(const char *dir, int journal, int seconds) {
    enum { BURST = 100000 };
    double bare = bare_cpu_ns(1000000);
    double io0 = storage_bytes(), system0 = system_written_mb();
    start(dir, journal);
    sp_region_t h = sp_region("paced");
    double begin = clock_s(CLOCK_MONOTONIC);
    for (int b = 0; b < seconds * 10; b++) {
        double c0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
        for (int i = 0; i < BURST; i++) {
            sp_begin(h);
            sp_end(h);
        }
        double cpu = (clock_s(CLOCK_THREAD_CPUTIME_ID) - c0) * 1e9 / BURST;
        printf("burst %.1f %.4f\n", clock_s(CLOCK_MONOTONIC) - begin, cpu / bare);
        double next = begin + 0.1 * (b + 1), now = clock_s(CLOCK_MONOTONIC);
        if (next > now) usleep((useconds_t)((next - now) * 1e6));
    }
    double system = system_written_mb() - system0;
    finish(dir);
    printf("written %.1f %.1f\n", system, (storage_bytes() - io0) / 1e6);
    return 0;
}

/* The competing writer: 4 MiB pieces with fdatasync until killed; prints MB/s
 * on SIGTERM. */
static volatile sig_atomic_t writer_stop;
static void on_term(int sig) {
    (void)sig;
    writer_stop = 1;
}

static pid_t start_writer(const char *dir, int *result_fd) {
    int fds[2];
    if (pipe(fds) != 0) return -1;
    pid_t pid = fork();
    if (pid != 0) {
        close(fds[1]);
        *result_fd = fds[0];
        return pid;
    }
    close(fds[0]);
    signal(SIGTERM, on_term);
    char path[4096];
    snprintf(path, sizeof path, "%s/bench_journal_io_writer_%ld", dir, (long)getpid());
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    unlink(path);
    static char piece[4 << 20];
    memset(piece, 'w', sizeof piece);
    double bytes = 0, t0 = clock_s(CLOCK_MONOTONIC);
    long pieces = 0;
    while (!writer_stop && fd >= 0) {
        if (pwrite(fd, piece, sizeof piece, (off_t)(pieces % 64) * (off_t)sizeof piece) < 0) break;
        fdatasync(fd);
        bytes += sizeof piece;
        pieces++;
    }
    char line[64];
    int len = snprintf(line, sizeof line, "%.2f\n", bytes / 1e6 / (clock_s(CLOCK_MONOTONIC) - t0));
    if (write(fds[1], line, (size_t)len) < 0) _exit(1);
    _exit(0);
}

static int run(const char *self, char *const args[], char *out, size_t size) {
    int fds[2];
    if (pipe(fds) != 0) return 0;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        execv(self, args);
        _exit(127);
    }
    close(fds[1]);
    size_t got = 0;
    ssize_t r;
    while (got + 1 < size && (r = read(fds[0], out + got, size - 1 - got)) > 0)
        got += (size_t)r;
    out[got] = '\0';
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static int compare_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v) {
    qsort(v, RUNS, sizeof *v, compare_double);
    return v[RUNS / 2];
}

static void full_speed(const char *dir, long n, int with_writer) {
    char calls[32];
    snprintf(calls, sizeof calls, "%ld", n);
    for (int journal = 1; journal >= 0; journal--) {
        double wall[RUNS], cpu[RUNS], mb[RUNS], dirtied[RUNS], all[RUNS], writer[RUNS];
        for (int r = 0; r < RUNS; r++) {
            int writer_fd = -1;
            pid_t w = with_writer ? start_writer(dir, &writer_fd) : -1;
            if (with_writer) usleep(300000); /* the writer at its pace */
            char *args[] = {"bench_journal_io",  "--child", (char *)dir,
                            journal ? "1" : "0", calls,     NULL};
            char out[256];
            if (!run("/proc/self/exe", args, out, sizeof out) ||
                sscanf(out, "%lf %lf %lf %lf %lf", &wall[r], &cpu[r], &mb[r], &dirtied[r],
                       &all[r]) != 5) {
                fprintf(stderr, "bench_journal_io: a child failed\n");
                exit(1);
            }
            writer[r] = 0;
            if (w > 0) {
                kill(w, SIGTERM);
                char line[64] = "";
                ssize_t got = read(writer_fd, line, sizeof line - 1);
                if (got > 0) line[got] = '\0';
                writer[r] = atof(line);
                close(writer_fd);
                waitpid(w, NULL, 0);
            }
        }
        printf("%-7s %s: pair %.2fx the reads (thread CPU %.2fx); %.1f MB dirtied while "
               "recording; %.1f MB sent to storage in all (the profile; a journal deleted "
               "before write-back is never written)",
               journal ? "journal" : "memory", with_writer ? "with a writer" : "alone",
               median(wall), median(cpu), median(dirtied), median(all));
        if (with_writer) printf("; writer %.1f MB/s", median(writer));
        printf("\n");
    }
}

static void paced(const char *self, const char *dir, int seconds) {
    char secs[16];
    snprintf(secs, sizeof secs, "%d", seconds);
    for (int journal = 1; journal >= 0; journal--) {
        char *args[] = {"bench_journal_io",  "--long-child", (char *)dir,
                        journal ? "1" : "0", secs,           NULL};
        static char out[1 << 20];
        if (!run(self, args, out, sizeof out)) {
            fprintf(stderr, "bench_journal_io: a paced child failed\n");
            exit(1);
        }
        /* medians of the bursts in each 10 s window */
        double windows[64][64];
        int count[64] = {0};
        double written = 0, written_all = 0, at, ratio;
        for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
            if (sscanf(line, "burst %lf %lf", &at, &ratio) == 2) {
                int w = (int)(at / 10);
                if (w < 64 && count[w] < 64) windows[w][count[w]++] = ratio;
            }
            sscanf(line, "written %lf %lf", &written, &written_all);
        }
        printf("%-7s paced %d s (16 MB/s of calls): pair thread CPU / reads, per 10 s window:",
               journal ? "journal" : "memory", seconds);
        for (int w = 0; w < 64 && count[w]; w++) {
            qsort(windows[w], (size_t)count[w], sizeof **windows, compare_double);
            printf(" %.2fx", windows[w][count[w] / 2]);
        }
        printf("; the system wrote back %.1f MB during the run (all processes); this one sent "
               "%.1f MB to storage in all\n",
               written, written_all);
    }
}

int main(int argc, char **argv) {
    if (argc == 5 && strcmp(argv[1], "--child") == 0)
        return full_speed_child(argv[2], atoi(argv[3]), atol(argv[4]));
    if (argc == 5 && strcmp(argv[1], "--long-child") == 0)
        return long_child(argv[2], atoi(argv[3]), atoi(argv[4]));
    long n = 10000000;
    int seconds = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--long") == 0 && i + 1 < argc)
            seconds = atoi(argv[++i]);
        else
            n = atol(argv[i]);
    }
    const char *tmp = getenv("TMPDIR");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", tmp && *tmp ? tmp : "/tmp");
    printf("== journal I/O: medians of %d fresh processes, %ld calls of one region each\n", RUNS,
           n);
    full_speed(dir, n, 0);
    full_speed(dir, n, 1);
    if (seconds > 0) paced("/proc/self/exe", dir, seconds);
    return 0;
}
