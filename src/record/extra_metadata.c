/* sp_set_metadata_*: a program's own keys in the run's metadata, and the
 * environment's SCOPE_PROFILER_METADATA_<KEY> (docs/metadata.md). */
#include "record/extra_metadata.h"

#include "common/user_meta.h"
#include "scope_profiler.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

typedef struct extra_item {
    char *key;
    sp_meta_type type;
    int64_t integer;
    double real;
    char *text;
} extra_item;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static extra_item *items;
static size_t num_items, cap_items;

static long find(const char *key) {
    for (size_t i = 0; i < num_items; i++)
        if (!strcmp(items[i].key, key)) return (long)i;
    return -1;
}

static void remove_locked(const char *key) {
    long at = find(key);
    if (at < 0) return;
    free(items[at].key);
    free(items[at].text);
    memmove(&items[at], &items[at + 1], (num_items - (size_t)at - 1) * sizeof *items);
    num_items--;
}

/* Takes `value` (its text, if any, already copied) for `key`, replacing an older value. */
static sp_status set_locked(const char *key, const extra_item *value) {
    long at = find(key);
    if (at >= 0) {
        free(items[at].text);
        char *kept = items[at].key;
        items[at] = *value;
        items[at].key = kept;
        return SP_OK;
    }
    char *key_copy = strdup(key);
    if (!key_copy) return SP_ERR_OUT_OF_MEMORY;
    if (num_items == cap_items) {
        size_t cap = cap_items ? 2 * cap_items : 8;
        extra_item *grown = realloc(items, cap * sizeof *items);
        if (!grown) {
            free(key_copy);
            return SP_ERR_OUT_OF_MEMORY;
        }
        items = grown;
        cap_items = cap;
    }
    items[num_items] = *value;
    items[num_items].key = key_copy;
    num_items++;
    return SP_OK;
}

static sp_status set_value(const char *key, extra_item value) {
    if (sp_user_meta_key_problem(key)) {
        free(value.text);
        return SP_ERR_INVALID_ARGUMENT;
    }
    pthread_mutex_lock(&lock);
    sp_status st = set_locked(key, &value);
    pthread_mutex_unlock(&lock);
    if (st) free(value.text);
    return st;
}

sp_status sp_set_metadata_string(const char *key, const char *value) {
    if (!value) {
        if (!key || !*key) return SP_ERR_INVALID_ARGUMENT;
        pthread_mutex_lock(&lock);
        remove_locked(key);
        pthread_mutex_unlock(&lock);
        return SP_OK;
    }
    extra_item item = {.type = SP_META_STRING, .text = strdup(value)};
    if (!item.text) return SP_ERR_OUT_OF_MEMORY;
    return set_value(key, item);
}

sp_status sp_set_metadata_int(const char *key, int64_t value) {
    return set_value(key, (extra_item){.type = SP_META_INT, .integer = value});
}

sp_status sp_set_metadata_double(const char *key, double value) {
    if (!isfinite(value)) return SP_ERR_INVALID_ARGUMENT;
    return set_value(key, (extra_item){.type = SP_META_FLOAT, .real = value});
}

static sp_status put_item(sp_model *m, const char *key, const extra_item *item) {
    switch (item->type) {
    case SP_META_INT:
        return sp_model_meta_int(m, key, item->integer);
    case SP_META_FLOAT:
        return sp_model_meta_float(m, key, item->real);
    default:
        return sp_model_meta_string(m, key, item->text);
    }
}

/* One key that would replace a library field: the library's value stays. */
static void clash(const char *key, const char *where) {
    fprintf(stderr,
            "scope-profiler: metadata key \"%s\" (%s) is a built-in field; kept the library's "
            "value (choose another key)\n",
            key, where);
}

static sp_status apply_environment(sp_model *m) {
    const size_t prefix = strlen(SP_USER_META_ENV_PREFIX);
    sp_status st = SP_OK;
    for (char **e = environ; !st && e && *e; e++) {
        if (strncmp(*e, SP_USER_META_ENV_PREFIX, prefix)) continue;
        const char *eq = strchr(*e, '=');
        if (!eq) continue;
        char key[SP_USER_META_KEY_MAX + 2];
        size_t len = (size_t)(eq - *e) - prefix;
        if (len > SP_USER_META_KEY_MAX) len = SP_USER_META_KEY_MAX + 1; /* fails the check */
        memcpy(key, *e + prefix, len);
        key[len] = '\0';
        const char *problem = sp_user_meta_key_problem(key);
        if (problem) {
            fprintf(stderr, "scope-profiler: ignoring %.*s: %s\n", (int)(eq - *e), *e, problem);
            continue;
        }
        if (sp_model_meta_find(m, key) && find(key) < 0) {
            clash(key, "environment");
            continue;
        }
        extra_item item = {.type = SP_META_STRING, .text = (char *)(eq + 1)};
        sp_user_meta_kind kind = sp_user_meta_infer(eq + 1, &item.integer, &item.real);
        if (kind == SP_USER_META_INTEGER) item.type = SP_META_INT;
        if (kind == SP_USER_META_REAL) item.type = SP_META_FLOAT;
        st = put_item(m, key, &item);
    }
    return st;
}

sp_status sp_extra_metadata_apply(sp_model *m) {
    sp_status st = SP_OK;
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < num_items && st == SP_OK; i++) {
        if (sp_model_meta_find(m, items[i].key))
            clash(items[i].key, "sp_set_metadata");
        else
            st = put_item(m, items[i].key, &items[i]);
    }
    /* the environment overrides the program, as for every other setting */
    if (!st) st = apply_environment(m);
    pthread_mutex_unlock(&lock);
    return st;
}
