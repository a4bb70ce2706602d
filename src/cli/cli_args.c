#include "cli/cli_args.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_error.h"
#include "analysis/suggest.h"

/* An argument that is an option rather than a value: "-x...", "--...", not "-"
 * and not a negative number ("-1", "-.5"), which the option then judges. */
static int looks_like_option(const char *arg) {
    if (arg[0] != '-' || arg[1] == '\0') return 0;
    const char *digits = arg[1] == '.' ? arg + 2 : arg + 1;
    return !isdigit((unsigned char)*digits);
}

static const cli_option *find_long(const cli_command_spec *spec, const char *name, size_t len) {
    for (size_t i = 0; i < spec->num_options; i++) {
        const char *n = spec->options[i].name;
        if (n && strlen(n) == len && strncmp(n, name, len) == 0) return &spec->options[i];
    }
    return NULL;
}

static const cli_option *find_short(const cli_command_spec *spec, char c) {
    for (size_t i = 0; i < spec->num_options; i++)
        if (spec->options[i].short_name == c) return &spec->options[i];
    return NULL;
}

/* How the option was spelled, for messages: "--sort" or "-o". */
static void spelling(const cli_option *o, int as_short, char *buf, size_t size) {
    if (as_short)
        snprintf(buf, size, "-%c", o->short_name);
    else
        snprintf(buf, size, "--%s", o->name);
}

typedef struct parse_state {
    const cli_command_spec *spec;
    int argc;
    char **argv;
    int i;          /* index of the argument being parsed */
    int only_files; /* after "--" */
    void *ctx;
    const cli_option *last_list; /* the list option that took the last arguments */
    int last_list_first;         /* index of its first value */
    int last_list_end;           /* index of its last value */
} parse_state;

/* Consumes the values of option o. inline_value: the text after "=" or
 * after the short letter, or NULL. */
static int take_values(parse_state *s, const cli_option *o, int as_short,
                       const char *inline_value) {
    char name[64];
    spelling(o, as_short, name, sizeof name);
    if (o->kind == CLI_FLAG) {
        if (inline_value) return cli_usage_error(s->spec->name, "option %s takes no value", name);
        return s->spec->on_option(s->ctx, o->id, NULL);
    }
    if (inline_value) return s->spec->on_option(s->ctx, o->id, inline_value);
    int taken = 0;
    while (s->i + 1 < s->argc && !looks_like_option(s->argv[s->i + 1])) {
        s->i++;
        taken++;
        int rc = s->spec->on_option(s->ctx, o->id, s->argv[s->i]);
        if (rc) return rc;
        if (o->kind == CLI_VALUE) break;
    }
    if (taken == 0)
        return cli_usage_error(s->spec->name, "option %s needs %s", name,
                               o->kind == CLI_LIST ? "at least one value" : "a value");
    if (o->kind == CLI_LIST) {
        s->last_list = o;
        s->last_list_first = s->i - taken + 1;
        s->last_list_end = s->i;
    }
    return 0;
}

/* "unknown option" with the closest long option, when one is close. */
static int unknown_long(const parse_state *s, const char *arg, size_t len) {
    const char *names[64];
    size_t n = 0;
    for (size_t i = 0; i < s->spec->num_options && n < 63; i++)
        if (s->spec->options[i].name) names[n++] = s->spec->options[i].name;
    names[n++] = "help";
    char typed[128];
    snprintf(typed, sizeof typed, "%.*s", (int)(len < sizeof typed - 1 ? len : sizeof typed - 1),
             arg + 2);
    long close = sp_suggest_name(typed, names, n);
    if (close >= 0)
        return cli_usage_error(s->spec->name, "unknown option \"%.*s\": did you mean \"--%s\"?",
                               (int)(len + 2), arg, names[close]);
    return cli_usage_error(s->spec->name, "unknown option \"%.*s\"", (int)(len + 2), arg);
}

static int parse_long(parse_state *s, const char *arg) {
    const char *name = arg + 2;
    const char *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    const cli_option *o = find_long(s->spec, name, len);
    if (!o) return unknown_long(s, arg, len);
    return take_values(s, o, 0, eq ? eq + 1 : NULL);
}

static int parse_short(parse_state *s, const char *arg) {
    const cli_option *o = find_short(s->spec, arg[1]);
    if (!o) return cli_usage_error(s->spec->name, "unknown option \"%s\"", arg);
    const char *rest = arg[2] ? arg + 2 : NULL;
    if (rest && o->kind == CLI_FLAG)
        return cli_usage_error(s->spec->name, "unknown option \"%s\"", arg);
    return take_values(s, o, 1, rest);
}

/* No FILE: when a list option swallowed the last arguments, say so. */
static int explain_missing_files(const parse_state *s) {
    if (!s->last_list || s->last_list_end != s->argc - 1 || s->last_list_end == s->last_list_first)
        return 0; /* the caller reports "no FILE given" */
    return cli_usage_error(s->spec->name,
                           "no FILE given: --%s took \"%s\" as one of its values (put FILE "
                           "first, or end the values with --)",
                           s->last_list->name, s->argv[s->last_list_end]);
}

static int is_help(const char *arg) {
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

int cli_parse(const cli_command_spec *spec, int argc, char **argv, void *ctx, cli_list *files) {
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--") == 0)
            break;
        else if (is_help(argv[i])) {
            fputs(spec->help, stdout);
            return CLI_PARSED_HELP;
        }
    parse_state s = {spec, argc, argv, 1, 0, ctx, NULL, 0, 0};
    for (; s.i < argc; s.i++) {
        const char *arg = argv[s.i];
        int rc = 0;
        if (s.only_files || !looks_like_option(arg))
            rc = cli_list_add(files, arg) ? 0 : cli_out_of_memory();
        else if (strcmp(arg, "--") == 0)
            s.only_files = 1;
        else if (arg[1] == '-')
            rc = parse_long(&s, arg);
        else
            rc = parse_short(&s, arg);
        if (rc) return rc;
    }
    return files->count ? 0 : explain_missing_files(&s);
}
