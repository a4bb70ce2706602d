#include "mpi/region_union.h"

#include <stdlib.h>
#include <string.h>

#include "common/blob.h"

void sp_region_union_free(sp_region_union *u) {
    for (size_t i = 0; i < u->num_names; i++)
        free(u->names[i]);
    free(u->names);
    for (int r = 0; r < u->size && u->map; r++)
        free(u->map[r]);
    free(u->map);
    free(u->map_length);
    memset(u, 0, sizeof *u);
}

/* Index of name in the union, adding it if new; -1 when out of memory.
 * A linear search: region tables are small (tens to hundreds of names). */
static long union_index(sp_region_union *u, const char *name, size_t *capacity) {
    for (size_t i = 0; i < u->num_names; i++)
        if (strcmp(u->names[i], name) == 0) return (long)i;
    if (u->num_names == *capacity) {
        size_t grown_capacity = *capacity ? *capacity * 2 : 64;
        char **grown = realloc(u->names, grown_capacity * sizeof *grown);
        if (!grown) return -1;
        u->names = grown;
        *capacity = grown_capacity;
    }
    if (!(u->names[u->num_names] = strdup(name))) return -1;
    return (long)u->num_names++;
}

static int build_on_root(sp_region_union *u, const unsigned char *all, const int *lengths,
                         const int *displacements, int size) {
    u->size = size;
    u->map = calloc((size_t)size, sizeof *u->map);
    u->map_length = calloc((size_t)size, sizeof *u->map_length);
    if (!u->map || !u->map_length) return MPI_ERR_NO_MEM;
    size_t capacity = 0;
    for (int r = 0; r < size; r++) {
        sp_blob_reader in = {all + displacements[r], (size_t)lengths[r], 0, 0};
        uint64_t count = 0;
        sp_blob_get(&in, &count, sizeof count);
        if (in.failed || count > (uint64_t)lengths[r]) return MPI_ERR_OTHER;
        u->map[r] = malloc((count ? count : 1) * sizeof *u->map[r]);
        if (!u->map[r]) return MPI_ERR_NO_MEM;
        u->map_length[r] = count;
        for (uint64_t i = 0; i < count; i++) {
            char *name = sp_blob_get_string(&in);
            long index = name ? union_index(u, name, &capacity) : -1;
            free(name);
            if (index < 0) return MPI_ERR_NO_MEM;
            u->map[r][i] = (uint32_t)index;
        }
    }
    return MPI_SUCCESS;
}

int sp_region_union_build(MPI_Comm comm, int rank, int size, char *const *names, size_t num_names,
                          sp_region_union *u) {
    memset(u, 0, sizeof *u);
    sp_blob mine = {0};
    uint64_t count = num_names;
    sp_blob_put(&mine, &count, sizeof count);
    for (size_t i = 0; i < num_names; i++)
        sp_blob_put_string(&mine, names[i]);
    if (mine.failed || mine.size > INT32_MAX) {
        sp_blob_free(&mine);
        return MPI_ERR_NO_MEM;
    }
    int length = (int)mine.size;
    int *lengths = NULL, *displacements = NULL;
    unsigned char *all = NULL;
    int rc = MPI_SUCCESS;
    if (rank == 0) {
        lengths = malloc((size_t)size * sizeof *lengths);
        displacements = malloc((size_t)size * sizeof *displacements);
        if (!lengths || !displacements) rc = MPI_ERR_NO_MEM;
    }
    /* Everyone takes part in the gathers even after a local failure. */
    int gather_rc = MPI_Gather(&length, 1, MPI_INT, lengths, 1, MPI_INT, 0, comm);
    if (rc == MPI_SUCCESS) rc = gather_rc;
    long total = 0;
    if (rank == 0 && rc == MPI_SUCCESS) {
        for (int r = 0; r < size; r++) {
            displacements[r] = (int)total;
            total += lengths[r];
        }
        if (total > INT32_MAX || !(all = malloc(total ? (size_t)total : 1))) rc = MPI_ERR_NO_MEM;
    }
    gather_rc =
        MPI_Gatherv(mine.data, length, MPI_BYTE, all, lengths, displacements, MPI_BYTE, 0, comm);
    if (rc == MPI_SUCCESS) rc = gather_rc;
    if (rank == 0 && rc == MPI_SUCCESS) rc = build_on_root(u, all, lengths, displacements, size);
    if (rc != MPI_SUCCESS) sp_region_union_free(u);
    free(all);
    free(lengths);
    free(displacements);
    sp_blob_free(&mine);
    return rc;
}
