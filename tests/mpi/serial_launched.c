/* A program linked with the serial library only, for mpirun (item 9.13). */
#include <scope_profiler.h>

int main(void) {
    if (sp_setup(NULL) != SP_OK) return 1;
    for (int i = 0; i < 3; i++)
        SP_REGION("step") {}
    return sp_finalize(NULL) == SP_OK ? 0 : 1;
}
