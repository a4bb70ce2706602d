/* sp_write_balance_json(): the load-balance report (docs/parallel.md) as JSON. */
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/error.h"
#include "present/json_build.h"
#include "present/json_print.h"

static struct json_object *balance_object(const sp_balance *b, int threads) {
    struct json_object *o = json_object_new_object();
    int ok = o != NULL;
    ok = ok && sp_json_add_int(o, threads ? "threads" : "ranks", (int64_t)b->count);
    ok = ok && sp_json_add_double(o, "mean", b->mean);
    ok = ok && sp_json_add_double(o, "max", b->max);
    ok = ok && sp_json_add_double(o, "min", b->min);
    ok = ok && sp_json_add_double(o, "imbalance", b->imbalance);
    ok = ok && sp_json_add_double(o, "load_balance", b->load_balance);
    if (b->count) {
        ok = ok && sp_json_add_int(o, "slowest_rank", b->slowest_rank);
        if (threads) ok = ok && sp_json_add_int(o, "slowest_thread", b->slowest_thread);
        ok = ok && sp_json_add_int(o, "fastest_rank", b->fastest_rank);
        if (threads) ok = ok && sp_json_add_int(o, "fastest_thread", b->fastest_thread);
    }
    if (!ok) {
        json_object_put(o);
        return NULL;
    }
    return o;
}

static struct json_object *steps_object(const sp_step_balance *s) {
    struct json_object *o = json_object_new_object();
    int ok = o != NULL;
    ok = ok && sp_json_add_string(o, "kind", sp_imbalance_kind_name(s->kind));
    ok = ok && sp_json_add_int(o, "steps", (int64_t)s->steps);
    ok = ok && sp_json_add_int(o, "ranks", (int64_t)s->num_ranks);
    if (s->kind != SP_IMBALANCE_NOT_APPLICABLE) {
        ok = ok && sp_json_add_int(o, "straggler", s->straggler);
        ok = ok && sp_json_add_int(o, "straggler_steps", (int64_t)s->straggler_steps);
        ok = ok && sp_json_add_double(o, "straggler_share", s->straggler_share);
        ok = ok && sp_json_add_double(o, "step_time", s->step_time);
        ok = ok && sp_json_add_double(o, "mean_time", s->mean_time);
        ok = ok && sp_json_add_double(o, "saved", s->saved);
    }
    if (!ok) {
        json_object_put(o);
        return NULL;
    }
    return o;
}

/* The PMPI wrappers' byte counts: the total and each rank's (ranks without a
 * count left out). NULL when out of memory. */
static int selected(const uint32_t *ranks, size_t n, uint32_t rank) {
    for (size_t i = 0; i < n; i++)
        if (ranks[i] == rank) return 1;
    return n == 0;
}

static struct json_object *bytes_object(const sp_mpi_region *region, const uint32_t *ranks,
                                        size_t num_ranks) {
    struct json_object *o = json_object_new_object(), *list = json_object_new_array();
    int ok = o && list;
    int64_t total = 0;
    for (size_t i = 0; ok && i < sp_mpi_region_num_ranks(region); i++) {
        uint32_t rank = sp_mpi_region_rank_id(region, i);
        const sp_rank_region *rr = sp_mpi_region_rank(region, rank, NULL);
        int64_t bytes =
            rr && selected(ranks, num_ranks, rank) ? sp_rank_region_message_bytes(rr) : -1;
        if (bytes < 0) continue;
        total += bytes;
        struct json_object *one = json_object_new_object();
        ok = one && sp_json_add_int(one, "rank", rank) && sp_json_add_int(one, "bytes", bytes);
        if (!ok) json_object_put(one);
        ok = ok && sp_json_append(list, one);
    }
    ok = ok && sp_json_add_int(o, "total", total);
    if (ok) return sp_json_add(o, "per_rank", list) ? o : (json_object_put(o), NULL);
    json_object_put(list);
    json_object_put(o);
    return NULL;
}

static sp_status region_objects(const sp_results *r, const sp_filter *filter,
                                struct json_object *list, sp_error *err) {
    size_t n = 0;
    const sp_mpi_region **regions = sp_results_get_regions(r, filter, &n, err);
    if (!regions) return err ? err->status : SP_ERR_OUT_OF_MEMORY;
    sp_status st = SP_OK;
    for (size_t i = 0; st == SP_OK && i < n; i++) {
        sp_balance ranks, threads;
        sp_step_balance steps;
        memset(&threads, 0, sizeof threads);
        memset(&steps, 0, sizeof steps);
        const uint32_t *sel = filter ? filter->ranks : NULL; /* the selected ranks' balance */
        size_t num_sel = filter ? filter->num_ranks : 0;
        int columnar = sp_results_has_events(r);
        st = sp_region_balance_over(regions[i], sel, num_sel, &ranks, columnar ? &threads : NULL,
                                    columnar ? &steps : NULL, err);
        if (st != SP_OK) break;
        struct json_object *o = json_object_new_object();
        int ok = o && sp_json_add_string(o, "name", sp_mpi_region_name(regions[i])) &&
                 sp_json_add(o, "ranks", balance_object(&ranks, 0));
        sp_balance outside; /* with the wait states attached: the time outside MPI waits */
        if (ok && sp_region_outside_balance(regions[i], sel, num_sel, &outside) == SP_OK)
            ok = sp_json_add(o, "outside_waits", balance_object(&outside, 0));
        if (ok && columnar)
            ok = sp_json_add(o, "threads", balance_object(&threads, 1)) &&
                 sp_json_add(o, "steps", steps_object(&steps));
        if (ok && sp_mpi_region_message_bytes(regions[i]) >= 0)
            ok = sp_json_add(o, "message_bytes", bytes_object(regions[i], sel, num_sel));
        if (!ok) json_object_put(o);
        if (!ok || !sp_json_append(list, o))
            st = sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    }
    sp_region_list_free(regions);
    return st;
}

static sp_status path_objects(const sp_results *r, const sp_filter *filter,
                              struct json_object *list, sp_error *err) {
    sp_table_rows rows;
    sp_status st = sp_table_rows_build(r, filter, NULL, NULL, &rows, err);
    for (size_t i = 0; st == SP_OK && i < rows.count; i++) {
        const sp_table_row *row = &rows.rows[i];
        if (!row->call_path || !row->has_balance) continue;
        struct json_object *o = json_object_new_object();
        int ok = o && sp_json_add_string(o, "path", row->call_path) &&
                 sp_json_add_int(o, "calls", (int64_t)row->calls) &&
                 sp_json_add_int(o, "max_threads_per_rank", (int64_t)row->threads) &&
                 sp_json_add(o, "ranks", balance_object(&row->rank_balance, 0)) &&
                 sp_json_add(o, "threads", balance_object(&row->thread_balance, 1));
        if (ok && row->has_outside)
            ok = sp_json_add(o, "outside_waits", balance_object(&row->outside_balance, 0));
        if (!ok) json_object_put(o);
        if (!ok || !sp_json_append(list, o))
            st = sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    }
    if (st == SP_OK) sp_table_rows_free(&rows);
    return st;
}

sp_status sp_write_balance_json(const sp_results *results, FILE *out, const sp_filter *filter,
                                sp_error *err) {
    if (!results || !out)
        return sp_error_set(err, SP_ERR_INVALID_ARGUMENT, "sp_write_balance_json: NULL");
    struct json_object *doc = json_object_new_object();
    struct json_object *regions = json_object_new_array();
    struct json_object *paths = json_object_new_array();
    sp_status st = doc && regions && paths ? SP_OK : SP_ERR_OUT_OF_MEMORY;
    if (st == SP_OK) st = region_objects(results, filter, regions, err);
    if (st == SP_OK) st = path_objects(results, filter, paths, err);
    int ok = st == SP_OK && sp_json_add_string(doc, "file", sp_results_path(results)) &&
             sp_json_add_int(doc, "ranks", (int64_t)sp_results_num_ranks(results)) &&
             sp_json_add_int(doc, "threads", (int64_t)sp_results_num_threads(results));
    if (ok && sp_results_excluded_state(results)) /* MPI calls on several ranks */
        ok = sp_json_add_string(doc, "mpi_waits",
                                sp_results_excluded_state(results) > 0 ? "known" : "unknown");
    if (ok) {
        ok = sp_json_add(doc, "regions", regions);
        regions = NULL;
        ok = ok && sp_json_add(doc, "paths", paths);
        paths = NULL;
    }
    char *text = ok ? sp_json_document(doc) : NULL;
    json_object_put(regions);
    json_object_put(paths);
    json_object_put(doc);
    if (st != SP_OK) return st;
    if (!text) return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    size_t len = strlen(text);
    int written = fwrite(text, 1, len, out) == len && fflush(out) == 0;
    free(text);
    return written ? SP_OK : sp_error_set(err, SP_ERR_IO, "cannot write the balance JSON");
}
