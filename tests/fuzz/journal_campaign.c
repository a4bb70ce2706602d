/*
 * The journal-mutation campaign (issue 22, "Done when"): mutates journals
 * (the synthetic seed of fuzz_journal.c and any journals given) with byte
 * flips, overwritten ranges and truncations, recovers each, and counts what
 * recover made of them against the unmutated journal's calls:
 *   invented  - mutants whose profile holds a (region, thread) with more
 *               calls than the run made ("calls that never happened");
 *   altered   - mutants holding a call (region, thread, start, duration)
 *               the run never recorded (a damaged time taken for a call);
 *   unnested  - mutants whose calls do not nest on some thread (every tree
 *               view would refuse the profile).
 *
 * Exit status 1 when any mutant gained a call or lost its nesting.
 *
 *   journal_campaign SEED COUNT [JOURNAL...]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_journal.h"
#include "fuzz_load.h"
#include "recover/journal_read.h"

typedef struct call {
    const char *region;
    int64_t thread, start, duration;
} call;

typedef struct calls {
    call *v;
    size_t n;
    char *names; /* the names, owned (NUL-separated) */
} calls;

static int compare_call(const void *a, const void *b) {
    const call *x = a, *y = b;
    int c = strcmp(x->region, y->region);
    if (c) return c;
    if (x->thread != y->thread) return x->thread < y->thread ? -1 : 1;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    return (x->duration > y->duration) - (x->duration < y->duration);
}

/* The recovered calls, sorted; 0 when recover refused the bytes. */
static int recover_calls(const unsigned char *bytes, size_t size, calls *out) {
    memset(out, 0, sizeof *out);
    sp_journal j;
    sp_error err = {SP_OK, ""};
    if (sp_journal_parse(bytes, size, "campaign", &j, &err) != SP_OK) return 0;
    sp_journal *list[1] = {&j};
    sp_model m;
    memset(&m, 0, sizeof m);
    sp_recover_report report;
    int ok = sp_journal_build_model(list, 1, &m, &report, &err) == SP_OK;
    if (ok) {
        size_t text = 0;
        for (size_t r = 0; r < m.num_regions; r++)
            text += strlen(m.region_names[r]) + 1;
        out->names = malloc(text ? text : 1);
        out->v = malloc((m.num_events ? m.num_events : 1) * sizeof *out->v);
        ok = out->names && out->v;
        const char **name_at = calloc(m.num_regions ? m.num_regions : 1, sizeof *name_at);
        ok = ok && name_at;
        for (size_t r = 0, at = 0; ok && r < m.num_regions; r++) {
            strcpy(out->names + at, m.region_names[r]);
            name_at[r] = out->names + at;
            at += strlen(m.region_names[r]) + 1;
        }
        for (size_t r = 0; ok && r < m.num_rows; r++)
            for (uint64_t e = m.rows[r].offset; e < m.rows[r].offset + m.rows[r].count; e++)
                out->v[out->n++] =
                    (call){name_at[m.rows[r].region], m.thread_ids ? m.thread_ids[e] : 0,
                           m.starts[e], m.durations[e]};
        free(name_at);
        if (ok) qsort(out->v, out->n, sizeof *out->v, compare_call);
    }
    sp_model_clear(&m);
    sp_journal_free(&j);
    return ok;
}

static void calls_free(calls *c) {
    free(c->v);
    free(c->names);
}

/* Per (region, thread): more calls than the reference has. */
static int gained(const calls *ref, const calls *got) {
    size_t i = 0, k = 0;
    while (k < got->n) {
        size_t k2 = k, i2;
        while (k2 < got->n && !strcmp(got->v[k2].region, got->v[k].region) &&
               got->v[k2].thread == got->v[k].thread)
            k2++;
        while (i < ref->n && (strcmp(ref->v[i].region, got->v[k].region) < 0 ||
                              (!strcmp(ref->v[i].region, got->v[k].region) &&
                               ref->v[i].thread < got->v[k].thread)))
            i++;
        for (i2 = i; i2 < ref->n && !strcmp(ref->v[i2].region, got->v[k].region) &&
                     ref->v[i2].thread == got->v[k].thread;
             i2++)
            ;
        if (k2 - k > i2 - i) return 1;
        k = k2;
    }
    return 0;
}

static int altered(const calls *ref, const calls *got) {
    for (size_t k = 0; k < got->n; k++)
        if (!bsearch(&got->v[k], ref->v, ref->n, sizeof *ref->v, compare_call)) return 1;
    return 0;
}

static int by_thread_start(const void *a, const void *b) {
    const call *x = a, *y = b;
    if (x->thread != y->thread) return x->thread < y->thread ? -1 : 1;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    return (x->duration < y->duration) - (x->duration > y->duration); /* outer first */
}

/* Some call starts inside another of its thread and ends after it. */
static int unnested(calls *got) {
    qsort(got->v, got->n, sizeof *got->v, by_thread_start);
    int64_t *stack = malloc((got->n ? got->n : 1) * sizeof *stack);
    size_t depth = 0;
    int bad = 0;
    for (size_t k = 0; stack && k < got->n && !bad; k++) {
        if (k && got->v[k].thread != got->v[k - 1].thread) depth = 0;
        int64_t end = got->v[k].start + got->v[k].duration;
        while (depth && stack[depth - 1] <= got->v[k].start)
            depth--;
        if (depth && end > stack[depth - 1]) bad = 1;
        stack[depth++] = end;
    }
    free(stack);
    return bad;
}

static uint64_t state;
static uint32_t next(void) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(state >> 33);
}

/* Mutates within the journal's used bytes (past them is zeros). */
static size_t mutate(unsigned char *copy, size_t size, size_t used) {
    switch (next() % 3) {
    case 0:
        for (int k = 0; k < 1 + (int)(next() % 8); k++)
            copy[next() % used] ^= (unsigned char)(1u << (next() % 8));
        return size;
    case 1: {
        size_t at = next() % used, len = 1 + next() % 64;
        if (at + len > size) len = size - at;
        memset(copy + at, (int)(next() & 0xff), len);
        return size;
    }
    default:
        return next() % size;
    }
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: journal_campaign SEED COUNT [JOURNAL...]\n");
        return 2;
    }
    state = strtoull(argv[1], NULL, 10);
    long count = atol(argv[2]);
    int sources = argc - 2; /* the seed, then each journal */
    uint64_t total = 0, refused = 0, invented = 0, changed = 0, not_nested = 0;
    for (int s = 0; s < sources; s++) {
        size_t size = 0;
        unsigned char *journal =
            s == 0 ? sp_fuzz_journal_seed(&size) : sp_fuzz_load(argv[2 + s], &size);
        if (!journal) {
            fprintf(stderr, "journal_campaign: cannot read %s\n", s ? argv[2 + s] : "the seed");
            return 2;
        }
        size_t used = size;
        while (used > 1 && journal[used - 1] == 0)
            used--;
        calls ref;
        if (!recover_calls(journal, size, &ref)) {
            fprintf(stderr, "journal_campaign: %s does not recover unmutated\n",
                    s ? argv[2 + s] : "the seed");
            return 2;
        }
        unsigned char *copy = malloc(size);
        long mine = count / sources;
        for (long i = 0; copy && i < mine; i++) {
            memcpy(copy, journal, size);
            size_t n = mutate(copy, size, used);
            calls got;
            total++;
            if (!recover_calls(copy, n, &got)) {
                refused++;
                continue;
            }
            invented += gained(&ref, &got);
            changed += altered(&ref, &got);
            not_nested += unnested(&got);
            calls_free(&got);
        }
        free(copy);
        calls_free(&ref);
        free(journal);
    }
    printf("journal_campaign: seed %s: %llu mutated journals, %llu refused as not a journal, "
           "%llu with invented calls, %llu with altered calls, %llu not properly nested\n",
           argv[1], (unsigned long long)total, (unsigned long long)refused,
           (unsigned long long)invented, (unsigned long long)changed,
           (unsigned long long)not_nested);
    return invented || not_nested ? 1 : 0;
}
