#include "cli/cli_list.h"

#include <stdlib.h>
#include <string.h>

static int grow(cli_list *l) {
    if (l->count < l->cap) return 1;
    size_t cap = l->cap ? 2 * l->cap : 8;
    char **items = realloc(l->items, cap * sizeof *items);
    if (!items) return 0;
    l->items = items;
    unsigned char *owned = realloc(l->owned, cap);
    if (!owned) return 0;
    l->owned = owned;
    l->cap = cap;
    return 1;
}

static int push(cli_list *l, char *s, int owned) {
    if (!grow(l)) return 0;
    l->items[l->count] = s;
    l->owned[l->count] = (unsigned char)owned;
    l->count++;
    return 1;
}

int cli_list_add(cli_list *l, const char *s) {
    return push(l, (char *)s, 0);
}

int cli_list_add_copy(cli_list *l, const char *s) {
    char *copy = strdup(s);
    if (!copy) return 0;
    if (push(l, copy, 1)) return 1;
    free(copy);
    return 0;
}

int cli_list_contains(const cli_list *l, const char *s) {
    for (size_t i = 0; i < l->count; i++)
        if (strcmp(l->items[i], s) == 0) return 1;
    return 0;
}

void cli_list_free(cli_list *l) {
    for (size_t i = 0; i < l->count; i++)
        if (l->owned[i]) free(l->items[i]);
    free(l->items);
    free(l->owned);
    *l = (cli_list)CLI_LIST_INIT;
}
