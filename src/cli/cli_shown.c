#include "cli/cli_shown.h"

#include <stdlib.h>

#include "common/terminal_text.h"

#define RING 16 /* strings in one printf at most */

const char *cli_shown(const char *s) {
    static char *ring[RING];
    static unsigned next;
    char *text = sp_terminal_text(s ? s : "");
    if (!text) return "?";
    unsigned at = next++ % RING;
    free(ring[at]);
    ring[at] = text;
    return text;
}
