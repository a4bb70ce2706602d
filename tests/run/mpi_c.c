/* An unmodified C MPI program (no scope-profiler calls): on 4 ranks every
 * rank makes each call below a known number of times with known counts, so
 * that run_mpi.sh can check the calls and bytes scope-profiler run records. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double a[100] = {0}, b[400] = {0};
    int counts[4] = {1, 2, 3, 4}, displs[4] = {0, 1, 3, 6}, twos[4] = {2, 2, 2, 2},
        twodispl[4] = {0, 2, 4, 6}, ones[4] = {1, 1, 1, 1};
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    /* v-collectives: rank r contributes r+1 doubles */
    MPI_Allgatherv(a, rank + 1, MPI_DOUBLE, b, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
    MPI_Gatherv(a, rank + 1, MPI_DOUBLE, b, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Scatterv(a, counts, displs, MPI_DOUBLE, b, rank + 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Alltoallv(a, twos, twodispl, MPI_DOUBLE, b, twos, twodispl, MPI_DOUBLE, MPI_COMM_WORLD);
    MPI_Reduce_scatter(a, b, ones, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    /* point to point around the ring: 3 doubles, tested once, then waited */
    MPI_Request req[2];
    int flag, index, outcount, indices[2];
    MPI_Irecv(b, 3, MPI_DOUBLE, prev, 7, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(a, 3, MPI_DOUBLE, next, 7, MPI_COMM_WORLD, &req[1]);
    MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    MPI_Testall(2, req, &flag, MPI_STATUSES_IGNORE); /* null requests: complete at once */
    MPI_Testany(2, req, &index, &flag, MPI_STATUS_IGNORE);
    MPI_Testsome(2, req, &outcount, indices, MPI_STATUSES_IGNORE);
    /* probes: a message of 4 doubles from prev */
    MPI_Send(a, 4, MPI_DOUBLE, next, 8, MPI_COMM_WORLD);
    MPI_Status st;
    MPI_Probe(prev, 8, MPI_COMM_WORLD, &st);
    MPI_Iprobe(prev, 8, MPI_COMM_WORLD, &flag, &st);
    MPI_Recv(b, 4, MPI_DOUBLE, prev, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv_replace(b, 4, MPI_DOUBLE, next, 9, prev, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    /* one-sided: 5 doubles each */
    MPI_Win win;
    MPI_Win_create(b, sizeof b, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    MPI_Put(a, 5, MPI_DOUBLE, next, 0, 5, MPI_DOUBLE, win);
    MPI_Win_fence(0, win);
    MPI_Get(a, 5, MPI_DOUBLE, next, 10, 5, MPI_DOUBLE, win);
    MPI_Win_fence(0, win);
    MPI_Win_lock(MPI_LOCK_SHARED, next, 0, win);
    MPI_Accumulate(a, 5, MPI_DOUBLE, next, 20, 5, MPI_DOUBLE, MPI_SUM, win);
    MPI_Win_unlock(next, win);
    MPI_Win_free(&win);
    /* MPI-IO: collective 100 doubles, individual 10, nonblocking 10 */
    MPI_File fh;
    MPI_File_open(MPI_COMM_WORLD, argc > 1 ? argv[1] : "mpi_c_io.dat",
                  MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    MPI_File_write_at_all(fh, (MPI_Offset)rank * 1600, a, 100, MPI_DOUBLE, MPI_STATUS_IGNORE);
    MPI_File_write_at(fh, (MPI_Offset)rank * 1600 + 800, a, 10, MPI_DOUBLE, MPI_STATUS_IGNORE);
    MPI_Request io;
    MPI_File_iwrite_at(fh, (MPI_Offset)rank * 1600 + 880, a, 10, MPI_DOUBLE, &io);
    MPI_Wait(&io, MPI_STATUS_IGNORE);
    MPI_File_read_at_all(fh, (MPI_Offset)rank * 1600, b, 100, MPI_DOUBLE, MPI_STATUS_IGNORE);
    MPI_File_read_at(fh, (MPI_Offset)rank * 1600 + 800, b, 10, MPI_DOUBLE, MPI_STATUS_IGNORE);
    MPI_File_close(&fh);
    if (rank == 0) printf("mpi_c done on %d ranks\n", size);
    MPI_Finalize();
    return 0;
}
