/*
 * Writes the deep call trees of the depth-cap tests (issue 22 item 3) into DIR:
 *
 *   deep_chain.h5   one rank, a chain of 4,000 distinct nested regions
 *                   c0 > c1 > ... > c3999, call i from T0 + i us to T0 + (8000 - i) us
 *   deep_chain_100k.h5  the same chain 100,000 regions deep (call i ends at 200,000 - i us)
 *
 * Usage: make_deep DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/writer.h"
#include "model/model.h"

#define T0 1000000000000LL
#define US 1000LL

static void check(int ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "make_deep: %s failed\n", what);
        exit(1);
    }
}

static void add_row(sp_model *m, uint32_t g, int64_t start, int64_t duration) {
    sp_model_row *row = &m->rows[m->num_rows++];
    memset(row, 0, sizeof *row);
    m->starts[g] = start;
    m->durations[g] = duration;
    m->num_events++;
    row->region = g;
    row->offset = g;
    row->count = 1;
    row->source_line = -1;
    row->exclusive_total = -1;
    row->source_file = sp_strdup("");
    row->source_text = sp_strdup("");
    row->tags = sp_strdup("[]");
    row->event_metadata = sp_strdup("[]");
    check(row->source_file && row->source_text && row->tags && row->event_metadata, "strdup");
    sp_row_stats_compute(&row->stats, m->starts + g, m->durations + g, 1);
    row->has_stats = 1;
}

static void make_chain(const char *dir, const char *file, uint32_t depth) {
    sp_model m;
    memset(&m, 0, sizeof m);
    m.schema = 3;
    m.layout = SP_LAYOUT_COLUMNAR;
    m.num_regions = depth;
    m.region_names = calloc(depth, sizeof *m.region_names);
    m.starts = calloc(depth, sizeof *m.starts);
    m.durations = calloc(depth, sizeof *m.durations);
    m.rows = calloc(depth, sizeof *m.rows);
    check(m.region_names && m.starts && m.durations && m.rows, "calloc");
    for (uint32_t g = 0; g < depth; g++) {
        char name[16];
        snprintf(name, sizeof name, "c%u", (unsigned)g);
        check((m.region_names[g] = sp_strdup(name)) != NULL, "strdup");
        add_row(&m, g, T0 + (int64_t)g * US, (2 * (int64_t)depth - 2 * (int64_t)g) * US);
    }
    check(sp_model_meta_string(&m, "label", "deep") == SP_OK, "meta");
    check(sp_model_meta_int(&m, "start_time_ns", T0) == SP_OK, "meta");
    check(sp_model_meta_int(&m, "finalize_time_ns", T0 + 2 * (int64_t)depth * US) == SP_OK, "meta");
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    sp_write_options options = {SP_COMPRESSION_NONE, 0};
    sp_error err = {0};
    if (sp_write_model(&m, path, &options, &err) != SP_OK) {
        fprintf(stderr, "make_deep: %s\n", err.message);
        exit(1);
    }
    sp_model_clear(&m);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: make_deep DIR\n");
        return 2;
    }
    make_chain(argv[1], "deep_chain.h5", 4000);
    make_chain(argv[1], "deep_chain_100k.h5", 100000);
    return 0;
}
