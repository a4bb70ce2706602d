/* Shared by the fuzz harness files: the input consumer and the two halves
 * (building a file from the input, checking what the reader made of it). */
#ifndef SP_FUZZ_INTERNAL_H
#define SP_FUZZ_INTERNAL_H

#include <hdf5.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

/* The input, consumed front to back (then continued deterministically). */
typedef struct fz {
    const uint8_t *p;
    size_t n;
    unsigned defect_rate; /* out of 256: how often a dataset gets a defect */
    uint64_t tail;        /* generator state for reads past the end */
} fz;

uint8_t fz_u8(fz *f);
uint64_t fz_u64(fz *f);
/* A number in [0, n); 0 when n is 0. */
size_t fz_below(fz *f, size_t n);
/* True with probability per256 / 256. */
int fz_chance(fz *f, unsigned per256);
/* True with the input's defect rate. */
int fz_defect(fz *f);
/* An int64 biased towards boundaries (0, -1, INT64_MAX, UINT32_MAX + 1, ...). */
int64_t fz_value(fz *f);

/* Writes the file the input describes to path (overwriting it). */
void fz_build_file(fz *f, const char *path);

/* The /scope_profiler_c/histograms extension for n index rows
 * (fuzz_build_hist.c): count[i] calls between min[i] and max[i], total[i]
 * in all (the index's, for the optional per-path totals). */
void fz_emit_histograms(fz *f, hid_t file, const int64_t *rank, const int64_t *region,
                        const int64_t *count, const int64_t *total, const int64_t *min,
                        const int64_t *max, size_t n);

/* Aborts unless the model satisfies everything the reader promises. */
void fz_check_model(const sp_model *m);

/* Writes m with the library's writer to path, reads it back, and aborts
 * unless both agree. Columnar models only. */
void fz_check_round_trip(const sp_model *m, const char *path);

/* Aborts with a message when cond is false (active in every build type). */
#define FZ_CHECK(cond) ((cond) ? (void)0 : fz_fail(#cond, __FILE__, __LINE__))
void fz_fail(const char *what, const char *file, int line) __attribute__((noreturn));

#endif
