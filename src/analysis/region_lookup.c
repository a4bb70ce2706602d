/* Finding regions by index and by name (results["solve"]) and listing ranks. */
#include <stdlib.h>
#include <string.h>

#include "analysis/internal.h"
#include "common/py_repr.h"
#include "common/utf8.h"
#include "common/text_buffer.h"
#include "analysis/suggest.h"
#include "common/error.h"

size_t sp_results_num_regions(const sp_results *r) {
    return r->m.num_regions;
}

const char *sp_results_region_name(const sp_results *r, size_t index) {
    return index < r->m.num_regions ? r->m.region_names[index] : NULL;
}

static size_t name_hash(const char *s) {
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return (size_t)(h ^ (h >> 29));
}

/* The slot of name: its region's, or the empty one where it would go. */
static size_t name_slot(const sp_results *r, const char *name) {
    size_t mask = r->name_slots_cap - 1, i = name_hash(name) & mask;
    while (r->name_slots[i] && strcmp(r->m.region_names[r->name_slots[i] - 1], name) != 0)
        i = (i + 1) & mask;
    return i;
}

/* A hash of the region names, so that lookups in files with many regions
 * (plots and reports look every drawn region up) do not scan them all. */
static int build_name_index(sp_results *r) {
    size_t cap = 16;
    while (cap < 2 * r->m.num_regions)
        cap *= 2;
    r->name_slots = calloc(cap, sizeof *r->name_slots);
    if (!r->name_slots) return 0;
    r->name_slots_cap = cap;
    for (size_t g = 0; g < r->m.num_regions; g++) {
        size_t i = name_slot(r, r->m.region_names[g]);
        if (!r->name_slots[i]) r->name_slots[i] = (uint32_t)g + 1; /* the first of a name */
    }
    return 1;
}

long sp_results_find(const sp_results *r, const char *name) {
    if (!name) return -1;
    if (r->m.num_regions > 32 && r->m.num_regions < UINT32_MAX &&
        (r->name_slots || build_name_index(sp_results_mut(r)))) {
        uint32_t at = r->name_slots[name_slot(r, name)];
        return at ? (long)at - 1 : -1;
    }
    for (size_t i = 0; i < r->m.num_regions; i++)
        if (strcmp(r->m.region_names[i], name) == 0) return (long)i;
    return -1;
}

const sp_mpi_region *sp_results_region_at(const sp_results *r, size_t index) {
    return index < r->m.num_regions ? &r->regions[index] : NULL;
}

/* Appends the names as a Python list, cut short with "..." so that `reserve`
 * bytes still fit into an sp_error message after it. */
static void append_names(sp_textbuf *b, const char *const *names, size_t n, size_t reserve) {
    const size_t room = sizeof(((sp_error *)0)->message) - 1;
    sp_textbuf item = {0};
    sp_textbuf_append(b, "[");
    for (size_t i = 0; i < n; i++) {
        item.len = 0;
        sp_py_str_repr(&item, names[i]);
        const char *text = sp_textbuf_str(&item);
        size_t sep = i ? 2 : 0;
        if (text && b->len + sep + item.len + 1 + reserve > room) {
            sp_textbuf_append(b, i ? ", ...]" : "...]");
            sp_textbuf_free(&item);
            return;
        }
        if (sep) sp_textbuf_append(b, ", ");
        if (text) sp_textbuf_append_n(b, text, item.len);
    }
    sp_textbuf_append(b, "]");
    sp_textbuf_free(&item);
}

const sp_mpi_region *sp_results_get(const sp_results *r, const char *name, sp_error *err) {
    long i = sp_results_find(r, name);
    if (i >= 0) return &r->regions[i];
    const char *const *names = (const char *const *)r->m.region_names;
    sp_textbuf hint = {0}, b = {0};
    long close = name ? sp_suggest_name(name, names, r->m.num_regions) : -1;
    if (close >= 0) {
        sp_textbuf_append(&hint, " Did you mean ");
        sp_py_str_repr(&hint, names[close]);
        sp_textbuf_append(&hint, "?");
    }
    sp_textbuf_append(&b, "No region named ");
    sp_py_str_repr(&b, name ? name : "");
    sp_textbuf_printf(&b, " in %s. Available regions: ", r->path_text);
    append_names(&b, names, r->m.num_regions, hint.len + 6);
    if (hint.len) sp_textbuf_append_n(&b, hint.data, hint.len);
    const char *text = sp_textbuf_str(&b);
    sp_error_set(err, SP_ERR_NO_SUCH_REGION, "%s", text ? text : "No region of that name");
    sp_textbuf_free(&b);
    sp_textbuf_free(&hint);
    return NULL;
}

size_t sp_results_num_ranks(const sp_results *r) {
    return r->num_ranks;
}

size_t sp_results_num_data_ranks(const sp_results *r) {
    return r->num_data_ranks;
}

uint32_t sp_results_rank(const sp_results *r, size_t index) {
    return index < r->num_data_ranks ? r->data_ranks[index] : UINT32_MAX;
}
