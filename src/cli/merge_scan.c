/* merge: the first pass over the inputs (merge.h). */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_contain.h"
#include "cli/cli_error.h"
#include "cli/merge.h"
#include "format/reader.h"

static int compare_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The distinct ranks of the rows, ascending. */
static int collect_ranks(merge_input *in, const sp_model *m) {
    in->ranks = malloc((m->num_rows ? m->num_rows : 1) * sizeof *in->ranks);
    if (!in->ranks) return 0;
    for (size_t i = 0; i < m->num_rows; i++)
        in->ranks[i] = m->rows[i].rank;
    qsort(in->ranks, m->num_rows, sizeof *in->ranks, compare_u32);
    size_t n = 0;
    for (size_t i = 0; i < m->num_rows; i++)
        if (n == 0 || in->ranks[i] != in->ranks[n - 1]) in->ranks[n++] = in->ranks[i];
    in->num_ranks = n;
    return 1;
}

/* A one-rank file whose rows say rank 0 but whose metadata names its MPI
 * rank (a per-rank file of the Python package's C backend) is that rank. */
static void apply_mpi_rank(merge_input *in, const sp_model *m) {
    in->remap_rank0 = -1;
    const sp_meta_entry *e = sp_model_meta_find(m, "mpi_rank");
    if (!e || e->type != SP_META_INT || e->i <= 0 || e->i > INT32_MAX) return;
    if (in->num_ranks != 1 || in->ranks[0] != 0) return;
    in->remap_rank0 = e->i;
    in->ranks[0] = (uint32_t)e->i;
}

static int take_facts(merge_input *in, sp_model *m) {
    if (!collect_ranks(in, m)) return 0;
    apply_mpi_rank(in, m);
    const sp_meta_entry *host = sp_model_meta_find(m, "hostname");
    if (host && host->type == SP_META_STRING && host->s[0]) {
        in->hostname = strdup(host->s);
        if (!in->hostname) return 0;
    }
    in->names = m->region_names; /* kept for the region table */
    in->num_names = m->num_regions;
    m->region_names = NULL;
    m->num_regions = 0;
    in->num_events = m->num_events;
    in->has_threads = m->thread_ids != NULL;
    return 1;
}

static void free_input(merge_input *in) {
    for (size_t k = 0; k < in->num_names; k++)
        free(in->names[k]);
    free(in->names);
    free(in->ranks);
    free(in->region_map);
    free(in->hostname);
    memset(in, 0, sizeof *in);
}

static int scan_one(const char *path, merge_input *in) {
    sp_model m;
    memset(&m, 0, sizeof m);
    sp_error err = {0};
    in->path = path;
    cli_reading(path);
    if (sp_read_model(path, &m, &err) != SP_OK) {
        cli_error_sp(&err);
        return CLI_EXIT_USAGE;
    }
    int rc = 0;
    in->aggregate = m.layout == SP_LAYOUT_AGGREGATE;
    if (!take_facts(in, &m)) rc = cli_out_of_memory();
    for (size_t i = 0; in->aggregate && i < m.num_rows; i++)
        in->num_events += m.rows[i].count; /* its calls, though it keeps none */
    sp_model_clear(&m);
    if (rc) free_input(in);
    return rc;
}

/* --- ranks ----------------------------------------------------------------- */

typedef struct rank_owner {
    uint32_t rank;
    size_t input; /* position in the argument order */
} rank_owner;

static int compare_owners(const void *a, const void *b) {
    const rank_owner *x = a, *y = b;
    if (x->rank != y->rank) return (x->rank > y->rank) - (x->rank < y->rank);
    return (x->input > y->input) - (x->input < y->input);
}

/* Refuses two files that hold the same rank; counts the ranks. */
static int check_ranks(merge_plan *plan) {
    size_t total = 0;
    for (size_t i = 0; i < plan->count; i++)
        total += plan->inputs[i].num_ranks;
    rank_owner *owners = malloc((total ? total : 1) * sizeof *owners);
    if (!owners) return cli_out_of_memory();
    size_t n = 0;
    for (size_t i = 0; i < plan->count; i++)
        for (size_t k = 0; k < plan->inputs[i].num_ranks; k++)
            owners[n++] = (rank_owner){plan->inputs[i].ranks[k], i};
    qsort(owners, n, sizeof *owners, compare_owners);
    int rc = 0;
    for (size_t i = 1; i < n && !rc; i++)
        if (owners[i].rank == owners[i - 1].rank) {
            cli_error("rank %u is in both %s and %s: merge joins files of different ranks",
                      (unsigned)owners[i].rank, plan->inputs[owners[i - 1].input].path,
                      plan->inputs[owners[i].input].path);
            rc = CLI_EXIT_USAGE;
        }
    plan->num_ranks = n;
    plan->max_rank = n ? owners[n - 1].rank : 0;
    free(owners);
    return rc;
}

/* Aggregate files merge with aggregate files only: per-call events and
 * totals per call path cannot share one layout. */
static int check_layouts(merge_plan *plan) {
    plan->aggregate = plan->count > 0 && plan->inputs[0].aggregate;
    for (size_t i = 1; i < plan->count; i++)
        if (plan->inputs[i].aggregate != plan->aggregate) {
            const merge_input *agg = plan->aggregate ? &plan->inputs[0] : &plan->inputs[i];
            const merge_input *calls = plan->aggregate ? &plan->inputs[i] : &plan->inputs[0];
            cli_error("%s holds aggregate statistics only (storage_layout \"aggregate\") and %s "
                      "per-call events: merge joins files of one layout",
                      agg->path, calls->path);
            return CLI_EXIT_USAGE;
        }
    return 0;
}

/* Files by lowest rank; files without rows last, in argument order. */
static int compare_inputs(const void *a, const void *b) {
    const merge_input *x = a, *y = b;
    if (!x->num_ranks || !y->num_ranks) return (int)!x->num_ranks - (int)!y->num_ranks;
    return (x->ranks[0] > y->ranks[0]) - (x->ranks[0] < y->ranks[0]);
}

/* --- the merged region table -------------------------------------------- */

typedef struct name_set {
    size_t *slots; /* index into names + 1; 0 = empty */
    size_t mask;
} name_set;

static size_t hash_name(const char *s) {
    size_t h = 1469598103934665603u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

/* The merged index of name, adding it when new. */
static size_t name_index(merge_plan *plan, name_set *set, char *name) {
    size_t i = hash_name(name) & set->mask;
    while (set->slots[i]) {
        size_t k = set->slots[i] - 1;
        if (strcmp(plan->names[k], name) == 0) return k;
        i = (i + 1) & set->mask;
    }
    plan->names[plan->num_names] = name;
    set->slots[i] = ++plan->num_names;
    return plan->num_names - 1;
}

/* The lowest rank's file's table, then names new to it in rank order (like
 * the MPI library's finalize). The names move from the inputs to the plan. */
static int build_region_table(merge_plan *plan) {
    size_t total = 0;
    for (size_t i = 0; i < plan->count; i++)
        total += plan->inputs[i].num_names;
    size_t cap = 16;
    while (cap < 2 * total)
        cap *= 2;
    name_set set = {calloc(cap, sizeof(size_t)), cap - 1};
    plan->names = malloc((total ? total : 1) * sizeof *plan->names);
    int ok = set.slots && plan->names;
    for (size_t i = 0; ok && i < plan->count; i++) {
        merge_input *in = &plan->inputs[i];
        in->region_map = malloc((in->num_names ? in->num_names : 1) * sizeof *in->region_map);
        ok = in->region_map != NULL;
        for (size_t k = 0; ok && k < in->num_names; k++) {
            size_t before = plan->num_names;
            in->region_map[k] = (uint32_t)name_index(plan, &set, in->names[k]);
            if (plan->num_names == before) free(in->names[k]); /* a name seen before */
            in->names[k] = NULL;
        }
    }
    free(set.slots);
    return ok ? 0 : cli_out_of_memory();
}

static size_t count_nodes(const merge_plan *plan) {
    size_t nodes = 0;
    for (size_t i = 0; i < plan->count; i++) {
        const char *host = plan->inputs[i].hostname;
        if (!host) return 0;
        size_t k = 0;
        while (k < i && strcmp(plan->inputs[k].hostname, host) != 0)
            k++;
        nodes += k == i;
    }
    return nodes;
}

int merge_scan(const cli_list *files, merge_plan *plan) {
    memset(plan, 0, sizeof *plan);
    plan->inputs = calloc(files->count ? files->count : 1, sizeof *plan->inputs);
    if (!plan->inputs) return cli_out_of_memory();
    int rc = 0;
    for (size_t i = 0; i < files->count; i++) {
        int one = scan_one(files->items[i], &plan->inputs[plan->count]);
        if (one)
            rc = one;
        else
            plan->count++;
    }
    if (!rc) rc = check_layouts(plan);
    if (!rc) rc = check_ranks(plan);
    if (rc) return rc;
    qsort(plan->inputs, plan->count, sizeof *plan->inputs, compare_inputs);
    for (size_t i = 0; i < plan->count; i++) {
        plan->total_events += plan->inputs[i].num_events;
        plan->has_threads |= plan->inputs[i].has_threads;
    }
    plan->num_nodes = count_nodes(plan);
    return build_region_table(plan);
}

uint32_t merge_row_rank(const merge_input *in, uint32_t rank) {
    return in->remap_rank0 >= 0 && rank == 0 ? (uint32_t)in->remap_rank0 : rank;
}

void merge_plan_free(merge_plan *plan) {
    for (size_t i = 0; i < plan->count; i++)
        free_input(&plan->inputs[i]);
    for (size_t k = 0; k < plan->num_names; k++)
        free(plan->names[k]);
    free(plan->names);
    free(plan->inputs);
    memset(plan, 0, sizeof *plan);
}
