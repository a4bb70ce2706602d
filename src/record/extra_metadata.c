/* sp_set_metadata_string: a program's own keys in the run's metadata. */
#include "record/extra_metadata.h"

#include "scope_profiler.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct extra_item {
    char *key;
    char *value;
} extra_item;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static extra_item *items;
static size_t num_items, cap_items;

static long find(const char *key) {
    for (size_t i = 0; i < num_items; i++)
        if (!strcmp(items[i].key, key)) return (long)i;
    return -1;
}

static sp_status set_locked(const char *key, const char *value) {
    long at = find(key);
    if (!value) {
        if (at >= 0) {
            free(items[at].key);
            free(items[at].value);
            memmove(&items[at], &items[at + 1], (num_items - (size_t)at - 1) * sizeof *items);
            num_items--;
        }
        return SP_OK;
    }
    char *copy = strdup(value);
    if (!copy) return SP_ERR_OUT_OF_MEMORY;
    if (at >= 0) {
        free(items[at].value);
        items[at].value = copy;
        return SP_OK;
    }
    char *key_copy = strdup(key);
    if (!key_copy) {
        free(copy);
        return SP_ERR_OUT_OF_MEMORY;
    }
    if (num_items == cap_items) {
        size_t cap = cap_items ? 2 * cap_items : 8;
        extra_item *grown = realloc(items, cap * sizeof *items);
        if (!grown) {
            free(copy);
            free(key_copy);
            return SP_ERR_OUT_OF_MEMORY;
        }
        items = grown;
        cap_items = cap;
    }
    items[num_items].key = key_copy;
    items[num_items].value = copy;
    num_items++;
    return SP_OK;
}

sp_status sp_set_metadata_string(const char *key, const char *value) {
    if (!key || !*key) return SP_ERR_INVALID_ARGUMENT;
    pthread_mutex_lock(&lock);
    sp_status st = set_locked(key, value);
    pthread_mutex_unlock(&lock);
    return st;
}

sp_status sp_extra_metadata_apply(sp_model *m) {
    sp_status st = SP_OK;
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < num_items && st == SP_OK; i++)
        if (!sp_model_meta_find(m, items[i].key))
            st = sp_model_meta_string(m, items[i].key, items[i].value);
    pthread_mutex_unlock(&lock);
    return st;
}
