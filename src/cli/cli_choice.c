#include "cli/cli_choice.h"

#include <string.h>

#include "analysis/suggest.h"
#include "cli/cli_error.h"
#include "common/text_buffer.h"

int cli_choice_index(const char *value, const char *const *names, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (strcmp(value, names[i]) == 0) return (int)i;
    return -1;
}

int cli_choice_error(const char *cmd, const char *what, const char *value, const char *const *names,
                     size_t n) {
    sp_textbuf list = SP_TEXTBUF_INIT;
    for (size_t i = 0; i < n; i++)
        sp_textbuf_printf(&list, "%s%s", i ? ", " : "", names[i]);
    const char *choices = list.data ? list.data : "";
    long close = sp_suggest_name(value, names, n);
    int rc;
    if (close >= 0)
        rc = cli_value_error(cmd, "unknown %s \"%s\": did you mean \"%s\"? (choose from %s)", what,
                             value, names[close], choices);
    else
        rc = cli_value_error(cmd, "unknown %s \"%s\": choose from %s", what, value, choices);
    sp_textbuf_free(&list);
    return rc;
}
