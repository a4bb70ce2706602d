#include "mpi/aggregate_gather.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpi/rank_file.h"
#include "mpi/region_union.h"
#include "record/aggregate_ranks.h"

/* Rank 0: the ranks' bytes, gathered (sizes[r] < 0: that rank failed to pack). */
static sp_status write_on_rank0(sp_session_data *data, int size, const int *sizes,
                                unsigned char *all, const sp_region_union *u, int64_t num_nodes) {
    const unsigned char **packs = malloc((size_t)size * sizeof *packs);
    size_t *lengths = malloc((size_t)size * sizeof *lengths);
    sp_status st = packs && lengths ? SP_OK : SP_ERR_OUT_OF_MEMORY;
    size_t at = 0;
    for (int r = 0; !st && r < size; r++) {
        if (sizes[r] < 0) st = SP_ERR_OUT_OF_MEMORY;
        packs[r] = all + at;
        lengths[r] = sizes[r] < 0 ? 0 : (size_t)sizes[r];
        at += lengths[r];
    }
    if (!st)
        st = sp_internal_agg_write_ranks(data, packs, lengths, size, u->names, u->num_names, u->map,
                                         u->map_length, num_nodes);
    free(packs);
    free(lengths);
    return st;
}

sp_status sp_mpi_aggregate_finalize(MPI_Comm comm, int rank, int size, sp_session_data *data,
                                    int64_t num_nodes) {
    size_t n = 0;
    unsigned char *pack = sp_internal_agg_pack(&data->model, &n);
    int mine = pack && n <= INT_MAX ? (int)n : -1;
    int *sizes = rank == 0 ? calloc((size_t)size, sizeof *sizes) : NULL;
    int *displs = rank == 0 ? calloc((size_t)size, sizeof *displs) : NULL;
    int *counts = rank == 0 ? calloc((size_t)size, sizeof *counts) : NULL;
    MPI_Gather(&mine, 1, MPI_INT, sizes, 1, MPI_INT, 0, comm);
    sp_region_union u;
    int rc = sp_region_union_build(comm, rank, size, data->model.region_names,
                                   data->model.num_regions, &u);
    unsigned char *all = NULL;
    sp_status st = SP_OK;
    if (rank == 0) {
        long long total = 0;
        for (int r = 0; sizes && r < size; r++) {
            counts[r] = sizes[r] > 0 ? sizes[r] : 0;
            displs[r] = (int)total;
            total += counts[r];
        }
        if (!sizes || !displs || !counts || total > INT_MAX) st = SP_ERR_OUT_OF_MEMORY;
        all = st ? NULL : malloc(total ? (size_t)total : 1);
        if (!all) st = SP_ERR_OUT_OF_MEMORY;
    }
    /* Every rank takes part even after a failure, so that none is left blocked. */
    MPI_Gatherv(pack, mine > 0 ? mine : 0, MPI_BYTE, all, counts, displs, MPI_BYTE, 0, comm);
    if (rank == 0 && !st)
        st = rc != MPI_SUCCESS ? SP_ERR_MPI : write_on_rank0(data, size, sizes, all, &u, num_nodes);
    int status = (int)st;
    MPI_Bcast(&status, 1, MPI_INT, 0, comm);
    if (rank == 0 && st)
        fprintf(stderr, "scope-profiler: rank 0 could not write the aggregate profile (%s)\n",
                sp_status_string(st));
    if (status != SP_OK) sp_mpi_write_rank_file(data, rank, size); /* nothing gets lost */
    sp_region_union_free(&u);
    free(all);
    free(sizes);
    free(displs);
    free(counts);
    free(pack);
    return (sp_status)status;
}
