/* Helpers shared by the presenter tests. */
#ifndef SP_TEST_PRESENT_UTIL_H
#define SP_TEST_PRESENT_UTIL_H

#include <stdio.h>
#include <stdlib.h>

/* The whole file as a NUL-terminated string (NULL if unreadable). */
static inline char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t n = fread(buf + len, 1, cap - len - 1, f);
        len += n;
        if (len + 1 < cap) break;
        char *bigger = realloc(buf, cap * 2);
        if (!bigger) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = bigger;
        cap *= 2;
    }
    fclose(f);
    if (buf) buf[len] = '\0';
    return buf;
}

/* Everything a callback printed to a FILE, as a string. */
static inline char *capture(void (*print)(FILE *, void *), void *arg) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return NULL;
    print(f, arg);
    fclose(f);
    return text;
}

#endif
