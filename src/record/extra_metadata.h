/* Metadata keys a program adds with sp_set_metadata_string(). */
#ifndef SP_RECORD_EXTRA_METADATA_H
#define SP_RECORD_EXTRA_METADATA_H

#include "model/model.h"

/* Appends the program's keys that m does not hold yet, in the order they were first set. */
sp_status sp_extra_metadata_apply(sp_model *m);

#endif
