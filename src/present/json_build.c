#include "present/json_build.h"
#include "present/json_print.h"

static int add_member(struct json_object *obj, const char *key, struct json_object *value) {
    if (json_object_object_add(obj, key, value) != 0) {
        json_object_put(value);
        return 0;
    }
    return 1;
}

int sp_json_add(struct json_object *obj, const char *key, struct json_object *value) {
    if (!obj || !value) {
        json_object_put(value);
        return 0;
    }
    return add_member(obj, key, value);
}

int sp_json_add_null(struct json_object *obj, const char *key) {
    return obj && add_member(obj, key, NULL);
}

int sp_json_add_int(struct json_object *obj, const char *key, int64_t value) {
    return obj && sp_json_add(obj, key, json_object_new_int64(value));
}

int sp_json_add_double(struct json_object *obj, const char *key, double value) {
    return obj && sp_json_add(obj, key, json_object_new_double(value));
}

int sp_json_add_string(struct json_object *obj, const char *key, const char *value) {
    return obj && sp_json_add(obj, key, json_object_new_string(value));
}

int sp_json_append(struct json_object *array, struct json_object *value) {
    if (!array || !value || json_object_array_add(array, value) != 0) {
        json_object_put(value);
        return 0;
    }
    return 1;
}

int sp_json_append_null(struct json_object *array) {
    return array && json_object_array_add(array, NULL) == 0;
}

struct json_object *sp_json_string_array(const char *const *items, size_t n) {
    struct json_object *a = json_object_new_array_ext((int)(n ? n : 1));
    for (size_t i = 0; i < n && a; i++) {
        if (!sp_json_append(a, json_object_new_string(items[i]))) {
            json_object_put(a);
            return NULL;
        }
    }
    return a;
}

char *sp_json_finish(struct json_object *doc, int ok, const char *key_a, struct json_object *a,
                     const char *key_b, struct json_object *b) {
    ok = sp_json_add(ok ? doc : NULL, key_a, a) && ok;
    ok = sp_json_add(ok ? doc : NULL, key_b, b) && ok;
    char *text = ok ? sp_json_document(doc) : NULL;
    json_object_put(doc);
    return text;
}
