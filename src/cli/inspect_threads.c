/* inspect: the "Threads" section, for files whose ranks recorded from several threads. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_colour.h"
#include "common/duration_text.h"
#include "cli/cli_shown.h"
#include "cli/cli_text.h"
#include "cli/cli_wrap.h"
#include "cli/inspect.h"

void inspect_duration(char *buf, size_t size, double s, const inspect_options *o) {
    if (isnan(s))
        snprintf(buf, size, "-");
    else if (o->seconds)
        snprintf(buf, size, "%.6f", s);
    else
        sp_format_duration(s, o->ascii, buf, size);
}

void inspect_print_threads(FILE *out, const sp_results *r, const inspect_options *o) {
    size_t lanes = sp_results_num_threads(r);
    if (lanes <= sp_results_num_data_ranks(r)) return; /* one thread per rank: nothing to add */
    cli_print_title_fit(out, o->colour, o->fit_to, "Threads (%zu)", lanes);
    size_t name_width = strlen("name");
    for (size_t i = 0; i < lanes; i++) {
        sp_thread_summary t;
        if (sp_results_thread_summary(r, i, &t, NULL) == SP_OK &&
            strlen(cli_shown(t.name)) > name_width)
            name_width = strlen(cli_shown(t.name));
    }
    char line[1024];
    snprintf(line, sizeof line, "  %-6s %-6s %-*s %-10s %-10s %-10s %-8s %s", "rank", "thread",
             (int)name_width, "name", "native id", o->seconds ? "wall [s]" : "wall",
             o->seconds ? "cpu [s]" : "cpu", "calls", o->seconds ? "in regions [s]" : "in regions");
    /* too wide for the width: one record per thread, its figures as clauses */
    int records = o->fit_to && cli_utf8_length(line) > o->fit_to;
    if (!records) fprintf(out, "%s\n", line);
    for (size_t i = 0; i < lanes; i++) {
        sp_thread_summary t;
        if (sp_results_thread_summary(r, i, &t, NULL) != SP_OK) continue;
        char wall[32], cpu[32], inside[32], native[32];
        inspect_duration(wall, sizeof wall, t.wall_time, o);
        inspect_duration(cpu, sizeof cpu, t.cpu_time, o);
        inspect_duration(inside, sizeof inside, t.time_in_regions, o);
        if (t.native_id >= 0)
            snprintf(native, sizeof native, "%lld", (long long)t.native_id);
        else
            snprintf(native, sizeof native, "-");
        if (!records) {
            fprintf(out, "  %-6u %-6lld %-*s %-10s %-10s %-10s %-8llu %s\n", t.rank,
                    (long long)t.index, (int)name_width, cli_shown(t.name), native, wall, cpu,
                    (unsigned long long)t.num_calls, inside);
            continue;
        }
        const char *name = cli_shown(t.name);
        snprintf(line, sizeof line, "  rank %u, thread %lld%s%s%s", t.rank, (long long)t.index,
                 *name ? " (" : "", name, *name ? ")" : "");
        cli_print_clauses(out, line, o->fit_to, 2);
        const char *unit = o->seconds ? " s" : "";
        snprintf(line, sizeof line,
                 "    native id %s, wall %s%s, cpu %s%s, calls %llu, in regions %s%s", native, wall,
                 strcmp(wall, "-") ? unit : "", cpu, strcmp(cpu, "-") ? unit : "",
                 (unsigned long long)t.num_calls, inside, strcmp(inside, "-") ? unit : "");
        cli_print_clauses(out, line, o->fit_to, 2);
    }
    fputc('\n', out);
}
