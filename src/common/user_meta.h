/*
 * Rules for the metadata keys a user adds (sp_set_metadata*, the environment's
 * SCOPE_PROFILER_METADATA_<KEY>, `scope-profiler run --meta`): which names are
 * allowed, which belong to the library, and how a text value gets its type.
 */
#ifndef SP_COMMON_USER_META_H
#define SP_COMMON_USER_META_H

#include <stdint.h>

#define SP_USER_META_KEY_MAX 64

/* The environment prefix of one key: SCOPE_PROFILER_METADATA_<KEY>=value. */
#define SP_USER_META_ENV_PREFIX "SCOPE_PROFILER_METADATA_"

/* 1 for 1 to 64 characters of [A-Za-z0-9_.-] starting with a letter or '_'. */
int sp_user_meta_key_valid(const char *key);

/* 1 if the library writes this key itself (docs/metadata.md lists them). */
int sp_user_meta_key_reserved(const char *key);

typedef enum sp_user_meta_kind {
    SP_USER_META_TEXT = 0,
    SP_USER_META_INTEGER,
    SP_USER_META_REAL
} sp_user_meta_kind;

/* The type a text value is stored with: an integer when all of it is a
 * decimal int64, a real when all of it is a finite number, text otherwise. */
sp_user_meta_kind sp_user_meta_infer(const char *text, int64_t *integer, double *real);

/* One line naming what is wrong with `key` (NULL when it is fine). */
const char *sp_user_meta_key_problem(const char *key);

#endif
