#include "mpi/rank_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *sp_mpi_rank_file_path(const char *path, int rank) {
    size_t n = strlen(path);
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(path, '.');
    size_t stem = dot && (!slash || dot > slash + 1) ? (size_t)(dot - path) : n;
    char *out = malloc(stem + 32);
    if (out) snprintf(out, stem + 32, "%.*s.rank%d.h5", (int)stem, path, rank);
    return out;
}

void sp_mpi_write_rank_file(sp_session_data *data, int rank, int size) {
    char *path = sp_mpi_rank_file_path(data->config.file_path, rank);
    if (!path) {
        fprintf(stderr, "scope-profiler: rank %d: out of memory; its calls are lost\n", rank);
        return;
    }
    if (data->model.num_meta == 0) sp_internal_session_describe(data, size, 0);
    sp_model_meta_int(&data->model, "mpi_rank", rank);
    char *target = data->config.file_path;
    data->config.file_path = path;
    data->target.taken = 0; /* the check was for the shared file */
    if (sp_internal_session_write(data, &data->model) == SP_OK)
        fprintf(stderr,
                "scope-profiler: rank %d saved its calls to %s (join the ranks' files "
                "with: scope-profiler merge)\n",
                rank, path);
    data->config.file_path = target;
    free(path);
}
