/*
 * scope_profiler.hpp: the C++ layer (C++11 to C++20) over scope_profiler.h.
 *
 *     #include <scope_profiler.hpp>
 *
 *     struct Solver {
 *         void solve() { SP_CXX_FUNCTION(); ... }   // region "Solver::solve"
 *     };
 *     int main() {
 *         sp::Session session;                      // sp_setup; finalize at scope exit
 *         { sp::Region r{"setup"}; ... }            // ends at scope exit or unwinding
 *         sp::region("assemble", [&] { ... });
 *         return session.finalize();                // or let the destructor do it
 *     }
 *
 * Nothing here throws: every function is noexcept and reports through
 * sp_status, like the C API. Compile with -DSP_DISABLE and every recording
 * type and macro compiles to nothing. The namespace alias `sp` is left out
 * when SP_NO_SHORT_NAMESPACE is defined.
 */
#ifndef SCOPE_PROFILER_HPP
#define SCOPE_PROFILER_HPP

#include <scope_profiler.h>
#include <scope_profiler/qualified_name.hpp>
#include <scope_profiler/results.h>

#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>
#if __cplusplus >= 201703L
#include <string_view>
#endif

namespace scope_profiler {

#if __cplusplus >= 201703L
using name_view = std::string_view; /**< names handed out by the analysis wrappers */
#else
using name_view = const char *;
#endif

/** A one-sentence, static description of a status. */
inline const char *status_string(sp_status status) noexcept {
#ifndef SP_DISABLE
    return sp_status_string(status);
#else
    return status == SP_OK ? "success" : "profiling is compiled out (SP_DISABLE)";
#endif
}

/** The handle of a region name (interned once; the same name, the same handle). */
inline sp_region_t handle(const char *name, const char *file = __builtin_FILE(),
                          int line = __builtin_LINE()) noexcept {
#ifndef SP_DISABLE
    return sp_region_at(name, file, line);
#else
    (void)name;
    (void)file;
    (void)line;
    return SP_REGION_NONE;
#endif
}

/** Names the calling thread in the thread table (see sp_set_thread_name). */
inline sp_status set_thread_name(const char *name) noexcept {
    return sp_set_thread_name(name);
}

/** User metadata (see sp_set_metadata_int): the overload follows the value's type. */
inline sp_status set_metadata(const char *key, const char *value) noexcept {
    return sp_set_metadata_string(key, value);
}
inline sp_status set_metadata(const char *key, const std::string &value) noexcept {
    return sp_set_metadata_string(key, value.c_str());
}
inline sp_status set_metadata(const char *key, double value) noexcept {
    return sp_set_metadata_double(key, value);
}
inline sp_status set_metadata(const char *key, float value) noexcept {
    return sp_set_metadata_double(key, value);
}
inline sp_status set_metadata(const char *key, long long value) noexcept {
    return sp_set_metadata_int(key, static_cast<int64_t>(value));
}
inline sp_status set_metadata(const char *key, long value) noexcept {
    return sp_set_metadata_int(key, static_cast<int64_t>(value));
}
inline sp_status set_metadata(const char *key, int value) noexcept {
    return sp_set_metadata_int(key, value);
}
inline sp_status set_metadata(const char *key, unsigned value) noexcept {
    return sp_set_metadata_int(key, value);
}
/* bool would otherwise pick the int overload silently: refuse it at compile time */
sp_status set_metadata(const char *key, bool value) noexcept = delete;

/** Adds a tag to a region (see sp_region_add_tag). */
inline sp_status add_tag(sp_region_t region, const char *tag) noexcept {
    return sp_region_add_tag(region, tag);
}

/**
 * A profiling session: sp_setup() in the constructor (recording "c++" as
 * the program's language), sp_finalize() in finalize() or, if that was not
 * called, in the destructor. Move-only; status() tells whether setup worked.
 */
class Session {
  public:
    Session() noexcept : Session(nullptr) {}
    explicit Session(const sp_options &options) noexcept : Session(&options) {}
    /** Finalizes with the given options (default: print the summary). */
    ~Session() { finalize(finalize_options_); }

    Session(Session &&other) noexcept
        : status_(other.status_), owns_(other.owns_), finalize_options_(other.finalize_options_) {
        other.owns_ = false;
    }
    Session(const Session &) = delete;
    Session &operator=(const Session &) = delete;
    Session &operator=(Session &&) = delete;

    /** What sp_setup() returned. */
    sp_status status() const noexcept { return status_; }
    bool ok() const noexcept { return status_ == SP_OK; }

    /** The options the destructor finalizes with (quiet, stream, results). */
    void set_finalize_options(const sp_finalize_options &options) noexcept {
        finalize_options_ = options;
    }

    /** Ends the session now; later calls (and the destructor) do nothing and return SP_OK. */
    sp_status finalize(const sp_finalize_options &options) noexcept {
        if (!owns_) return SP_OK;
        owns_ = false;
        return sp_finalize(&options);
    }
    sp_status finalize(bool quiet = false) noexcept {
        sp_finalize_options options = finalize_options_;
        options.quiet = quiet ? 1 : options.quiet;
        return finalize(options);
    }

  protected:
    struct adopt_status {};
    /** For layers that set up the session themselves (scope_profiler_mpi.hpp). */
    Session(adopt_status, sp_status status) noexcept
        : status_(status), owns_(status == SP_OK), finalize_options_() {}

  private:
    explicit Session(const sp_options *options) noexcept : finalize_options_() {
        sp_set_source_language("c++");
        status_ = sp_setup(options);
        owns_ = status_ == SP_OK;
    }

    sp_status status_;
    bool owns_;
    sp_finalize_options finalize_options_;
};

namespace detail {
/** Only `const char *` and `char *` (Region's pointer constructor is a
 *  template, so that a literal prefers the more specialised array one). */
template <class T>
using if_name_pointer = typename std::enable_if<
    std::is_same<T, const char *>::value || std::is_same<T, char *>::value, int>::type;

#ifndef SP_DISABLE
/** The handle of the name in an array (a literal, typically): from the
 *  process-wide literal cache when its slot holds this address with exactly
 *  these N bytes, else through the library (scope_profiler.h). */
template <std::size_t N>
inline sp_region_t literal_handle(const char (&name)[N], const char *file, int line) noexcept {
    if (N <= SP_INTERNAL_LITERAL_BYTES_) {
        const sp_internal_literal_t_ &e = sp_internal_literals_[sp_internal_literal_slot_(name)];
        if (__atomic_load_n(&e.key, __ATOMIC_ACQUIRE) == &name[0] &&
            __builtin_memcmp(e.text, name, N < SP_INTERNAL_LITERAL_BYTES_ ? N : SP_INTERNAL_LITERAL_BYTES_) == 0)
            return e.handle;
    }
    return sp_internal_literal_(name, N, file, line);
}
#endif
} // namespace detail

/**
 * One call of a region, from construction to end() or the end of the scope
 * (also when an exception unwinds through it). From a handle it costs what
 * a C sp_begin/sp_end pair costs; from a `const char *` name it goes through
 * the per-thread name cache (the text must stay valid and unchanged while
 * the region is open: a literal, typically). Move-only: a moved-from Region
 * ends nothing.
 */
class Region {
  public:
    explicit Region(sp_region_t region, const char *file = __builtin_FILE(),
                    int line = __builtin_LINE()) noexcept
        : region_(region), name_(nullptr), file_(file), line_(line) {
        sp_begin(region);
    }
    /** A literal (any char array): its handle from the literal cache, then a
     *  handle pair (the C call-site cache's cost, a few instructions more). */
    template <std::size_t N>
    explicit Region(const char (&name)[N], const char *file = __builtin_FILE(),
                    int line = __builtin_LINE()) noexcept
        : region_(SP_REGION_NONE), name_(nullptr), file_(file), line_(line) {
#ifndef SP_DISABLE
        if (SP_INTERNAL_ACTIVE_()) {
            region_ = detail::literal_handle(name, file, line);
            sp_begin(region_);
        }
#else
        (void)name;
#endif
    }
    /** A `const char *` name, through the per-thread name cache. */
    template <class T, detail::if_name_pointer<T> = 0>
    explicit Region(T name, const char *file = __builtin_FILE(),
                    int line = __builtin_LINE()) noexcept
        : region_(SP_REGION_NONE), name_(name), file_(file), line_(line) {
#ifndef SP_DISABLE
        sp_begin_name_at(name, file, line);
#endif
    }
    /** A name held in a std::string (which may be a temporary): interned on every
     *  construction, so slower than a literal or a handle. */
    explicit Region(const std::string &name, const char *file = __builtin_FILE(),
                    int line = __builtin_LINE()) noexcept
        : Region(handle(name.c_str(), file, line), file, line) {}
    ~Region() {
        end();
    }

    Region(Region &&other) noexcept
        : region_(other.region_), name_(other.name_), file_(other.file_), line_(other.line_) {
        other.region_ = SP_REGION_NONE;
        other.name_ = nullptr;
    }
    Region(const Region &) = delete;
    Region &operator=(const Region &) = delete;
    Region &operator=(Region &&) = delete;

    /** Ends the call now (idempotent). */
    void end() noexcept {
#ifndef SP_DISABLE
        if (region_ != SP_REGION_NONE) {
            sp_end_at(region_, file_, line_);
            region_ = SP_REGION_NONE;
        } else if (name_) {
            sp_end_name_at(name_, file_, line_);
            name_ = nullptr;
        }
#endif
    }

  private:
    sp_region_t region_;
    const char *name_;
    const char *file_;
    int line_;
};

/** Runs fn() inside one call of the region and returns what it returns; the
 *  region's source location is the caller's line. */
template <class F>
inline auto region(const char *name, F &&fn, const char *file = __builtin_FILE(),
                   int line = __builtin_LINE()) -> decltype(std::forward<F>(fn)()) {
    Region r(name, file, line);
    return std::forward<F>(fn)();
}
template <class F>
inline auto region(sp_region_t handle, F &&fn, const char *file = __builtin_FILE(),
                   int line = __builtin_LINE()) -> decltype(std::forward<F>(fn)()) {
    Region r(handle, file, line);
    return std::forward<F>(fn)();
}

/* --- Analysis --------------------------------------------------------------- */

/** A view of one region over all ranks (owned by its Results). */
class MpiRegion {
  public:
    MpiRegion() noexcept : r_(nullptr) {}
    explicit MpiRegion(const sp_mpi_region *r) noexcept : r_(r) {}
    explicit operator bool() const noexcept { return r_ != nullptr; }
    const sp_mpi_region *get() const noexcept { return r_; }

    name_view name() const noexcept { return sp_mpi_region_name(r_); }
    uint64_t num_calls() const noexcept { return sp_mpi_region_num_calls(r_); }
    double total_duration() const noexcept { return sp_mpi_region_total_duration(r_); }
    double average_duration() const noexcept { return sp_mpi_region_average_duration(r_); }
    double min_duration() const noexcept { return sp_mpi_region_min_duration(r_); }
    double max_duration() const noexcept { return sp_mpi_region_max_duration(r_); }
    double std_duration() const noexcept { return sp_mpi_region_std_duration(r_); }
    double imbalance_pct() const noexcept { return sp_mpi_region_imbalance_pct(r_); }
    double exclusive_duration(sp_error *err = nullptr) const noexcept {
        return sp_mpi_region_exclusive_duration(r_, err);
    }
    double percentile(double q, sp_error *err = nullptr) const noexcept {
        return sp_mpi_region_percentile(r_, q, err);
    }
    sp_status summary(sp_summary *out, sp_error *err = nullptr) const noexcept {
        return sp_mpi_region_get_summary(r_, out, err);
    }

  private:
    const sp_mpi_region *r_;
};

/** The rows of Results::summary(), freed on destruction. */
class SummaryRows {
  public:
    explicit SummaryRows(sp_summary_rows *rows = nullptr) noexcept : rows_(rows) {}
    ~SummaryRows() { sp_summary_rows_free(rows_); }
    SummaryRows(SummaryRows &&other) noexcept : rows_(other.rows_) { other.rows_ = nullptr; }
    SummaryRows &operator=(SummaryRows &&other) noexcept {
        std::swap(rows_, other.rows_);
        return *this;
    }
    SummaryRows(const SummaryRows &) = delete;
    SummaryRows &operator=(const SummaryRows &) = delete;

    explicit operator bool() const noexcept { return rows_ != nullptr; }
    std::size_t size() const noexcept { return rows_ ? rows_->count : 0; }
    const sp_summary_row &operator[](std::size_t i) const noexcept { return rows_->rows[i]; }
    const sp_summary_row *begin() const noexcept { return rows_ ? rows_->rows : nullptr; }
    const sp_summary_row *end() const noexcept {
        return rows_ ? rows_->rows + rows_->count : nullptr;
    }

  private:
    sp_summary_rows *rows_;
};

/** A profile read from a file (sp_read), freed on destruction. */
class Results {
  public:
    /** Reads path; on failure the object is empty and err (if given) says why. */
    static Results read(const char *path, sp_error *err = nullptr) noexcept {
        return Results(sp_read(path, err));
    }
    static Results read(const std::string &path, sp_error *err = nullptr) noexcept {
        return read(path.c_str(), err);
    }
    /** Takes ownership of a results object (e.g. sp_finalize_options.results). */
    explicit Results(sp_results *r = nullptr) noexcept : r_(r) {}
    ~Results() { sp_results_free(r_); }
    Results(Results &&other) noexcept : r_(other.r_) { other.r_ = nullptr; }
    Results &operator=(Results &&other) noexcept {
        std::swap(r_, other.r_);
        return *this;
    }
    Results(const Results &) = delete;
    Results &operator=(const Results &) = delete;

    explicit operator bool() const noexcept { return r_ != nullptr; }
    const sp_results *get() const noexcept { return r_; }

    std::size_t num_regions() const noexcept { return sp_results_num_regions(r_); }
    name_view region_name(std::size_t index) const noexcept {
        return sp_results_region_name(r_, index);
    }
    bool contains(const char *name) const noexcept { return sp_results_find(r_, name) >= 0; }
    /** results["name"]: an empty MpiRegion on a miss (err lists the regions there are). */
    MpiRegion operator[](const char *name) const noexcept { return get_region(name, nullptr); }
    MpiRegion get_region(const char *name, sp_error *err) const noexcept {
        return MpiRegion(sp_results_get(r_, name, err));
    }
    /** A metadata string ("" when absent or not a string). */
    name_view metadata_string(const char *key) const noexcept {
        sp_metadata_item item;
        if (sp_results_metadata_find(r_, key, &item) && item.type == SP_VALUE_STRING)
            return item.string_value;
        return "";
    }
    SummaryRows summary(const sp_filter *filter = nullptr, bool per_rank = false,
                        sp_error *err = nullptr) const noexcept {
        return SummaryRows(sp_results_summary(r_, filter, per_rank ? 1 : 0, err));
    }
    sp_status print_summary(FILE *out = stdout, const sp_print_options *options = nullptr,
                            sp_error *err = nullptr) const noexcept {
        return sp_print_summary(r_, out, options, err);
    }

  private:
    sp_results *r_;
};

} // namespace scope_profiler

#ifndef SP_NO_SHORT_NAMESPACE
namespace sp = scope_profiler;
#endif

/* --- Macros ------------------------------------------------------------------ */

#ifndef SP_DISABLE
#define SP_INTERNAL_CXX_SCOPE_(handle_expr, var)                                                   \
    static const sp_region_t SP_INTERNAL_CAT_(var, _handle) = (handle_expr);                       \
    ::scope_profiler::Region SP_INTERNAL_CAT_(var, _region)(SP_INTERNAL_CAT_(var, _handle),        \
                                                            __FILE__, __LINE__)

/** SP_CXX_SCOPE("name");: a Region with a handle interned once per call site. */
#define SP_CXX_SCOPE(name)                                                                         \
    SP_INTERNAL_CXX_SCOPE_(sp_region_at((name), __FILE__, __LINE__),                               \
                           SP_INTERNAL_CAT_(sp_cxx_, __COUNTER__))

/**
 * SP_CXX_FUNCTION(); at the top of a function: a region named with the
 * function's qualified name, without return type and parameters
 * ("Solver::solve", "ns::f<int>", "ns::Box<double>::get").
 */
#define SP_CXX_FUNCTION()                                                                          \
    SP_INTERNAL_CXX_SCOPE_(                                                                        \
        ::scope_profiler::detail::qualified_region(SP_INTERNAL_SIGNATURE_, __FILE__, __LINE__),    \
        SP_INTERNAL_CAT_(sp_cxx_, __COUNTER__))
#else
#define SP_CXX_SCOPE(name) static_assert(true, "")
#define SP_CXX_FUNCTION()  static_assert(true, "")
#endif

#endif /* SCOPE_PROFILER_HPP */
