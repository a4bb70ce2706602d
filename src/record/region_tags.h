/* The tags a program gives its regions (sp_region_add_tag), as the rows' JSON lists. */
#ifndef SP_RECORD_REGION_TAGS_H
#define SP_RECORD_REGION_TAGS_H

#include "scope_profiler.h"

/* The region's tags as a JSON list in the Python package's form
 * (json.dumps: '["solver", "linear"]'), "[]" when it has none; the caller
 * frees it. NULL when out of memory. */
char *sp_region_tags_json(sp_region_t region);

#endif
