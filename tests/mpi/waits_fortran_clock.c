/* The clock of waits_fortran.F90, built without -finstrument-functions so
 * that only the Fortran program's own functions become regions. */
#include <stdint.h>

#include "mpi_test_support.h"

int64_t waits_now_ns(void);
void waits_until(int64_t deadline_ns);
void waits_busy_ms(int ms);

int64_t waits_now_ns(void) {
    return now_ns();
}

void waits_until(int64_t deadline_ns) {
    int64_t left = deadline_ns - now_ns();
    if (left > 0) busy_wait(left);
}

void waits_busy_ms(int ms) {
    busy_wait((int64_t)ms * 1000000);
}
