/* sp_set_source_language: "c", "c++" or "fortran" in the run's metadata. */
#include "record/language.h"

#include <pthread.h>
#include <string.h>

#include "scope_profiler.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char language[SP_LANGUAGE_SIZE] = "c";

void sp_set_source_language(const char *name) {
    pthread_mutex_lock(&lock);
    if (!name || !*name) name = "c";
    size_t n = strlen(name);
    if (n >= sizeof language) n = sizeof language - 1;
    memcpy(language, name, n);
    language[n] = '\0';
    pthread_mutex_unlock(&lock);
}

void sp_source_language(char out[SP_LANGUAGE_SIZE]) {
    pthread_mutex_lock(&lock);
    memcpy(out, language, sizeof language);
    pthread_mutex_unlock(&lock);
}
