/*
 * The Fortran setup arguments (a bind(C) type mirrored in scope_profiler.F90)
 * and their translation into sp_options, shared by the serial and MPI shims.
 * Strings come as (pointer, length) without a terminator; absent ones have
 * length -1.
 */
#ifndef SP_FORTRAN_OPTIONS_H
#define SP_FORTRAN_OPTIONS_H

#include <stdlib.h>
#include <string.h>

#include "scope_profiler.h"

typedef struct sp_f_setup_args {
    const char *file_path;
    long file_path_len;
    const char *label;
    long label_len;
    int metadata_detail;
    int capture_source;
    int disable;
    int compression;
    int compression_level;
    int clock;
} sp_f_setup_args;

/* A NUL-terminated copy of a Fortran string, or NULL when absent (or out of memory). */
static inline char *sp_f_strdup(const char *s, long len) {
    if (len < 0) return NULL;
    char *copy = malloc((size_t)len + 1);
    if (!copy) return NULL;
    memcpy(copy, s, (size_t)len);
    copy[len] = '\0';
    return copy;
}

/* Fills opt; returns 0 if a copy failed (free the strings in any case). */
static inline int sp_f_options(const sp_f_setup_args *a, sp_options *opt, char **file,
                               char **label) {
    sp_options defaults = SP_OPTIONS_INIT;
    *opt = defaults;
    *file = sp_f_strdup(a->file_path, a->file_path_len);
    *label = sp_f_strdup(a->label, a->label_len);
    opt->file_path = *file;
    opt->label = *label;
    opt->metadata_detail = (sp_metadata_detail)a->metadata_detail;
    opt->capture_region_source = a->capture_source;
    opt->disable = a->disable;
    opt->compression = (sp_compression)a->compression;
    opt->compression_level = a->compression_level;
    opt->clock = (sp_clock_source)a->clock;
    sp_set_source_language("fortran");
    return (a->file_path_len < 0 || *file) && (a->label_len < 0 || *label);
}

#endif
