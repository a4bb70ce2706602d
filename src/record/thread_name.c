/* sp_set_thread_name: the name a thread carries in the thread table. */
#include <pthread.h>
#include <string.h>

#include "record/thread_state.h"

/* Copies at most size - 1 bytes, never cutting a UTF-8 sequence in two. */
static void copy_cut(char *dst, size_t size, const char *src) {
    size_t n = strlen(src);
    if (n >= size) {
        n = size - 1;
        while (n > 0 && ((unsigned char)src[n] & 0xC0) == 0x80)
            n--;
    }
    memcpy(dst, src, n);
    dst[n] = '\0';
}

sp_status sp_set_thread_name(const char *name) {
    if (!name) return SP_ERR_INVALID_ARGUMENT;
    sp_thread *t = sp_current_thread;
    if (!t && !(t = sp_thread_attach())) return SP_ERR_OUT_OF_MEMORY;
    copy_cut(t->name, sizeof t->name, name);
    t->named = 1;
    char system_name[16]; /* Linux's limit, with the terminator */
    copy_cut(system_name, sizeof system_name, name);
    pthread_setname_np(pthread_self(), system_name);
    return SP_OK;
}
