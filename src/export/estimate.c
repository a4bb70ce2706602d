/*
 * Output size estimates, from the selected calls per region and the widths
 * of the numbers the formats write (docs/cli.md § export: large runs).
 */
#include "analysis/internal.h"
#include "export/formats.h"
#include "export/names.h"
#include "export/protobuf.h"

static uint64_t digits(uint64_t v) {
    uint64_t n = 1;
    while (v >= 10) {
        v /= 10;
        n++;
    }
    return n;
}

/* Width of ns / 10^scale written by sp_format_scaled for a typical value below max. */
static uint64_t scaled_width(int64_t max, int scale) {
    uint64_t d = digits((uint64_t)(max > 0 ? max : 0));
    uint64_t integral = d > (uint64_t)scale ? d - (uint64_t)scale : 1;
    return integral + 1 + (uint64_t)scale; /* most values have a full fraction */
}

static uint64_t per_call(sp_export_format format, const sp_export_job *job, uint64_t name_len,
                         uint64_t lanes) {
    int64_t dur = sp_call_walker_max_duration_ns(job->w) / 2;
    int64_t off = sp_call_walker_max_offset_ns(job->w);
    uint64_t rank = digits(sp_call_walker_num_ranks(job->w));
    uint64_t n = job->r->m.num_events, ranks = sp_results_num_data_ranks(job->r);
    uint64_t id = digits(n / (ranks ? ranks : 1));
    switch (format) {
    case SP_EXPORT_CHROME_TRACE:
        /* {"name":N,"cat":"scope-profiler","ph":"X","ts":,"dur":,"pid":,"tid":,"args":
           {"rank":,"call_index":,"duration_s":,"call_id":,"parent_id":}}, */
        return 128 + name_len + scaled_width(off / 2, 3) + scaled_width(dur, 3) +
               scaled_width(dur, 9) + 2 * rank + 2 + 3 * id;
    case SP_EXPORT_SPEEDSCOPE:
        return 2 * (30 + digits(sp_results_num_regions(job->r)) + scaled_width(off / 2, 9));
    case SP_EXPORT_PERFETTO: {
        uint64_t ts = sp_pb_varint_size((uint64_t)(off > 0 ? off : 0) / 2);
        uint64_t uuid = sp_pb_varint_size(lanes + 1);
        uint64_t iid = sp_pb_varint_size(sp_results_num_regions(job->r));
        return 2 * (2 + 1 + ts + 2 + 2 + 2 + 2 + 1 + uuid) + 1 + iid;
    }
    case SP_EXPORT_FOLDED:
    case SP_EXPORT_HATCHET:
    case SP_EXPORT_PSTATS:
        return 0;
    case SP_EXPORT_OTF2:
        /* an enter and a leave record, each after a timestamp record (type and
         * 8 bytes): type, length, the region reference (measured: 23.0 bytes
         * per call for 200,000 calls of 2 regions) */
        return 2 * (9 + 2 + (sp_results_num_regions(job->r) > 127 ? 2 : 1));
    }
    return 0;
}

/* The ,"source_file":...,"source_line":N args of a region's calls (its first row's). */
static uint64_t source_bytes(const sp_results *r, size_t region) {
    const sp_mpi_region *reg = &r->regions[region];
    if (!reg->num_entries) return 0;
    const sp_model_row *row = &r->m.rows[reg->entries[0]];
    uint64_t n = 0;
    if (row->source_file[0]) {
        sp_textbuf t = SP_TEXTBUF_INIT;
        sp_name_append(&t, row->source_file, SP_NAMES_JSON);
        n += 15 + t.len;
        sp_textbuf_free(&t);
    }
    if (row->source_line >= 0) n += 15 + digits((uint64_t)row->source_line);
    return n;
}

uint64_t sp_estimate_bytes(sp_export_format format, const sp_export_job *job) {
    /* folded: the paths themselves, built without writing (a guess from the
     * regions' calls was 787 B for 16 MB on a 4,000-deep recursion) */
    if (format == SP_EXPORT_FOLDED) return sp_folded_bytes(job);
    const sp_results *r = job->r;
    const uint64_t *counts = sp_call_walker_region_counts(job->w);
    uint64_t lanes = sp_call_walker_num_lanes(job->w);
    uint64_t bytes = 256 + 64 * lanes, base = per_call(format, job, 0, lanes);
    for (size_t g = 0; g < sp_results_num_regions(r); g++) {
        if (!counts[g]) continue;
        uint64_t len = 0;
        sp_textbuf t = SP_TEXTBUF_INIT;
        sp_name_append(&t, sp_results_region_name(r, g), SP_NAMES_JSON);
        len = t.len;
        sp_textbuf_free(&t);
        bytes += 16 + len; /* frame tables, interned names */
        if (format == SP_EXPORT_HATCHET || format == SP_EXPORT_PSTATS) {
            /* hatchet: a node and a row per path (and rank); pstats: an entry
             * per region and one per caller, a few paths each */
            uint64_t paths = counts[g] < 8 ? counts[g] : 8;
            uint64_t rows = format == SP_EXPORT_HATCHET && !job->options->aggregate_ranks
                                ? sp_call_walker_num_ranks(job->w)
                                : 1;
            bytes += paths * (len + 48 + rows * 64);
        } else {
            uint64_t extra = 0;
            if (format == SP_EXPORT_CHROME_TRACE) extra = len + source_bytes(r, g);
            bytes += counts[g] * (base + extra);
        }
    }
    return bytes;
}
