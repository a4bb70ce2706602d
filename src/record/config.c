#include "record/config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <strings.h>

#include "model/model.h"

static const char *env(const char *name) {
    const char *value = getenv(name);
    return value && *value ? value : NULL;
}

static void ignored(const char *name, const char *value, const char *expected) {
    fprintf(stderr, "scope-profiler: ignoring %s=\"%s\": expected %s\n", name, value, expected);
}

/* Parses a boolean variable into *out; leaves *out alone when unset or malformed. */
static void env_bool(const char *name, int *out) {
    const char *v = env(name);
    if (!v) return;
    if (!strcasecmp(v, "1") || !strcasecmp(v, "true") || !strcasecmp(v, "yes") ||
        !strcasecmp(v, "on"))
        *out = 1;
    else if (!strcasecmp(v, "0") || !strcasecmp(v, "false") || !strcasecmp(v, "no") ||
             !strcasecmp(v, "off"))
        *out = 0;
    else
        ignored(name, v, "1, true, yes, on, 0, false, no or off");
}

static void env_compression(sp_config *cfg) {
    const char *v = env("SCOPE_PROFILER_COMPRESSION");
    if (!v) return;
    if (!strcasecmp(v, "auto")) {
        cfg->compression = SP_COMPRESSION_AUTO;
    } else if (!strcasecmp(v, "none")) {
        cfg->compression = SP_COMPRESSION_NONE;
    } else if (!strcasecmp(v, "gzip")) {
        cfg->compression = SP_COMPRESSION_GZIP;
        cfg->compression_level = 4;
    } else if (!strncasecmp(v, "gzip:", 5) && v[5] >= '0' && v[5] <= '9' && !v[6]) {
        cfg->compression = SP_COMPRESSION_GZIP;
        cfg->compression_level = v[5] - '0';
    } else {
        ignored("SCOPE_PROFILER_COMPRESSION", v, "auto, none, gzip or gzip:0 to gzip:9");
    }
}

/* "123", "64K", "512M", "2G" (powers of 1024); 0 if malformed. */
static int parse_bytes(const char *v, uint64_t *out) {
    char *end;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    if (end == v || errno || *v == '-') return 0;
    unsigned shift = 0;
    if (*end == 'k' || *end == 'K') shift = 10;
    else if (*end == 'm' || *end == 'M') shift = 20;
    else if (*end == 'g' || *end == 'G') shift = 30;
    if (shift) {
        end++;
        if (end[0] == 'i' && end[1] == 'B')
            end += 2;
        else if (end[0] == 'B')
            end++;
    }
    if (*end || (shift && n > (UINT64_MAX >> shift))) return 0;
    *out = (uint64_t)n << shift;
    return 1;
}

sp_status sp_config_load(sp_config *cfg, const sp_options *options) {
    sp_options defaults = SP_OPTIONS_INIT;
    if (!options) options = &defaults;
    memset(cfg, 0, sizeof *cfg);
    if (options->compression == SP_COMPRESSION_GZIP &&
        (options->compression_level < 0 || options->compression_level > 9))
        return SP_ERR_INVALID_ARGUMENT;
    if ((unsigned)options->metadata_detail > SP_METADATA_FULL ||
        (unsigned)options->compression > SP_COMPRESSION_GZIP ||
        (unsigned)options->clock > SP_CLOCK_MONOTONIC ||
        (unsigned)options->journal > SP_JOURNAL_OFF)
        return SP_ERR_INVALID_ARGUMENT;

    const char *path = env("SCOPE_PROFILER_OUTPUT");
    if (!path)
        path =
            options->file_path && *options->file_path ? options->file_path : SP_DEFAULT_FILE_PATH;
    const char *label = env("SCOPE_PROFILER_LABEL");
    if (!label) label = options->label;
    cfg->metadata_detail = options->metadata_detail;
    cfg->capture_region_source = options->capture_region_source != 0;
    cfg->disable = options->disable != 0;
    cfg->compression = options->compression;
    cfg->compression_level = options->compression_level;
    cfg->clock = options->clock;
    cfg->journal = options->journal;
    cfg->memory_limit = options->memory_limit;
    cfg->no_session_root = options->no_session_root != 0;
    const char *limit = env("SCOPE_PROFILER_MEMORY_LIMIT");
    if (limit && !parse_bytes(limit, &cfg->memory_limit))
        ignored("SCOPE_PROFILER_MEMORY_LIMIT", limit, "a number of bytes, optionally with K, M or G");

    const char *detail = env("SCOPE_PROFILER_METADATA");
    if (detail) {
        if (!strcasecmp(detail, "minimal"))
            cfg->metadata_detail = SP_METADATA_MINIMAL;
        else if (!strcasecmp(detail, "full"))
            cfg->metadata_detail = SP_METADATA_FULL;
        else
            ignored("SCOPE_PROFILER_METADATA", detail, "minimal or full");
    }
    env_bool("SCOPE_PROFILER_DISABLE", &cfg->disable);
    env_bool("SCOPE_PROFILER_CAPTURE_SOURCE", &cfg->capture_region_source);
    env_bool("SCOPE_PROFILER_QUIET", &cfg->quiet);
    /* Like the other switches, the variable wins over the option both ways:
     * 1 turns aggregate mode on in a program that did not ask for it, 0 off. */
    cfg->aggregate = options->aggregate != 0;
    env_bool("SCOPE_PROFILER_AGGREGATE", &cfg->aggregate);
    env_compression(cfg);

    cfg->file_path = sp_strdup(path);
    cfg->label = label ? sp_strdup(label) : NULL;
    cfg->setup_cwd = getcwd(NULL, 0); /* NULL (unknown) is allowed */
    const char *jdir = options->journal_directory;
    cfg->journal_dir = jdir && *jdir ? sp_strdup(jdir) : NULL;
    if (!cfg->file_path || (label && !cfg->label) || (jdir && *jdir && !cfg->journal_dir)) {
        sp_config_clear(cfg);
        return SP_ERR_OUT_OF_MEMORY;
    }
    return SP_OK;
}

void sp_config_clear(sp_config *cfg) {
    free(cfg->file_path);
    free(cfg->label);
    free(cfg->journal_dir);
    free(cfg->setup_cwd);
    memset(cfg, 0, sizeof *cfg);
}
