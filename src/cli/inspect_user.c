/*
 * inspect: the "User" group of the metadata section, the keys a program,
 * its environment (SCOPE_PROFILER_METADATA_*) or `run --meta` added, and a
 * Python package's extra fields (docs/metadata.md). Its key column fits its
 * own keys (up to 64 characters) without widening the other groups, and is
 * narrowed in a fitted output so that the values keep room.
 */
#include "cli/cli_colour.h"
#include "cli/cli_text.h"
#include "cli/inspect.h"
#include "common/user_meta.h"

/* The values keep this many columns when the output is fitted (--width, the terminal). */
#define VALUE_ROOM 24
#define MIN_KEY    8

/* The library's own fields are the ones sp_set_metadata refuses (common/user_meta.c). */
int inspect_user_key(const char *key) {
    return sp_user_meta_key_valid(key) && !sp_user_meta_key_reserved(key);
}

int inspect_print_user(FILE *out, const sp_metadata_item *items, size_t n, size_t width,
                       const inspect_options *o) {
    for (size_t i = 0; i < n; i++) {
        size_t len = cli_utf8_length(items[i].key);
        if (len > width) width = len;
    }
    if (o->fit_to && width + 4 + 3 + VALUE_ROOM > o->fit_to)
        width = o->fit_to > 4 + 3 + VALUE_ROOM + MIN_KEY ? o->fit_to - 4 - 3 - VALUE_ROOM : MIN_KEY;
    cli_print_title(out, o->colour, "  User (%zu)", n);
    for (size_t i = 0; i < n; i++) {
        inspect_meta_key(out, items[i].key, width);
        if (!inspect_meta_value(out, &items[i], width, o)) return 0;
    }
    return 1;
}
