#include <string.h>

#include "common/error.h"
#include "common/py_repr.h"
#include "present/table.h"

static const struct {
    const char *key;
    const char *header;
    const char *readable; /* the header without " [s]" when cells carry their unit */
} columns[SP_COL_COUNT_] = {
    [SP_COL_REGION] = {"region", "region", "region"},
    [SP_COL_RANKS] = {"ranks", "ranks", "ranks"},
    [SP_COL_CALLS] = {"calls", "n", "n"},
    [SP_COL_TOTAL] = {"total", "total [s]", "total"},
    [SP_COL_PERCENT] = {"percent", "% session", "% session"},
    [SP_COL_PARENT_PERCENT] = {"parent_percent", "% parent", "% parent"},
    [SP_COL_AVG] = {"avg", "avg/call [s]", "avg/call"},
    [SP_COL_MIN] = {"min", "min [s]", "min"},
    [SP_COL_MAX] = {"max", "max [s]", "max"},
    [SP_COL_FIRST] = {"first", "first [s]", "first"},
    [SP_COL_LAST] = {"last", "last [s]", "last"},
    [SP_COL_STD] = {"std", "std [s]", "std"},
    [SP_COL_P50] = {"p50", "p50 [s]", "p50"},
    [SP_COL_P95] = {"p95", "p95 [s]", "p95"},
    [SP_COL_P99] = {"p99", "p99 [s]", "p99"},
    [SP_COL_IMBALANCE] = {"imbalance", "imbalance [%]", "imbalance [%]"},
    [SP_COL_SLOWEST] = {"slowest", "slowest rank", "slowest rank"},
    [SP_COL_LOAD_BALANCE] = {"load_balance", "LB [%]", "LB [%]"},
    [SP_COL_THREADS] = {"threads", "threads", "threads"},
    [SP_COL_THREAD_IMBALANCE] = {"thread_imbalance", "thread imb. [%]", "thread imb. [%]"},
    [SP_COL_SLOWEST_THREAD] = {"slowest_thread", "slowest thread", "slowest thread"},
};

const char *sp_table_column_key(sp_table_column c) {
    return columns[c].key;
}
const char *sp_table_column_header(sp_table_column c) {
    return columns[c].header;
}
const char *sp_table_column_header_readable(sp_table_column c) {
    return columns[c].readable;
}

const char *const *sp_table_parallel_columns(const sp_results *r, size_t *n) {
    static const char *cols[5];
    int ranks = sp_results_num_ranks(r) > 1;
    if (!ranks && sp_results_num_threads(r) <= 1) return NULL;
    *n = 0;
    cols[(*n)++] = "region";
    if (sp_results_find(r, "scope_profiler.session") >= 0) cols[(*n)++] = "percent";
    cols[(*n)++] = "total";
    cols[(*n)++] = ranks ? "imbalance" : "thread_imbalance";
    cols[(*n)++] = ranks ? "slowest" : "slowest_thread";
    return cols;
}

static int lookup(const char *name) {
    if (!strcmp(name, "name")) return SP_COL_REGION;
    for (int c = 0; c < SP_COL_COUNT_; c++)
        if (!strcmp(name, columns[c].key)) return c;
    return -1;
}

sp_status sp_table_columns_parse(const char *const *names, size_t n, sp_table_column *out,
                                 sp_error *err) {
    size_t unknown = 0;
    for (size_t i = 0; i < n; i++) {
        int c = names[i] ? lookup(names[i]) : -1;
        if (c < 0)
            unknown++;
        else
            out[i] = (sp_table_column)c;
    }
    if (unknown) {
        sp_textbuf msg = SP_TEXTBUF_INIT;
        sp_textbuf_append(&msg, "Unknown region summary column(s): [");
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            if (names[i] && lookup(names[i]) >= 0) continue;
            if (k++) sp_textbuf_append(&msg, ", ");
            if (names[i])
                sp_py_str_repr(&msg, names[i]);
            else
                sp_textbuf_append(&msg, "None");
        }
        sp_textbuf_append(&msg, "]. Choices: ");
        for (int c = 0; c < SP_COL_COUNT_; c++) {
            if (c) sp_textbuf_append(&msg, ", ");
            sp_textbuf_append(&msg, columns[c].key);
        }
        const char *text = sp_textbuf_str(&msg);
        sp_error_set(err, SP_ERR_BAD_OPTION, "%s",
                     text ? text : "Unknown region summary column(s)");
        sp_textbuf_free(&msg);
        return SP_ERR_BAD_OPTION;
    }
    if (!n)
        return sp_error_set(err, SP_ERR_BAD_OPTION,
                            "At least one region summary column must be selected.");
    return SP_OK;
}

size_t sp_table_columns_default(const sp_table_rows *rows, sp_table_column *out) {
    size_t n = 0;
    out[n++] = SP_COL_REGION;
    if (rows->has_session_total) out[n++] = SP_COL_PERCENT;
    out[n++] = SP_COL_TOTAL;
    return n;
}
