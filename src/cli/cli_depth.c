#include "cli/cli_depth.h"

#include <errno.h>
#include <stdlib.h>

#include "cli/cli_error.h"

int cli_max_depth(const char *cmd, const char *value, unsigned *out) {
    char *end;
    errno = 0;
    unsigned long n = strtoul(value, &end, 10);
    if (end == value || *end || errno || n < 2 || n > 1000000 || value[0] == '-')
        return cli_value_error(cmd,
                               "bad --max-depth value \"%s\": use a number of frames from 2 "
                               "to 1000000",
                               value);
    *out = (unsigned)n;
    return 0;
}
