/*
 * The MPI peer-data reader (src/waits/peer_read.c) and the wait-state
 * analysis on what it accepts, fed pseudo-random /scope_profiler_c/mpi_calls
 * groups: column lengths that agree or not, values from the plausible
 * (-3..8) to the extreme, now and then a float column, a missing one or a
 * version from the future. A read must succeed or fail with a status a file
 * can cause and a one-line message naming the file; the analysis must then
 * finish on a small two-rank model without touching memory it does not own
 * (ASan) and leave no HDF5 object open.
 * Usage: fuzz_peers_driver SEED COUNT
 */
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "waits/waits.h"

static uint64_t state;
static uint32_t next(void) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(state >> 33);
}

static int64_t value(void) {
    uint32_t r = next() % 64;
    if (r == 0) return INT64_MAX;
    if (r == 1) return INT64_MIN;
    if (r == 2) return (int64_t)next() << 20;
    return (int64_t)(next() % 12) - 3;
}

static size_t num_names;

/* Mostly values that pass the reader's checks, so that the analysis runs. */
static int64_t value_for(const char *name, size_t i) {
    if (next() % 100 == 0) return value();
    if (strcmp(name, "calls") == 0) return num_names ? (int64_t)(next() % num_names) : 0;
    if (strcmp(name, "comm_sizes") == 0) return 2;
    if (strcmp(name, "comm_members") == 0 || strstr(name, "ranks")) return (int64_t)(i % 2);
    return value();
}

static void column(hid_t g, const char *name, size_t n) {
    hsize_t dims[1] = {n};
    hid_t space = H5Screate_simple(1, dims, NULL);
    int as_float = next() % 97 == 0;
    hid_t type = as_float ? H5T_NATIVE_DOUBLE : H5T_NATIVE_INT64;
    hid_t set = H5Dcreate2(g, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    void *buf = malloc((n ? n : 1) * 8);
    for (size_t i = 0; i < n; i++) {
        if (as_float)
            ((double *)buf)[i] = (double)value();
        else
            ((int64_t *)buf)[i] = value_for(name, i);
    }
    if (n) H5Dwrite(set, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
    free(buf);
    H5Dclose(set);
    H5Sclose(space);
}

static void names(hid_t g, size_t n) {
    static const char *const all[] = {"MPI_Send",   "MPI_Recv",    "MPI_Isend",   "MPI_Irecv",
                                      "MPI_Wait",   "MPI_Waitall", "MPI_Barrier", "MPI_Bcast",
                                      "MPI_Reduce", "MPI_Sendrecv"};
    const char *pick[16];
    for (size_t i = 0; i < n; i++)
        pick[i] = all[next() % 10];
    hsize_t dims[1] = {n};
    hid_t space = H5Screate_simple(1, dims, NULL);
    hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, H5T_VARIABLE);
    hid_t set = H5Dcreate2(g, "call_names", type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (n) H5Dwrite(set, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, pick);
    H5Dclose(set);
    H5Tclose(type);
    H5Sclose(space);
}

static void build(const char *path) {
    static const char *const tables[][11] = {
        {"ranks", "calls", "peers", "tags", "communicators", "bytes", "aux", "sources",
         "source_tags", "threads", NULL},
        {"completion_ranks", "completion_requests", "completion_sources", "completion_tags", NULL},
        {"comm_ranks", "comm_ids", "comm_sizes", NULL},
        {"comm_members", NULL},
        {"complete", NULL}};
    num_names = 1 + next() % 10;
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t top = H5Gcreate2(file, "scope_profiler_c", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    hid_t g = H5Gcreate2(top, "mpi_calls", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (next() % 50 == 0) {
        hid_t s = H5Screate(H5S_SCALAR);
        hid_t a = H5Acreate2(g, "extension_version", H5T_NATIVE_INT64, s, H5P_DEFAULT, H5P_DEFAULT);
        int64_t v = 2;
        H5Awrite(a, H5T_NATIVE_INT64, &v);
        H5Aclose(a);
        H5Sclose(s);
    }
    for (size_t t = 0; t < sizeof tables / sizeof *tables; t++) {
        size_t n = t == 2 ? 2 : t == 3 ? 4 : next() % 12;
        for (size_t c = 0; tables[t][c]; c++) {
            if (next() % 400 == 0) continue; /* missing */
            if (strcmp(tables[t][c], "threads") == 0 && next() % 2) continue; /* optional */
            column(g, tables[t][c], next() % 100 == 0 ? next() % 9 : n);
        }
    }
    if (next() % 400) names(g, num_names);
    H5Gclose(g);
    H5Gclose(top);
    H5Fclose(file);
}

static sp_model two_ranks(void) {
    static char *regions[] = {"MPI_Send", "MPI_Recv", "MPI_Barrier", "compute"};
    static sp_model_row rows[6];
    static int64_t starts[12], durations[12];
    sp_model m = {0};
    m.region_names = regions;
    m.num_regions = 4;
    for (uint32_t i = 0; i < 6; i++)
        rows[i] = (sp_model_row){
            .region = i % 3 == 2 ? 3 : i % 3, .rank = i / 3, .offset = 2 * i, .count = 2};
    for (int i = 0; i < 12; i++) {
        starts[i] = (int64_t)(next() % 1000);
        durations[i] = (int64_t)(next() % 100);
    }
    m.rows = rows;
    m.num_rows = 6;
    m.starts = starts;
    m.durations = durations;
    m.num_events = 12;
    return m;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: fuzz_peers_driver SEED COUNT\n");
        return 2;
    }
    state = strtoull(argv[1], NULL, 10);
    long count = strtol(argv[2], NULL, 10);
    char path[256];
    snprintf(path, sizeof path, "%s/sp_fuzz_peers_%ld.h5",
             access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp", (long)getpid());
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    long accepted = 0;
    int bad = 0;
    for (long i = 0; i < count && !bad; i++) {
        build(path);
        sp_peer_table t;
        int present = 0;
        sp_error err = {0};
        sp_status st = sp_peer_table_read(path, &t, &present, &err);
        if (H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL) != 0) bad = 1;
        if (st) {
            bad |= !(st == SP_ERR_DAMAGED || st == SP_ERR_BAD_DATASET ||
                     st == SP_ERR_SCHEMA_TOO_NEW) ||
                   strncmp(err.message, path, strlen(path)) != 0 || strchr(err.message, '\n');
            if (bad) fprintf(stderr, "input %ld: status %d: %s\n", i, st, err.message);
            continue;
        }
        accepted++;
        sp_model m = two_ranks();
        sp_waits w;
        if (sp_waits_compute(&m, present ? &t : NULL, 1 + (int64_t)(next() % 16), &w, &err) ==
            SP_OK)
            sp_waits_free(&w);
        sp_peer_table_free(&t);
    }
    unlink(path);
    printf("%ld inputs, %ld accepted\n", count, accepted);
    return bad;
}
