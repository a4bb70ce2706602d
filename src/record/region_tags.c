/* sp_region_add_tag: per-region tag lists, kept apart from the registry so
 * the hot path's region entries stay as small as they are. */
#include "record/region_tags.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/json_escape.h"
#include "common/text_buffer.h"
#include "record/registry.h"

typedef struct tag_list {
    sp_region_t region;
    char **tags;
    size_t num_tags;
} tag_list;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static tag_list *lists;
static size_t num_lists;

static tag_list *list_of(sp_region_t region) {
    for (size_t i = 0; i < num_lists; i++)
        if (lists[i].region == region) return &lists[i];
    return NULL;
}

static sp_status add_locked(sp_region_t region, const char *tag) {
    tag_list *l = list_of(region);
    if (!l) {
        tag_list *grown = realloc(lists, (num_lists + 1) * sizeof *lists);
        if (!grown) return SP_ERR_OUT_OF_MEMORY;
        lists = grown;
        l = &lists[num_lists++];
        *l = (tag_list){.region = region};
    }
    for (size_t i = 0; i < l->num_tags; i++)
        if (!strcmp(l->tags[i], tag)) return SP_OK;
    char *copy = strdup(tag);
    char **grown = copy ? realloc(l->tags, (l->num_tags + 1) * sizeof *l->tags) : NULL;
    if (!grown) {
        free(copy);
        return SP_ERR_OUT_OF_MEMORY;
    }
    l->tags = grown;
    l->tags[l->num_tags++] = copy;
    return SP_OK;
}

sp_status sp_region_add_tag(sp_region_t region, const char *tag) {
    if (!tag || !*tag || !sp_registry_name(region)) return SP_ERR_INVALID_ARGUMENT;
    pthread_mutex_lock(&lock);
    sp_status st = add_locked(region, tag);
    pthread_mutex_unlock(&lock);
    return st;
}

char *sp_region_tags_json(sp_region_t region) {
    sp_textbuf out = {0};
    sp_textbuf_putc(&out, '[');
    pthread_mutex_lock(&lock);
    const tag_list *l = list_of(region);
    for (size_t i = 0; l && i < l->num_tags; i++) {
        if (i) sp_textbuf_append(&out, ", ");
        sp_json_escape(&out, l->tags[i]);
    }
    pthread_mutex_unlock(&lock);
    sp_textbuf_putc(&out, ']');
    return sp_textbuf_take(&out);
}
