#include "present/summary_fields.h"

#define NAME                                                                                       \
    { "name", SP_FIELD_NAME, offsetof(sp_summary_row, name) }
#define COUNT(key, member)                                                                         \
    { key, SP_FIELD_COUNT, offsetof(sp_summary_row, member) }
#define SECONDS(key, member)                                                                       \
    { key, SP_FIELD_DOUBLE, offsetof(sp_summary_row, member) }
#define GET_SUMMARY                                                                                \
    COUNT("num_calls", num_calls), SECONDS("total_duration", total_duration),                      \
        SECONDS("inclusive_duration", inclusive_duration),                                         \
        SECONDS("exclusive_duration", exclusive_duration),                                         \
        SECONDS("average_duration", average_duration), SECONDS("min_duration", min_duration),      \
        SECONDS("max_duration", max_duration), SECONDS("first_duration", first_duration),          \
        SECONDS("last_duration", last_duration), SECONDS("std_duration", std_duration)
#define PERCENTILES                                                                                \
    SECONDS("p50_duration", p50_duration), SECONDS("p95_duration", p95_duration),                  \
        SECONDS("p99_duration", p99_duration)

static const sp_summary_field pooled[] = {
    NAME,
    COUNT("num_ranks", num_ranks),
    GET_SUMMARY,
    {"tags", SP_FIELD_TAGS, offsetof(sp_summary_row, tags)},
    PERCENTILES,
    SECONDS("rank_imbalance", rank_imbalance),
    SECONDS("rank_imbalance_pct", rank_imbalance_pct),
    SECONDS("p50", p50_duration),
    SECONDS("p95", p95_duration),
    SECONDS("p99", p99_duration),
    SECONDS("imbalance", rank_imbalance_pct),
};

static const sp_summary_field per_rank_fields[] = {
    NAME,
    {"rank", SP_FIELD_RANK, offsetof(sp_summary_row, rank)},
    GET_SUMMARY,
    PERCENTILES,
};

const sp_summary_field *sp_summary_fields(int per_rank, size_t *count) {
    if (per_rank) {
        *count = sizeof per_rank_fields / sizeof per_rank_fields[0];
        return per_rank_fields;
    }
    *count = sizeof pooled / sizeof pooled[0];
    return pooled;
}
