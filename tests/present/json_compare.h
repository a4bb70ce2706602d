/* Comparing json-c documents in tests: same keys in the same order, same
 * array lengths, equal strings, numbers within a relative tolerance. */
#ifndef SP_TEST_JSON_COMPARE_H
#define SP_TEST_JSON_COMPARE_H

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static inline int json_is_number(struct json_object *v) {
    return json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double);
}

/* Returns 1 when equal; otherwise prints where they differ and returns 0. */
static inline int json_equal(struct json_object *got, struct json_object *want, const char *where,
                             double rel_tol) {
    char at[512];
    if (json_is_number(got) && json_is_number(want)) {
        double a = json_object_get_double(got), b = json_object_get_double(want);
        if (a == b || fabs(a - b) <= rel_tol * fmax(fabs(a), fabs(b))) return 1;
        fprintf(stderr, "%s: %.17g != %.17g\n", where, a, b);
        return 0;
    }
    if (json_object_get_type(got) != json_object_get_type(want)) {
        fprintf(stderr, "%s: type %d != %d\n", where, json_object_get_type(got),
                json_object_get_type(want));
        return 0;
    }
    switch (json_object_get_type(want)) {
    case json_type_null:
        return 1;
    case json_type_boolean:
        return json_object_get_boolean(got) == json_object_get_boolean(want);
    case json_type_string:
        if (strcmp(json_object_get_string(got), json_object_get_string(want)) == 0) return 1;
        fprintf(stderr, "%s: \"%s\" != \"%s\"\n", where, json_object_get_string(got),
                json_object_get_string(want));
        return 0;
    case json_type_array: {
        size_t n = json_object_array_length(want);
        if (json_object_array_length(got) != n) {
            fprintf(stderr, "%s: %zu items != %zu\n", where, json_object_array_length(got), n);
            return 0;
        }
        for (size_t i = 0; i < n; i++) {
            snprintf(at, sizeof at, "%s[%zu]", where, i);
            if (!json_equal(json_object_array_get_idx(got, i), json_object_array_get_idx(want, i),
                            at, rel_tol))
                return 0;
        }
        return 1;
    }
    case json_type_object: {
        if (json_object_object_length(got) != json_object_object_length(want)) {
            fprintf(stderr, "%s: %d keys != %d\n", where, json_object_object_length(got),
                    json_object_object_length(want));
            return 0;
        }
        struct json_object_iterator g = json_object_iter_begin(got);
        json_object_object_foreach(want, key, value) {
            const char *gkey = json_object_iter_peek_name(&g);
            snprintf(at, sizeof at, "%s.%s", where, key);
            if (strcmp(gkey, key) != 0) {
                fprintf(stderr, "%s: key \"%s\" where \"%s\" was expected\n", where, gkey, key);
                return 0;
            }
            if (!json_equal(json_object_iter_peek_value(&g), value, at, rel_tol)) return 0;
            json_object_iter_next(&g);
        }
        return 1;
    }
    default:
        return 0;
    }
}

#endif
