/*
 * Checked construction of json-c trees. json-c stands for JSON null with a
 * NULL pointer, which is also what a failed allocation returns, so these
 * helpers take plain C values and report failure (0) themselves. Each one
 * accepts a NULL container (an earlier failure) and then only frees what it
 * was given, so a builder can chain calls and check once.
 */
#ifndef SP_PRESENT_JSON_BUILD_H
#define SP_PRESENT_JSON_BUILD_H

#include <json-c/json.h>
#include <stddef.h>
#include <stdint.h>

/* Adds value (non-NULL; a NULL value counts as a failed allocation). */
int sp_json_add(struct json_object *obj, const char *key, struct json_object *value);
int sp_json_add_null(struct json_object *obj, const char *key);
int sp_json_add_int(struct json_object *obj, const char *key, int64_t value);
int sp_json_add_double(struct json_object *obj, const char *key, double value);
int sp_json_add_string(struct json_object *obj, const char *key, const char *value);

/* Appends value (non-NULL, as above); NULL value means null only through
 * sp_json_append_null. */
int sp_json_append(struct json_object *array, struct json_object *value);
int sp_json_append_null(struct json_object *array);

/* Ends a document built with the helpers above: when ok, adds the last two
 * members (a and b are always taken over, also after a failure), prints the
 * document (sp_json_document) and frees the tree; NULL after any failure. */
char *sp_json_finish(struct json_object *doc, int ok, const char *key_a, struct json_object *a,
                     const char *key_b, struct json_object *b);

/* A new array of the strings; NULL when out of memory. */
struct json_object *sp_json_string_array(const char *const *items, size_t n);

#endif
