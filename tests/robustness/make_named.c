/*
 * Records one call of each region named on the command line (arguments in C
 * escapes: \xNN, \e, \t, \n, \\) into OUT through the library, so that the
 * names reach the file exactly as a program would write them.
 *
 * Usage: make_named OUT NAME...
 * With MAKE_NAMED_THREAD set (same escapes), one more call of "threaded" is
 * recorded on a second thread of that name (sp_set_thread_name).
 */
#include <pthread.h>
#include <scope_profiler.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* The argument with its escapes turned into bytes (in place). */
static char *unescape(char *s) {
    char *o = s;
    for (const char *p = s; *p; p++) {
        if (*p != '\\' || !p[1]) {
            *o++ = *p;
            continue;
        }
        p++;
        if (*p == 'x' && hex_digit(p[1]) >= 0 && hex_digit(p[2]) >= 0) {
            *o++ = (char)(hex_digit(p[1]) * 16 + hex_digit(p[2]));
            p += 2;
        } else {
            *o++ = *p == 'e' ? '\x1b' : *p == 't' ? '\t' : *p == 'n' ? '\n' : *p;
        }
    }
    *o = '\0';
    return s;
}

/* Each call lasts at least 1 us: a back-to-back pair can measure 0 ns, and
 * the folded export (rightly) drops a stack of weight 0, which made
 * robust_names fail now and then. */
static void spin_1us(void) {
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    do {
        clock_gettime(CLOCK_MONOTONIC, &b);
    } while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < 1000);
}

static void *named_thread(void *name) {
    sp_set_thread_name(name);
    sp_region_t h = sp_region("threaded");
    sp_begin(h);
    sp_end(h);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: make_named OUT NAME...\n");
        return 2;
    }
    sp_options o = {.file_path = argv[1], .label = "names"};
    if (sp_setup(&o) != SP_OK) return 1;
    for (int i = 2; i < argc; i++) {
        sp_region_t h = sp_region(unescape(argv[i]));
        sp_begin(h);
        spin_1us();
        sp_end(h);
    }
    char *thread_name = getenv("MAKE_NAMED_THREAD");
    if (thread_name) {
        pthread_t t;
        if (pthread_create(&t, NULL, named_thread, unescape(thread_name)) != 0) return 1;
        pthread_join(t, NULL);
    }
    sp_finalize_options fo = {.quiet = 1};
    return sp_finalize(&fo) == SP_OK ? 0 : 1;
}
