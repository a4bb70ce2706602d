/* A C kernel that a Python driver calls through ctypes: it records into the
 * driver's session because both use the one libscope_profiler of the process. */
#include <scope_profiler.h>

int sp_test_kernel(int calls);

int sp_test_kernel(int calls) {
    volatile int sum = 0;
    for (int i = 0; i < calls; i++) {
        SP_REGION("c_kernel") {
            for (int k = 0; k < 100; k++)
                sum += k;
        }
    }
    return sum;
}
