/*
 * inspect: the metadata section, grouped like the Python package's inspect
 * (python_semantics.md §7.2): Run, System, Parallelism in fixed key order,
 * then Slurm, Environment and Other sorted by key, then the user's keys
 * (inspect_user.c), then Modules.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/terminal_text.h"
#include "cli/cli_colour.h"
#include "cli/cli_error.h"
#include "cli/cli_text.h"
#include "cli/inspect.h"

#define CLIP_WIDTH      96
#define ELLIPSIS        " […]"
#define ELLIPSIS_LENGTH 4 /* code points */

static const char *const RUN_KEYS[] = {
    "timestamp",         "start_time_ns",          "finalize_time_ns", "user", "hostname",
    "working_directory", "scope_profiler_version", "python_version",   NULL};
static const char *const SYSTEM_KEYS[] = {"platform", "uname", "chip_information", NULL};
static const char *const PARALLEL_KEYS[] = {"mpi_size", "num_nodes", "omp_num_threads",
                                            "total_cores", NULL};

enum group { G_RUN, G_SYSTEM, G_PARALLEL, G_SLURM, G_ENV, G_OTHER, G_USER, G_MODULES, G_COUNT };
static const char *const GROUP_TITLES[] = {"Run",   "System",      "Parallelism",
                                           "Slurm", "Environment", "Other"};

/* Position of key in a NULL-terminated list, or -1. */
static int key_index(const char *const *keys, const char *key) {
    for (int i = 0; keys[i]; i++)
        if (strcmp(keys[i], key) == 0) return i;
    return -1;
}

/* Python's str.isupper() for ASCII keys: a capital letter and no small one
 * (bytes outside ASCII count as uncased). */
static int is_upper(const char *key) {
    int cased = 0;
    for (const char *p = key; *p; p++) {
        if (*p >= 'a' && *p <= 'z') return 0;
        if (*p >= 'A' && *p <= 'Z') cased = 1;
    }
    return cased;
}

static enum group group_of(const char *key) {
    if (key_index(RUN_KEYS, key) >= 0) return G_RUN;
    if (key_index(SYSTEM_KEYS, key) >= 0) return G_SYSTEM;
    if (key_index(PARALLEL_KEYS, key) >= 0) return G_PARALLEL;
    if (strcmp(key, "modules") == 0) return G_MODULES;
    if (strncmp(key, "SLURM_", 6) == 0 || strncmp(key, "SLURMD_", 7) == 0) return G_SLURM;
    if (is_upper(key)) return G_ENV;
    return inspect_user_key(key) ? G_USER : G_OTHER;
}

/* Sort rank of an item inside its group: the fixed order, else by key. */
static int order_in_group(enum group g, const char *key) {
    switch (g) {
    case G_RUN:
        return key_index(RUN_KEYS, key);
    case G_SYSTEM:
        return key_index(SYSTEM_KEYS, key);
    case G_PARALLEL:
        return key_index(PARALLEL_KEYS, key);
    default:
        return 0;
    }
}

typedef struct meta_line {
    enum group group;
    int order;
    sp_metadata_item item;
} meta_line;

static int compare_lines(const void *a, const void *b) {
    const meta_line *x = a, *y = b;
    if (x->group != y->group) return (int)x->group - (int)y->group;
    if (x->order != y->order) return x->order - y->order;
    return strcmp(x->item.key, y->item.key);
}

/* Python str(value) into a new string (NULL when out of memory). */
static char *value_text(const sp_metadata_item *it) {
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!f) return NULL;
    char num[CLI_FLOAT_REPR_SIZE];
    switch (it->type) {
    case SP_VALUE_INT:
        fprintf(f, "%" PRId64, it->int_value);
        break;
    case SP_VALUE_FLOAT:
        cli_float_repr(it->float_value, num);
        fputs(num, f);
        break;
    case SP_VALUE_STRING:
        fputs(it->string_value ? it->string_value : "", f);
        break;
    case SP_VALUE_STRING_LIST:
        cli_put_list_repr(f, it->list, it->list_len);
        break;
    }
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    char *safe = sp_terminal_text(text);
    free(text);
    return safe;
}

/* Prints the value, clipped to clip code points unless full. */
static int print_value(FILE *out, const sp_metadata_item *it, int full, size_t clip) {
    char *text = value_text(it);
    if (!text) return 0;
    if (!full && cli_utf8_length(text) > clip) {
        size_t keep = cli_utf8_prefix_bytes(text, clip - ELLIPSIS_LENGTH);
        fprintf(out, "%.*s%s\n", (int)keep, text, ELLIPSIS);
    } else {
        fprintf(out, "%s\n", text);
    }
    free(text);
    return 1;
}

void inspect_meta_key(FILE *out, const char *key, size_t width) {
    char *safe = sp_terminal_text(key);
    const char *text = safe ? safe : "?";
    size_t n = cli_utf8_length(text);
    if (n > width) /* only a key longer than the fitted column: cut, marked */
        fprintf(out, "    %.*s…", (int)cli_utf8_prefix_bytes(text, width - 1), text);
    else
        fprintf(out, "    %s", text);
    for (; n < width; n++)
        fputc(' ', out);
    fputs(" : ", out);
    free(safe);
}

int inspect_meta_value(FILE *out, const sp_metadata_item *it, size_t width,
                       const inspect_options *o) {
    /* CLIP_WIDTH (the Python inspect's), less to fit the output width */
    size_t clip = CLIP_WIDTH, used = 4 + width + 3;
    if (o->fit_to && o->fit_to < used + CLIP_WIDTH)
        clip = o->fit_to > used + 2 * ELLIPSIS_LENGTH ? o->fit_to - used : 2 * ELLIPSIS_LENGTH;
    return print_value(out, it, o->full, clip);
}

/* "Modules (N)" and one module per line: a list as is, a text as one module. */
static int print_modules(FILE *out, const sp_metadata_item *it, const inspect_options *o) {
    if (it->type == SP_VALUE_STRING_LIST) {
        cli_print_title(out, o->colour, "  Modules (%zu)", it->list_len);
        for (size_t i = 0; i < it->list_len; i++) {
            char *safe = sp_terminal_text(it->list[i]);
            fprintf(out, "    %s\n", safe ? safe : "?");
            free(safe);
        }
        if (it->list_len == 0) fputs("    (none loaded)\n", out);
        return 1;
    }
    char *text = value_text(it);
    if (!text) return 0;
    int empty = text[0] == '\0';
    cli_print_title(out, o->colour, "  Modules (%d)", empty ? 0 : 1);
    fprintf(out, "    %s\n", empty ? "(none loaded)" : text);
    free(text);
    return 1;
}

/* The user's keys as one list for inspect_print_user. */
static int print_user(FILE *out, const meta_line *lines, size_t n, size_t width,
                      const inspect_options *o) {
    sp_metadata_item *items = malloc(n * sizeof *items);
    if (!items) return 0;
    for (size_t i = 0; i < n; i++)
        items[i] = lines[i].item;
    int ok = inspect_print_user(out, items, n, width, o);
    free(items);
    return ok;
}

static int print_lines(FILE *out, const meta_line *lines, size_t n, size_t width,
                       const inspect_options *o) {
    int last_group = -1;
    for (size_t i = 0; i < n; i++) {
        const meta_line *l = &lines[i];
        if (l->group == G_MODULES) {
            if (!print_modules(out, &l->item, o)) return 0;
            continue;
        }
        if (l->group == G_USER) {
            size_t k = i;
            while (k < n && lines[k].group == G_USER)
                k++;
            if (!print_user(out, lines + i, k - i, width, o)) return 0;
            i = k - 1;
            continue;
        }
        if ((int)l->group != last_group)
            cli_print_title(out, o->colour, "  %s", GROUP_TITLES[l->group]);
        last_group = (int)l->group;
        inspect_meta_key(out, l->item.key, width);
        if (!inspect_meta_value(out, &l->item, width, o)) return 0;
    }
    return 1;
}

int inspect_print_metadata(FILE *out, const sp_results *r, const inspect_options *o) {
    size_t n = sp_results_num_metadata(r);
    cli_print_title(out, o->colour, "Metadata");
    if (n == 0) {
        fputs("  (none recorded)\n\n", out);
        return 0;
    }
    meta_line *lines = calloc(n, sizeof *lines);
    if (!lines) return cli_out_of_memory();
    size_t width = 0, count = 0;
    for (size_t i = 0; i < n; i++) {
        meta_line *l = &lines[count];
        if (!sp_results_metadata_at(r, i, &l->item)) continue;
        l->group = group_of(l->item.key);
        l->order = order_in_group(l->group, l->item.key);
        size_t len = cli_utf8_length(l->item.key);
        if (len > width && l->group != G_USER) width = len; /* the User group sizes its own */
        count++;
    }
    qsort(lines, count, sizeof *lines, compare_lines);
    int ok = print_lines(out, lines, count, width, o);
    free(lines);
    fputc('\n', out);
    return ok ? 0 : cli_out_of_memory();
}
