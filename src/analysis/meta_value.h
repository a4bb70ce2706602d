/* Python float() of a metadata value. */
#ifndef SP_ANALYSIS_META_VALUE_H
#define SP_ANALYSIS_META_VALUE_H

#include "model/model.h"

/* Python float(): the value of a metadata entry as a double; 0 if not convertible. */
int sp_meta_to_double(const sp_meta_entry *e, double *out);

#endif
