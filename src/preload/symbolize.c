#include "preload/symbolize.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef SP_HAVE_LIBELF
#include <gelf.h>
#include <libelf.h>
#endif

typedef struct symbol {
    uint64_t value, size; /* link-time address */
    char *name;
} symbol;

typedef struct module {
    char *path;
    symbol *symbols;
    size_t count;
    struct module *next;
} module;

static module *modules;

static int by_value(const void *a, const void *b) {
    const symbol *x = a, *y = b;
    return x->value < y->value ? -1 : x->value > y->value;
}

#ifdef SP_HAVE_LIBELF
/* The function symbols of one table (SHT_SYMTAB or SHT_DYNSYM) appended to m. */
static void read_table(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, module *m) {
    Elf_Data *data = elf_getdata(scn, NULL);
    if (!data || sh->sh_entsize == 0) return;
    size_t n = sh->sh_size / sh->sh_entsize;
    symbol *grown = realloc(m->symbols, (m->count + n) * sizeof *grown);
    if (!grown) return;
    m->symbols = grown;
    for (size_t i = 0; i < n; i++) {
        GElf_Sym s;
        if (!gelf_getsym(data, (int)i, &s) || s.st_value == 0) continue;
        int type = GELF_ST_TYPE(s.st_info);
        if (type != STT_FUNC && type != STT_GNU_IFUNC) continue;
        const char *name = elf_strptr(elf, sh->sh_link, s.st_name);
        if (!name || !*name) continue;
        char *copy = strdup(name);
        if (!copy) return;
        m->symbols[m->count++] = (symbol){s.st_value, s.st_size, copy};
    }
}

static void read_symbols(module *m) {
    elf_version(EV_CURRENT);
    int fd = open(m->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
    int have_symtab = 0;
    for (int pass = 0; elf && pass < 2; pass++) {
        for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
            GElf_Shdr sh;
            if (!gelf_getshdr(scn, &sh)) continue;
            /* the full table when the file has one (static functions), else the dynamic one */
            if (pass == 0 && sh.sh_type == SHT_SYMTAB) {
                read_table(elf, scn, &sh, m);
                have_symtab = 1;
            } else if (pass == 1 && !have_symtab && sh.sh_type == SHT_DYNSYM)
                read_table(elf, scn, &sh, m);
        }
    }
    if (elf) elf_end(elf);
    close(fd);
    if (m->count) qsort(m->symbols, m->count, sizeof *m->symbols, by_value);
}
#else
static void read_symbols(module *m) {
    (void)m; /* built without libelf: exported names only (dladdr) */
}
#endif

static module *module_of(const char *path) {
    for (module *m = modules; m; m = m->next)
        if (strcmp(m->path, path) == 0) return m;
    module *m = calloc(1, sizeof *m);
    if (!m || !(m->path = strdup(path))) {
        free(m);
        return NULL;
    }
    read_symbols(m);
    m->next = modules;
    modules = m;
    return m;
}

static const char *find_symbol(const module *m, uint64_t offset) {
    size_t lo = 0, hi = m->count;
    while (lo < hi) { /* the first symbol above offset */
        size_t mid = lo + (hi - lo) / 2;
        if (m->symbols[mid].value <= offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0) return NULL;
    const symbol *s = &m->symbols[lo - 1];
    return offset == s->value || offset < s->value + s->size ? s->name : NULL;
}

typedef char *(*demangler)(const char *, char *, size_t *, int *);

/* C++ names through the C++ runtime's own demangler, when the program has one loaded. */
static void put_name(const char *name, char *out, size_t size) {
    demangler demangle = NULL;
    if (strncmp(name, "_Z", 2) == 0) *(void **)&demangle = dlsym(RTLD_DEFAULT, "__cxa_demangle");
    int status = -1;
    char *plain = demangle ? demangle(name, NULL, NULL, &status) : NULL;
    snprintf(out, size, "%s", plain && status == 0 ? plain : name);
    free(plain);
}

void sp_symbolize(uintptr_t addr, char *out, size_t size) {
    Dl_info info;
    struct link_map *map = NULL;
    if (!dladdr1((void *)addr, &info, (void **)&map, RTLD_DL_LINKMAP) || !map) {
        snprintf(out, size, "0x%lx", (unsigned long)addr);
        return;
    }
    if (info.dli_sname && (uintptr_t)info.dli_saddr == addr) {
        put_name(info.dli_sname, out, size);
        return;
    }
    const char *path = map->l_name && map->l_name[0] ? map->l_name : "/proc/self/exe";
    uint64_t offset = addr - map->l_addr; /* PIE and ASLR: the load bias */
    module *m = module_of(path);
    const char *name = m ? find_symbol(m, offset) : NULL;
    if (name) {
        put_name(name, out, size);
        return;
    }
    const char *shown = map->l_name && map->l_name[0] ? map->l_name : program_invocation_name;
    const char *slash = strrchr(shown, '/');
    snprintf(out, size, "%s+0x%llx", slash ? slash + 1 : shown, (unsigned long long)offset);
}

void sp_symbolize_forget(void) {
    while (modules) {
        module *m = modules;
        modules = m->next;
        for (size_t i = 0; i < m->count; i++)
            free(m->symbols[i].name);
        free(m->symbols);
        free(m->path);
        free(m);
    }
}
