/*
 * otf2: an OTF2 archive (the Score-P family's trace format) of the selected
 * calls, written with libotf2 (Debian's libopen-trace-format2-dev) when the
 * build found it:
 *
 *   DIR/traces.otf2, DIR/traces.def, DIR/traces/<location>.evt|.def
 *
 * One location group (an MPI process) per rank, one location (a CPU thread)
 * per (rank, thread) lane, one region per region of the file (paradigm MPI
 * for "MPI_*" names, else user), an Enter and a Leave event per call in
 * nanoseconds (timer resolution 1e9; rank clocks aligned as in every export),
 * MPI_COMM_WORLD over the ranks when there are several, and each metadata
 * field as the archive property SCOPE_PROFILER::<KEY>. The archive is built
 * under a temporary name beside DIR and renamed into place, so a failed
 * export leaves nothing; an existing DIR is refused.
 */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "export/formats.h"
#include "format/atomic_file.h"

#ifndef SP_HAVE_OTF2

sp_status sp_write_otf2(sp_export_job *job, const char *dir) {
    (void)dir;
    return sp_error_set(job->err, SP_ERR_UNAVAILABLE,
                        "this scope-profiler was built without OTF2: install "
                        "libopen-trace-format2-dev (Debian) and rebuild, or export perfetto");
}

#else

#include <inttypes.h>
#include <otf2/otf2.h>

#include "common/text_buffer.h"
#include "export/names.h"

typedef struct otf2_out {
    sp_export_job *job;
    OTF2_Archive *archive;
    OTF2_EvtWriter **writers; /* per lane */
    uint64_t *events;         /* per lane */
    size_t num_lanes;
    uint64_t first, last; /* the earliest and latest timestamp: the clock properties */
    OTF2_ErrorCode failed;
} otf2_out;

/* libotf2 prints its errors itself; keep the first message for our one line instead. */
static char otf2_message[256];

static OTF2_ErrorCode on_otf2_error(void *user, const char *file, uint64_t line,
                                    const char *function, OTF2_ErrorCode code, const char *fmt,
                                    va_list va) {
    (void)user, (void)file, (void)line, (void)function;
    if (!otf2_message[0]) vsnprintf(otf2_message, sizeof otf2_message, fmt, va);
    return code;
}

static OTF2_FlushType pre_flush(void *user, OTF2_FileType type, OTF2_LocationRef loc, void *caller,
                                bool final) {
    (void)user, (void)type, (void)loc, (void)caller, (void) final;
    return OTF2_FLUSH;
}

static OTF2_TimeStamp post_flush(void *user, OTF2_FileType type, OTF2_LocationRef loc) {
    (void)user, (void)type, (void)loc;
    return 0;
}

static const OTF2_FlushCallbacks FLUSH = {pre_flush, post_flush};

/* Timestamps are the calls' own nanoseconds (aligned to rank 0's clock, or as
 * stored with raw_clock); the global offset and length are taken from them. */
static uint64_t stamp(otf2_out *o, int64_t ns) {
    uint64_t t = ns > 0 ? (uint64_t)ns : 0;
    if (t < o->first) o->first = t;
    if (t > o->last) o->last = t;
    return t;
}

static sp_status record(otf2_out *o, const sp_walk_call *call, int leave) {
    OTF2_EvtWriter *w = o->writers[call->lane];
    if (!w) {
        w = o->writers[call->lane] = OTF2_Archive_GetEvtWriter(o->archive, call->lane);
        if (!w) o->failed = OTF2_ERROR_MEM_ALLOC_FAILED;
    }
    if (o->failed == OTF2_SUCCESS) {
        OTF2_ErrorCode rc =
            leave ? OTF2_EvtWriter_Leave(w, NULL, stamp(o, call->end_ns), call->region)
                  : OTF2_EvtWriter_Enter(w, NULL, stamp(o, call->start_ns), call->region);
        if (rc != OTF2_SUCCESS) o->failed = rc;
        o->events[call->lane]++;
    }
    return o->failed == OTF2_SUCCESS ? SP_OK : SP_ERR_IO;
}

static sp_status on_enter(void *ctx, sp_walk_call *call, sp_walk_call *parent) {
    (void)parent;
    return record(ctx, call, 0);
}

static sp_status on_leave(void *ctx, sp_walk_call *call, sp_walk_call *parent) {
    (void)parent;
    return record(ctx, call, 1);
}

/* String references: 0 = "", 1..R the region names, then the rest in order. */
typedef struct defs {
    OTF2_GlobalDefWriter *g;
    uint32_t next_string;
    OTF2_ErrorCode rc;
} defs;

static uint32_t string_ref(defs *d, const char *text) {
    uint32_t id = d->next_string++;
    if (d->rc == OTF2_SUCCESS) d->rc = OTF2_GlobalDefWriter_WriteString(d->g, id, text);
    return id;
}

static void write_regions(defs *d, const sp_results *r, const sp_names *names) {
    size_t n = sp_results_num_regions(r);
    for (size_t i = 0; i < n && d->rc == OTF2_SUCCESS; i++)
        d->rc = OTF2_GlobalDefWriter_WriteString(d->g, (uint32_t)i + 1, names->text[i]);
    d->next_string = (uint32_t)n + 1;
    for (size_t i = 0; i < n && d->rc == OTF2_SUCCESS; i++) {
        int mpi = strncmp(sp_results_region_name(r, i), "MPI_", 4) == 0;
        d->rc = OTF2_GlobalDefWriter_WriteRegion(
            d->g, (uint32_t)i, (uint32_t)i + 1, (uint32_t)i + 1, 0, OTF2_REGION_ROLE_FUNCTION,
            mpi ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE, 0, 0, 0);
    }
}

static void write_locations(defs *d, otf2_out *o, const sp_metadata_item *host) {
    sp_call_walker *w = o->job->w;
    char name[96];
    uint32_t machine = string_ref(d, host ? host->string_value : "machine");
    uint32_t node_class = string_ref(d, "node");
    if (d->rc == OTF2_SUCCESS)
        d->rc = OTF2_GlobalDefWriter_WriteSystemTreeNode(d->g, 0, machine, node_class,
                                                         OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    for (size_t i = 0; i < sp_call_walker_num_ranks(w) && d->rc == OTF2_SUCCESS; i++) {
        uint32_t rank = sp_call_walker_rank(w, i);
        snprintf(name, sizeof name, "rank %" PRIu32, rank);
        uint32_t s = string_ref(d, name);
        if (d->rc == OTF2_SUCCESS)
            d->rc = OTF2_GlobalDefWriter_WriteLocationGroup(
                d->g, rank, s, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0, OTF2_UNDEFINED_LOCATION_GROUP);
    }
    for (size_t l = 0; l < o->num_lanes && d->rc == OTF2_SUCCESS; l++) {
        const sp_walk_lane *lane = sp_call_walker_lane(w, l);
        if (lane->name[0])
            snprintf(name, sizeof name, "%.80s", lane->name);
        else if (lane->only_lane)
            snprintf(name, sizeof name, "rank %" PRIu32, lane->rank);
        else
            snprintf(name, sizeof name, "thread %" PRId64, lane->thread);
        uint32_t s = string_ref(d, name);
        if (d->rc == OTF2_SUCCESS)
            d->rc = OTF2_GlobalDefWriter_WriteLocation(d->g, l, s, OTF2_LOCATION_TYPE_CPU_THREAD,
                                                       o->events[l], lane->rank);
    }
}

/* MPI_COMM_WORLD: a group of every rank's first location, the comm over it. */
static void write_world(defs *d, otf2_out *o) {
    sp_call_walker *w = o->job->w;
    size_t n = sp_call_walker_num_ranks(w);
    if (n < 2 || d->rc != OTF2_SUCCESS) return;
    uint64_t *members = malloc(n * sizeof *members);
    if (!members) {
        d->rc = OTF2_ERROR_MEM_ALLOC_FAILED;
        return;
    }
    size_t k = 0;
    for (size_t l = 0; l < o->num_lanes && k < n; l++)
        if (l == 0 || sp_call_walker_lane(w, l)->rank != sp_call_walker_lane(w, l - 1)->rank)
            members[k++] = l;
    uint32_t locs = string_ref(d, "MPI locations"), world = string_ref(d, "MPI_COMM_WORLD");
    if (d->rc == OTF2_SUCCESS)
        d->rc = OTF2_GlobalDefWriter_WriteGroup(d->g, 0, locs, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                                OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                                (uint32_t)k, members);
    for (size_t i = 0; i < k; i++)
        members[i] = i;
    if (d->rc == OTF2_SUCCESS)
        d->rc = OTF2_GlobalDefWriter_WriteGroup(d->g, 1, world, OTF2_GROUP_TYPE_COMM_GROUP,
                                                OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                                (uint32_t)k, members);
    if (d->rc == OTF2_SUCCESS)
        d->rc = OTF2_GlobalDefWriter_WriteComm(d->g, 0, world, 1, OTF2_UNDEFINED_COMM,
                                               OTF2_COMM_FLAG_NONE);
    free(members);
}

/* Each metadata field as SCOPE_PROFILER::<KEY> (the name upper-cased, other
 * characters as '_'); lists joined with ", ". */
static void write_properties(otf2_out *o) {
    const sp_results *r = o->job->r;
    for (size_t i = 0; i < sp_results_num_metadata(r); i++) {
        sp_metadata_item it;
        sp_results_metadata_at(r, i, &it);
        sp_textbuf name = SP_TEXTBUF_INIT, value = SP_TEXTBUF_INIT;
        sp_textbuf_printf(&name, "SCOPE_PROFILER::");
        for (const char *c = it.key; *c; c++) {
            char u = *c >= 'a' && *c <= 'z' ? (char)(*c - 32) : *c;
            sp_textbuf_putc(&name, (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') ? u : '_');
        }
        if (it.type == SP_VALUE_INT)
            sp_textbuf_printf(&value, "%" PRId64, it.int_value);
        else if (it.type == SP_VALUE_FLOAT)
            sp_textbuf_printf(&value, "%.17g", it.float_value);
        else if (it.type == SP_VALUE_STRING)
            sp_name_append(&value, it.string_value, SP_NAMES_UTF8);
        for (size_t k = 0; it.type == SP_VALUE_STRING_LIST && k < it.list_len; k++) {
            if (k) sp_textbuf_printf(&value, ", ");
            sp_name_append(&value, it.list[k], SP_NAMES_UTF8);
        }
        if (!sp_textbuf_failed(&name) && !sp_textbuf_failed(&value) && it.key[0])
            OTF2_Archive_SetProperty(o->archive, name.data, value.data ? value.data : "", true);
        sp_textbuf_free(&name);
        sp_textbuf_free(&value);
    }
}

static OTF2_ErrorCode write_definitions(otf2_out *o) {
    OTF2_ErrorCode rc = OTF2_Archive_OpenDefFiles(o->archive);
    for (size_t l = 0; l < o->num_lanes && rc == OTF2_SUCCESS; l++) {
        OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(o->archive, l);
        rc = dw ? OTF2_Archive_CloseDefWriter(o->archive, dw) : OTF2_ERROR_MEM_ALLOC_FAILED;
    }
    if (rc == OTF2_SUCCESS) rc = OTF2_Archive_CloseDefFiles(o->archive);
    if (rc != OTF2_SUCCESS) return rc;
    sp_names names;
    sp_error err = {0};
    if (sp_names_build(&names, o->job->r, SP_NAMES_UTF8, &err) != SP_OK)
        return OTF2_ERROR_MEM_ALLOC_FAILED;
    if (o->first > o->last) o->first = o->last = 0; /* no call */
    defs d = {OTF2_Archive_GetGlobalDefWriter(o->archive), 0, OTF2_SUCCESS};
    if (!d.g) d.rc = OTF2_ERROR_MEM_ALLOC_FAILED;
    if (d.rc == OTF2_SUCCESS)
        d.rc = OTF2_GlobalDefWriter_WriteClockProperties(
            d.g, 1000000000u, o->first, o->last - o->first + 1, OTF2_UNDEFINED_TIMESTAMP);
    if (d.rc == OTF2_SUCCESS) d.rc = OTF2_GlobalDefWriter_WriteString(d.g, 0, "");
    write_regions(&d, o->job->r, &names);
    sp_metadata_item host;
    int has_host = sp_results_metadata_find(o->job->r, "hostname", &host) &&
                   host.type == SP_VALUE_STRING && host.string_value[0];
    write_locations(&d, o, has_host ? &host : NULL);
    write_world(&d, o);
    sp_names_free(&names);
    if (d.rc == OTF2_SUCCESS) write_properties(o);
    return d.rc;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static sp_status otf2_failure(sp_export_job *job, const char *dir, OTF2_ErrorCode rc) {
    return sp_error_set(job->err, SP_ERR_IO, "cannot write the OTF2 archive %s: %s", dir,
                        otf2_message[0] ? otf2_message : OTF2_Error_GetDescription(rc));
}

static sp_status write_archive(otf2_out *o, const char *tmp, const char *dir) {
    sp_export_job *job = o->job;
    o->archive = OTF2_Archive_Open(tmp, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                                   OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!o->archive) return otf2_failure(job, dir, OTF2_ERROR_FILE_INTERACTION);
    OTF2_ErrorCode rc = OTF2_Archive_SetFlushCallbacks(o->archive, &FLUSH, NULL);
    if (rc == OTF2_SUCCESS) rc = OTF2_Archive_SetSerialCollectiveCallbacks(o->archive);
    if (rc == OTF2_SUCCESS) rc = OTF2_Archive_SetCreator(o->archive, SP_EXPORTER);
    if (rc == OTF2_SUCCESS)
        rc = OTF2_Archive_SetDescription(o->archive, sp_results_display_label(job->r));
    if (rc == OTF2_SUCCESS) rc = OTF2_Archive_OpenEvtFiles(o->archive);
    sp_status st = rc == OTF2_SUCCESS ? SP_OK : SP_ERR_IO;
    sp_walk_visitor v = {on_enter, on_leave, o};
    for (size_t i = 0; st == SP_OK && i < sp_call_walker_num_ranks(job->w); i++)
        st = sp_call_walker_run(job->w, sp_call_walker_rank(job->w, i), SP_WALK_ALL_LANES, &v,
                                job->err);
    if (st == SP_ERR_IO && rc == OTF2_SUCCESS) rc = o->failed;
    for (size_t l = 0; l < o->num_lanes; l++)
        if (o->writers[l]) {
            OTF2_ErrorCode closed = OTF2_Archive_CloseEvtWriter(o->archive, o->writers[l]);
            if (rc == OTF2_SUCCESS && st == SP_OK) rc = closed;
        }
    if (st == SP_OK && rc == OTF2_SUCCESS) rc = OTF2_Archive_CloseEvtFiles(o->archive);
    if (st == SP_OK && rc == OTF2_SUCCESS) rc = write_definitions(o);
    OTF2_ErrorCode closed = OTF2_Archive_Close(o->archive);
    if (st == SP_OK && rc == OTF2_SUCCESS) rc = closed;
    if (st == SP_OK && rc != OTF2_SUCCESS)
        st = otf2_failure(job, dir, rc);
    else if (st == SP_ERR_IO && job->err && !job->err->message[0])
        st = otf2_failure(job, dir, rc);
    return st;
}

sp_status sp_write_otf2(sp_export_job *job, const char *dir) {
    struct stat st_dir;
    if (lstat(dir, &st_dir) == 0)
        return sp_error_set(job->err, SP_ERR_BAD_OPTION,
                            "%s exists: an OTF2 archive is a new directory; remove it or choose "
                            "another -o",
                            dir);
    otf2_out o;
    memset(&o, 0, sizeof o);
    o.job = job;
    o.num_lanes = sp_call_walker_num_lanes(job->w);
    o.first = UINT64_MAX;
    o.writers = calloc(o.num_lanes + 1, sizeof *o.writers);
    o.events = calloc(o.num_lanes + 1, sizeof *o.events);
    char *tmp = NULL;
    if (!o.writers || !o.events || asprintf(&tmp, "%s.tmp-%ld", dir, (long)getpid()) < 0) {
        free(o.writers);
        free(o.events);
        return sp_error_set(job->err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    }
    otf2_message[0] = '\0';
    OTF2_ErrorCallback previous = OTF2_Error_RegisterCallback(on_otf2_error, NULL);
    if (job->err) job->err->message[0] = '\0';
    sp_status st = write_archive(&o, tmp, dir);
    OTF2_Error_RegisterCallback(previous, NULL);
    if (st == SP_OK && rename(tmp, dir) != 0)
        st = sp_error_set(job->err, sp_status_from_errno(errno), "cannot write %s: %s", dir,
                          strerror(errno));
    if (st != SP_OK) nftw(tmp, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    free(tmp);
    free(o.writers);
    free(o.events);
    return st;
}

#endif
