#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/json_escape.h"
#include "format/read_internal.h"

/* --- link names ----------------------------------------------------------- */

typedef sp_rd_names links;

static herr_t collect_link(hid_t group, const char *name, const H5L_info_t *info, void *data) {
    (void)group;
    (void)info;
    return sp_rd_names_add(data, name);
}

/* The links of the group at path, in name order (*out empty on failure). */
static sp_status list_links(sp_rd *rd, const char *path, links *out) {
    memset(out, 0, sizeof *out);
    hid_t group = H5Gopen2(rd->file, path, H5P_DEFAULT);
    if (group < 0) return sp_rd_damaged(rd, "cannot open %s", path);
    hsize_t idx = 0;
    herr_t rc = H5Literate(group, H5_INDEX_NAME, H5_ITER_INC, &idx, collect_link, out);
    H5Gclose(group);
    if (rc >= 0) return SP_OK;
    int out_of_memory = out->out_of_memory;
    sp_rd_names_free(out);
    return out_of_memory ? sp_rd_no_memory(rd) : sp_rd_damaged(rd, "cannot list %s", path);
}

/* --- rank groups ---------------------------------------------------------- */

/* "rank0", "rank12": no sign, no leading zeros, at most UINT32_MAX. */
static int parse_rank(const char *name, uint32_t *rank) {
    if (strncmp(name, "rank", 4) != 0) return 0;
    const char *d = name + 4;
    if (!*d || (d[0] == '0' && d[1])) return 0;
    uint64_t v = 0;
    for (; *d; d++) {
        if (*d < '0' || *d > '9') return 0;
        v = v * 10 + (uint64_t)(*d - '0');
        if (v > UINT32_MAX) return 0;
    }
    *rank = (uint32_t)v;
    return 1;
}

/* "rank-1", "rank+1", "rank01": meant as a rank group, but not one. */
static int malformed_rank(const char *name) {
    if (strncmp(name, "rank", 4) != 0) return 0;
    const char *d = name + 4;
    if (*d == '+' || *d == '-') d++;
    if (!*d) return 0;
    for (; *d; d++)
        if (*d < '0' || *d > '9') return 0;
    return 1;
}

typedef struct rank_group {
    uint32_t rank;
    const char *name;
} rank_group;

static int compare_ranks(const void *a, const void *b) {
    uint32_t x = ((const rank_group *)a)->rank, y = ((const rank_group *)b)->rank;
    return (x > y) - (x < y);
}

/* The root's rank<N> groups, sorted numerically; names point into root.
 * strict: a group named like a rank but not one is damage, not skipped. */
static sp_status rank_groups(sp_rd *rd, const links *root, int strict, rank_group **out,
                             size_t *count) {
    rank_group *groups = malloc((root->count ? root->count : 1) * sizeof *groups);
    if (!groups) return sp_rd_no_memory(rd);
    size_t n = 0;
    for (size_t i = 0; i < root->count; i++) {
        uint32_t rank;
        int is_group = sp_rd_kind_of(rd->file, root->names[i]) == SP_RD_GROUP;
        if (parse_rank(root->names[i], &rank) && is_group) {
            groups[n++] = (rank_group){rank, root->names[i]};
        } else if (strict && is_group && malformed_rank(root->names[i])) {
            free(groups);
            return sp_rd_damaged(rd,
                                 "group /%s is not a rank group: ranks are named rank<N>, N a "
                                 "decimal number from 0 to 4294967295 without sign or leading "
                                 "zeros",
                                 root->names[i]);
        }
    }
    qsort(groups, n, sizeof *groups, compare_ranks);
    *out = groups;
    *count = n;
    return SP_OK;
}

/* The root's links and, among them, the rank groups (root is empty on failure). */
static sp_status root_rank_groups(sp_rd *rd, links *root, int strict, rank_group **groups,
                                  size_t *n) {
    *groups = NULL;
    *n = 0;
    sp_status st = list_links(rd, "/", root);
    return st ? st : rank_groups(rd, root, strict, groups, n);
}

sp_status sp_rd_has_rank_groups(sp_rd *rd, int *found) {
    links root;
    rank_group *groups;
    size_t n;
    *found = 0;
    sp_status st = root_rank_groups(rd, &root, 0, &groups, &n);
    free(groups);
    sp_rd_names_free(&root);
    *found = !st && n > 0;
    return st;
}

/* --- accumulating rows and events --------------------------------------- */

typedef struct legacy {
    sp_rd *rd;
    sp_model *m;
    size_t rows_cap, starts_cap, ends_cap, calls_cap, parents_cap;
    uint32_t *by_name; /* region ids sorted by name, for lookups */
    int64_t *call_ids, *parent_ids;
    int ids_complete; /* every region with calls had call_ids and parent_ids */
} legacy;

static void *grow(void *p, size_t *cap, size_t need, size_t elem) {
    if (need <= *cap) return p;
    size_t cap2 = *cap ? *cap : 64;
    while (cap2 < need)
        cap2 = cap2 > SIZE_MAX / 2 ? need : cap2 * 2;
    if (cap2 > SIZE_MAX / elem) return NULL;
    void *grown = realloc(p, cap2 * elem);
    if (grown) *cap = cap2;
    return grown;
}

/* The region id of name, appended to the table on first sight; -1 if out of memory. */
static int64_t region_id(legacy *s, const char *name) {
    sp_model *m = s->m;
    size_t lo = 0, hi = m->num_regions;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(m->region_names[s->by_name[mid]], name);
        if (c == 0) return s->by_name[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    char **names = realloc(m->region_names, (m->num_regions + 1) * sizeof *names);
    if (names) m->region_names = names;
    uint32_t *by_name = realloc(s->by_name, (m->num_regions + 1) * sizeof *by_name);
    if (by_name) s->by_name = by_name;
    char *copy = names && by_name ? sp_strdup(name) : NULL;
    if (!copy) return -1;
    uint32_t id = (uint32_t)m->num_regions;
    memmove(&s->by_name[lo + 1], &s->by_name[lo], (m->num_regions - lo) * sizeof *by_name);
    s->by_name[lo] = id;
    m->region_names[m->num_regions++] = copy;
    return id;
}

/* Appends n values at index `at` of the growing column *dst. */
static int append_values(int64_t **dst, size_t *cap, size_t at, const int64_t *src, size_t n) {
    int64_t *grown = grow(*dst, cap, at + n, sizeof **dst);
    if (!grown) return -1;
    *dst = grown;
    memcpy(grown + at, src, n * sizeof *src);
    return 0;
}

/* --- one region group ----------------------------------------------------- */

typedef struct columns {
    int64_t *starts, *ends, *calls, *parents;
    size_t n;
} columns;

static void free_columns(columns *c) {
    free(c->starts);
    free(c->ends);
    free(c->calls);
    free(c->parents);
}

/* "<group>/<leaf>", owned; NULL when out of memory. */
static char *join(const char *group, const char *leaf) {
    sp_textbuf t = SP_TEXTBUF_INIT;
    sp_textbuf_printf(&t, "%s/%s", group, leaf);
    return sp_textbuf_take(&t);
}

static sp_status optional_ids(sp_rd *rd, const char *group, const char *leaf, const char *ref_path,
                              size_t want, int64_t **out) {
    char *path = join(group, leaf);
    if (!path) return sp_rd_no_memory(rd);
    size_t n = 0;
    sp_status st = SP_OK;
    if (sp_rd_kind_of(rd->file, path) != SP_RD_ABSENT) {
        st = sp_rd_int64_column(rd, path, out, &n);
        if (!st) st = sp_rd_same_length(rd, path, n, ref_path, want);
    }
    free(path);
    return st;
}

static sp_status read_columns(sp_rd *rd, const char *group, columns *c) {
    char *starts_path = join(group, "start_times");
    char *ends_path = join(group, "end_times");
    sp_status st = starts_path && ends_path ? SP_OK : sp_rd_no_memory(rd);
    size_t n_ends = 0;
    if (!st) st = sp_rd_int64_column(rd, starts_path, &c->starts, &c->n);
    if (!st) st = sp_rd_int64_column(rd, ends_path, &c->ends, &n_ends);
    if (!st) st = sp_rd_same_length(rd, ends_path, n_ends, starts_path, c->n);
    if (!st) st = optional_ids(rd, group, "call_ids", starts_path, c->n, &c->calls);
    if (!st) st = optional_ids(rd, group, "parent_ids", starts_path, c->n, &c->parents);
    free(starts_path);
    free(ends_path);
    return st;
}

/* Tags as FORMAT.md's JSON list: a string array becomes ["a", "b"]; a
 * scalar string is kept when it already is a JSON list, else wrapped. */
static void tags_text(sp_textbuf *t, char **items, size_t n, int scalar) {
    if (scalar && n == 1 && items[0][0] == '[') {
        sp_textbuf_append(t, items[0]);
        return;
    }
    sp_textbuf_putc(t, '[');
    for (size_t i = 0; i < n; i++) {
        if (i) sp_textbuf_append(t, ", ");
        sp_json_escape(t, items[i]);
    }
    sp_textbuf_putc(t, ']');
}

/* The tags attribute as JSON ("[]" when it holds no strings); NULL only
 * when out of memory. */
static char *tags_json(hid_t attr) {
    hid_t type = H5Aget_type(attr), space = H5Aget_space(attr);
    sp_textbuf t = SP_TEXTBUF_INIT;
    char **items = NULL;
    size_t n = 0;
    int oom = 0;
    if (type >= 0 && space >= 0 && H5Tget_class(type) == H5T_STRING &&
        H5Sget_simple_extent_type(space) != H5S_NULL) {
        hssize_t points = H5Sget_simple_extent_npoints(space);
        n = points > 0 ? (size_t)points : 0;
        items = calloc(n ? n : 1, sizeof *items);
        int rc = items ? sp_rd_read_attr_strings(attr, type, n, items) : -2;
        oom = rc == -2;
        if (rc != 0) n = 0;
    }
    int scalar = space >= 0 && H5Sget_simple_extent_type(space) == H5S_SCALAR;
    tags_text(&t, items, n, scalar);
    sp_rd_free_strings(items, n);
    if (type >= 0) H5Tclose(type);
    if (space >= 0) H5Sclose(space);
    if (oom) sp_textbuf_free(&t);
    return oom ? NULL : sp_textbuf_take(&t);
}

/* A scalar string attribute, "" when absent or not a string; NULL only when
 * out of memory. */
static char *string_attr(hid_t group, const char *name) {
    if (H5Aexists(group, name) <= 0) return sp_strdup("");
    hid_t attr = H5Aopen(group, name, H5P_DEFAULT);
    char *value = NULL;
    int rc = attr >= 0 ? sp_rd_attr_string(attr, &value) : 0;
    if (attr >= 0) H5Aclose(attr);
    return rc == 1 ? value : rc == -2 ? NULL : sp_strdup("");
}

static char *tags_attr(hid_t group) {
    if (H5Aexists(group, "tags") <= 0) return sp_strdup("[]");
    hid_t attr = H5Aopen(group, "tags", H5P_DEFAULT);
    if (attr < 0) return sp_strdup("[]");
    char *value = tags_json(attr);
    H5Aclose(attr);
    return value;
}

/* The optional attributes source_file, source_lineno, source_text, tags;
 * a value of the wrong type reads as unknown. */
static sp_status row_attributes(sp_rd *rd, const char *group_path, sp_model_row *r) {
    hid_t group = H5Gopen2(rd->file, group_path, H5P_DEFAULT);
    if (group < 0) return sp_rd_damaged(rd, "cannot open %s", group_path);
    int64_t line = -1;
    r->source_line = sp_rd_attr_int64(group, "source_lineno", &line) == 1 ? line : -1;
    r->source_file = string_attr(group, "source_file");
    r->source_text = string_attr(group, "source_text");
    r->tags = tags_attr(group);
    r->event_metadata = sp_strdup("[]");
    H5Gclose(group);
    if (!r->source_file || !r->source_text || !r->tags || !r->event_metadata)
        return sp_rd_no_memory(rd);
    return SP_OK;
}

static int append_columns(legacy *s, const columns *c) {
    sp_model *m = s->m;
    size_t at = m->num_events;
    if (!c->calls || !c->parents) s->ids_complete = 0;
    return append_values(&m->starts, &s->starts_cap, at, c->starts, c->n) ||
           append_values(&m->durations, &s->ends_cap, at, c->ends, c->n) ||
           (s->ids_complete &&
            (append_values(&s->call_ids, &s->calls_cap, at, c->calls, c->n) ||
             append_values(&s->parent_ids, &s->parents_cap, at, c->parents, c->n)));
}

static sp_status add_row(legacy *s, uint32_t rank, uint32_t region, const char *group_path,
                         const columns *c) {
    sp_model *m = s->m;
    sp_model_row *rows = grow(m->rows, &s->rows_cap, m->num_rows + 1, sizeof *rows);
    if (!rows) return sp_rd_no_memory(s->rd);
    m->rows = rows;
    sp_model_row *r = &rows[m->num_rows++];
    memset(r, 0, sizeof *r);
    r->region = region;
    r->rank = rank;
    r->offset = m->num_events;
    r->count = c->n;
    r->exclusive_total = -1;
    sp_status st = row_attributes(s->rd, group_path, r);
    if (st) return st;
    if (append_columns(s, c)) return sp_rd_no_memory(s->rd);
    m->num_events += c->n;
    return SP_OK;
}

static sp_status read_region(legacy *s, uint32_t rank, const char *regions_path, const char *name) {
    sp_rd *rd = s->rd;
    char *path = join(regions_path, name);
    if (!path) return sp_rd_no_memory(rd);
    sp_rd_kind kind = sp_rd_kind_of(rd->file, path);
    sp_status st = SP_OK;
    if (kind != SP_RD_GROUP && kind != SP_RD_ABSENT)
        st = sp_error_set(rd->err, SP_ERR_BAD_DATASET,
                          "%s: %s is not a group, expected a region "
                          "group holding start_times and end_times",
                          rd->path, path);
    int64_t id = kind == SP_RD_GROUP ? region_id(s, name) : 0;
    if (!st && id < 0) st = sp_rd_no_memory(rd);
    columns c = {0};
    if (!st && kind == SP_RD_GROUP) st = read_columns(rd, path, &c);
    if (!st && c.n > 0) st = add_row(s, rank, (uint32_t)id, path, &c);
    free_columns(&c);
    free(path);
    return st;
}

static sp_status read_rank(legacy *s, const rank_group *g) {
    sp_textbuf t = SP_TEXTBUF_INIT;
    sp_textbuf_printf(&t, "/%s/regions", g->name);
    char *regions = sp_textbuf_take(&t);
    if (!regions) return sp_rd_no_memory(s->rd);
    links l = {0};
    sp_status st = SP_OK;
    if (sp_rd_kind_of(s->rd->file, regions) == SP_RD_GROUP) st = list_links(s->rd, regions, &l);
    for (size_t i = 0; !st && i < l.count; i++)
        st = read_region(s, g->rank, regions, l.names[i]);
    sp_rd_names_free(&l);
    free(regions);
    return st;
}

sp_status sp_rd_schema1(sp_rd *rd, sp_model *m) {
    links root;
    rank_group *groups;
    size_t n;
    sp_status st = root_rank_groups(rd, &root, 1, &groups, &n);
    legacy s = {.rd = rd, .m = m, .ids_complete = 1};
    for (size_t i = 0; !st && i < n; i++)
        st = read_rank(&s, &groups[i]);
    if (!st && s.ids_complete && m->num_events > 0) {
        m->call_ids = s.call_ids;
        m->parent_ids = s.parent_ids;
        s.call_ids = s.parent_ids = NULL;
    }
    free(s.call_ids);
    free(s.parent_ids);
    free(s.by_name);
    free(groups);
    sp_rd_names_free(&root);
    return st;
}
