/*
 * The run's region table: every rank registered its regions in its own
 * order, so rank 0 gathers all names and builds the union (rank 0's order
 * first, then names new to it in rank order) with a map per rank from its
 * local region ids to the union's.
 */
#ifndef SP_MPI_REGION_UNION_H
#define SP_MPI_REGION_UNION_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

typedef struct sp_region_union {
    size_t num_names;
    char **names;
    uint32_t **map;     /* map[rank][local id] = union id (rank 0 only) */
    size_t *map_length; /* number of local ids of each rank */
    int size;
} sp_region_union;

/* Collective. Fills u on rank 0 (on other ranks it stays empty). Returns
 * MPI_SUCCESS, an MPI error code, or MPI_ERR_NO_MEM. */
int sp_region_union_build(MPI_Comm comm, int rank, int size, char *const *names, size_t num_names,
                          sp_region_union *u);
void sp_region_union_free(sp_region_union *u);

#endif
