#include "analysis/meta_value.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

int sp_meta_to_double(const sp_meta_entry *e, double *out) {
    switch (e->type) {
    case SP_META_INT:
        *out = (double)e->i;
        return 1;
    case SP_META_FLOAT:
        *out = e->f;
        return 1;
    case SP_META_STRING: {
        /* Python float(str): decimal text with optional surrounding blanks, no hex. */
        if (!e->s || strpbrk(e->s, "xX")) return 0;
        char *end;
        double v = strtod(e->s, &end);
        if (end == e->s) return 0;
        while (isspace((unsigned char)*end))
            end++;
        if (*end) return 0;
        *out = v;
        return 1;
    }
    default:
        return 0;
    }
}
