/*
 * A growable list of strings. Items are either borrowed (argv) or owned
 * (glob results), per item, so one list can mix both.
 */
#ifndef SP_CLI_LIST_H
#define SP_CLI_LIST_H

#include <stddef.h>

typedef struct cli_list {
    char **items;
    unsigned char *owned; /* owned[i]: items[i] is freed with the list */
    size_t count;
    size_t cap;
} cli_list;

#define CLI_LIST_INIT                                                                              \
    { NULL, NULL, 0, 0 }

/* Appends s (borrowed); 0 when out of memory. */
int cli_list_add(cli_list *l, const char *s);

/* Appends a copy of s; 0 when out of memory. */
int cli_list_add_copy(cli_list *l, const char *s);

/* Nonzero when s is already in the list. */
int cli_list_contains(const cli_list *l, const char *s);

/* The items as the const array the library's filters take. */
static inline const char *const *cli_list_items(const cli_list *l) {
    return (const char *const *)l->items;
}

void cli_list_free(cli_list *l);

#endif
