#include <string.h>

#include "common/error.h"
#include "common/py_repr.h"
#include "present/table.h"

static const struct {
    const char *key;
    const char *header;
} columns[SP_COL_COUNT_] = {
    [SP_COL_REGION] = {"region", "region"},
    [SP_COL_RANKS] = {"ranks", "ranks"},
    [SP_COL_CALLS] = {"calls", "n"},
    [SP_COL_TOTAL] = {"total", "total [s]"},
    [SP_COL_PERCENT] = {"percent", "% session"},
    [SP_COL_PARENT_PERCENT] = {"parent_percent", "% parent"},
    [SP_COL_AVG] = {"avg", "avg/call [s]"},
    [SP_COL_MIN] = {"min", "min [s]"},
    [SP_COL_MAX] = {"max", "max [s]"},
    [SP_COL_FIRST] = {"first", "first [s]"},
    [SP_COL_LAST] = {"last", "last [s]"},
    [SP_COL_STD] = {"std", "std [s]"},
    [SP_COL_P50] = {"p50", "p50 [s]"},
    [SP_COL_P95] = {"p95", "p95 [s]"},
    [SP_COL_P99] = {"p99", "p99 [s]"},
    [SP_COL_IMBALANCE] = {"imbalance", "imbalance [%]"},
    [SP_COL_SLOWEST] = {"slowest", "slowest rank"},
    [SP_COL_LOAD_BALANCE] = {"load_balance", "LB [%]"},
    [SP_COL_THREADS] = {"threads", "threads"},
    [SP_COL_THREAD_IMBALANCE] = {"thread_imbalance", "thread imb. [%]"},
    [SP_COL_SLOWEST_THREAD] = {"slowest_thread", "slowest thread"},
};

const char *sp_table_column_key(sp_table_column c) {
    return columns[c].key;
}
const char *sp_table_column_header(sp_table_column c) {
    return columns[c].header;
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
