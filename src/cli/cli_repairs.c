#include "cli/cli_repairs.h"

#include <inttypes.h>

#include "cli/cli_error.h"
#include "cli/cli_shown.h"
#include "format/reader.h"

static int64_t count_of(const sp_results *r, const char *key) {
    sp_metadata_item item;
    if (!sp_results_metadata_find(r, key, &item) || item.type != SP_VALUE_INT) return 0;
    return item.int_value;
}

void cli_warn_repairs(const sp_results *r) {
    const char *path = sp_results_path(r);
    int64_t dropped = count_of(r, SP_CALLS_DROPPED_KEY);
    int64_t recomputed = count_of(r, SP_STATS_RECOMPUTED_KEY);
    if (dropped > 0)
        cli_warn("%s: damaged profile: %" PRId64
                 " call(s) lie outside the run's time span and are left out (the metadata "
                 "entry " SP_CALLS_DROPPED_KEY " counts them)",
                 cli_shown(path ? path : ""), dropped);
    if (recomputed > 0)
        cli_warn("%s: damaged profile: the stored statistics of %" PRId64
                 " row(s) disagree with their calls and were computed from the calls",
                 cli_shown(path ? path : ""), recomputed);
}
