/* A strict RFC 4180 reader for the tests (CRLF records, quoted fields);
 * include after cmocka.h. */
#ifndef SP_TEST_CSV_PARSE_H
#define SP_TEST_CSV_PARSE_H

#include <stdlib.h>
#include <string.h>

/* RFC 4180: splits text into cells (row-major); returns the number of rows. */
static inline size_t parse_csv(const char *text, char ***cells, size_t *ncols) {
    size_t cap = 64, n = 0, rows = 0, cols_in_row = 0;
    *cells = malloc(cap * sizeof **cells);
    assert_non_null(*cells);
    *ncols = 0;
    const char *p = text;
    while (*p) {
        char *cell = malloc(strlen(p) + 1);
        assert_non_null(cell);
        size_t k = 0;
        if (*p == '"') {
            for (p++; *p; p++) {
                if (*p == '"') {
                    if (p[1] == '"')
                        p++;
                    else
                        break;
                }
                cell[k++] = *p;
            }
            assert_int_equal(*p, '"');
            p++;
        } else {
            while (*p && *p != ',' && *p != '\r')
                cell[k++] = *p++;
        }
        cell[k] = '\0';
        if (n == cap) {
            *cells = realloc(*cells, (cap *= 2) * sizeof **cells);
            assert_non_null(*cells);
        }
        (*cells)[n++] = cell;
        cols_in_row++;
        if (*p == ',') {
            p++;
        } else {
            assert_true(p[0] == '\r' && p[1] == '\n');
            p += 2;
            if (!rows) *ncols = cols_in_row;
            assert_int_equal(cols_in_row, *ncols);
            cols_in_row = 0;
            rows++;
        }
    }
    return rows;
}

static inline void free_csv(char **cells, size_t n) {
    for (size_t i = 0; i < n; i++)
        free(cells[i]);
    free(cells);
}

#endif
