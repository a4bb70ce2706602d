/*
 * Removing single calls from a read model (the plausibility checks drop the
 * calls a damaged file holds outside its run, and keep the others).
 */
#ifndef SP_FORMAT_DROP_CALLS_H
#define SP_FORMAT_DROP_CALLS_H

#include <stdint.h>

#include "common/error.h"
#include "model/model.h"

/*
 * Removes every event i with drop[i] != 0 (drop has m->num_events entries):
 * the event columns are compacted, each row's offset and count follow, the
 * statistics of a row that lost calls are computed again from the calls it
 * keeps (its exclusive total becomes unknown), its event_metadata list loses
 * the same entries, and a kept call whose parent was dropped hangs under the
 * dropped call's own parent. On SP_ERR_OUT_OF_MEMORY the model is half changed
 * (the reader then fails and clears it).
 */
sp_status sp_model_drop_calls(sp_model *m, const uint8_t *drop);

#endif
