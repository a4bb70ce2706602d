#include "scope_profiler.h"

static const char *const descriptions[SP_STATUS_COUNT_] = {
    [SP_OK] = "success",
    [SP_ERR_INVALID_ARGUMENT] = "invalid argument",
    [SP_ERR_OUT_OF_MEMORY] = "out of memory",
    [SP_ERR_NOT_ACTIVE] = "no active profiling session: call sp_setup() first",
    [SP_ERR_ALREADY_ACTIVE] = "a profiling session is already active: call sp_finalize() first",
    [SP_ERR_NO_DIRECTORY] = "the output directory does not exist",
    [SP_ERR_PERMISSION] = "permission denied",
    [SP_ERR_DISK_FULL] = "no space left on the device (or a quota or file-size limit)",
    [SP_ERR_IO] = "input/output error",
    [SP_ERR_HDF5] = "the HDF5 library reported an error",
    [SP_ERR_NO_SUCH_FILE] = "no such file",
    [SP_ERR_NOT_HDF5] = "not an HDF5 file",
    [SP_ERR_NOT_A_PROFILE] = "an HDF5 file, but not a scope-profiler profile",
    [SP_ERR_SCHEMA_TOO_NEW] = "the profile's schema is newer than this version reads",
    [SP_ERR_DAMAGED] = "the profile is damaged: its index and columns disagree",
    [SP_ERR_BAD_DATASET] = "a dataset of the profile has the wrong type or shape",
    [SP_ERR_NO_SUCH_REGION] = "no region of that name",
    [SP_ERR_NO_SUCH_RANK] = "no data for that rank",
    [SP_ERR_BAD_PATTERN] = "invalid regular expression",
    [SP_ERR_NESTING] = "calls overlap without nesting",
    [SP_ERR_UNAVAILABLE] = "not available: the profile holds no per-call data",
    [SP_ERR_BAD_OPTION] = "unknown option value",
    [SP_ERR_MPI] = "an MPI call failed",
};

const char *sp_status_string(sp_status status) {
    if ((int)status < 0 || status >= SP_STATUS_COUNT_ || !descriptions[status])
        return "unknown status";
    return descriptions[status];
}
