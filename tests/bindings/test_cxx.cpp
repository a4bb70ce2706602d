// The C++ layer: qualified names, RAII regions (also through an exception),
// sessions, region(name, callable), and the analysis wrappers.
#include <scope_profiler.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <unistd.h>

static int failures = 0;
#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);          \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)
#define CHECK_NAME(signature, expected)                                                            \
    CHECK(sp::detail::qualified_name(signature) == std::string(expected))

static_assert(noexcept(sp::Region(sp_region_t(1))), "Region never throws");
static_assert(noexcept(sp::Region("x")), "Region never throws");
static_assert(noexcept(sp::Session()), "Session never throws");
static_assert(!std::is_copy_constructible<sp::Region>::value, "Region is move-only");
static_assert(std::is_nothrow_move_constructible<sp::Region>::value, "Region moves");
static_assert(!std::is_copy_constructible<sp::Results>::value, "Results owns its object");

// Signatures as GCC and Clang print them (__PRETTY_FUNCTION__).
static void test_qualified_name_parsing() {
    CHECK_NAME("void ns::Solver::solve(int)", "ns::Solver::solve");
    CHECK_NAME("double Solver::solve(const std::vector<double>&) const", "Solver::solve");
    CHECK_NAME("ns::Solver::Solver()", "ns::Solver::Solver");
    CHECK_NAME("ns::Solver::~Solver()", "ns::Solver::~Solver");
    CHECK_NAME("T ns::f(T) [with T = int]", "ns::f<int>");
    CHECK_NAME("T ns::f(T) [T = int]", "ns::f<int>");
    CHECK_NAME("void ns::Box<T>::get() const [with T = double]", "ns::Box<double>::get");
    CHECK_NAME("void ns::Box<double>::get() const [T = double]", "ns::Box<double>::get");
    CHECK_NAME("static std::vector<T> ns::Box<T>::mk(int) [with int N = 3; T = char]",
               "ns::Box<char>::mk<3>");
    CHECK_NAME("static std::vector<T> ns::Box<char>::mk(int) [T = char, N = 3]",
               "ns::Box<char>::mk<3>");
    CHECK_NAME("void ns::Box<int>::g() [T = int, U = int]", "ns::Box<int>::g<int>");
    CHECK_NAME("void ns::Box<T>::g() [with U = int; T = int]", "ns::Box<int>::g<int>");
    CHECK_NAME("void f(std::map<int, int>) [with K = std::map<int, int>]", "f<std::map<int, int>>");
    CHECK_NAME("bool ns::Solver::operator()(int) &&", "ns::Solver::operator()");
    CHECK_NAME("void ns::{anonymous}::anon()", "ns::{anonymous}::anon");
    CHECK_NAME("void ns::(anonymous namespace)::anon()", "ns::{anonymous}::anon");
    CHECK_NAME("int (* getfp())(int)", "getfp");
    CHECK_NAME("int (*getfp())(int)", "getfp");
    CHECK_NAME("main()::<lambda(int)>", "main::<lambda>");
    CHECK_NAME("auto main()::(anonymous class)::operator()(int) const", "main::<lambda>");
    CHECK(sp::detail::qualified_name("main()::<lambda(int)>", 42) == "main::<lambda@42>");
    CHECK(sp::detail::qualified_name("auto main()::(anonymous class)::operator()(int) const", 7) ==
          "main::<lambda@7>");
    CHECK_NAME("solve", "solve"); // __func__ on other compilers
}

namespace app {
template <typename T> T twice(T x) {
    SP_CXX_FUNCTION();
    return x + x;
}
template <typename T> struct Grid {
    T sum() const {
        SP_CXX_FUNCTION();
        return twice(T(1));
    }
};
struct Solver {
    int solve(int steps) {
        SP_CXX_FUNCTION();
        int total = 0;
        for (int i = 0; i < steps; i++) {
            SP_CXX_SCOPE("iteration");
            total += Grid<int>{}.sum();
        }
        return total;
    }
};
} // namespace app

static std::string temp_path(const char *name) {
    const char *tmp = std::getenv("TMPDIR");
    return std::string(tmp && *tmp ? tmp : "/tmp") + "/sp_test_cxx_" + std::to_string(getpid()) +
           "_" + name;
}

static uint64_t calls(const sp::Results &r, const char *name) {
    sp::MpiRegion m = r[name];
    return m ? m.num_calls() : 0;
}

static void depth3(int n) {
    sp::Region a{"level 1"};
    sp::Region b{std::string("level 2")};
    static const sp_region_t h3 = sp::handle("level 3");
    sp::Region c{h3};
    if (n == 2) throw std::runtime_error("from level 3");
}

static void test_session_and_regions() {
    std::string path = temp_path("raii.h5");
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = path.c_str();
    int callable_line = 0, first_lambda = 0, second_lambda = 0;
    {
        sp::Session session{opt};
        CHECK(session.ok());
        sp::Session second; // one session at a time
        CHECK(second.status() == SP_ERR_ALREADY_ACTIVE);
        CHECK(app::Solver{}.solve(3) == 6);
        CHECK(sp::set_metadata("problem_size", 64) == SP_OK);
        CHECK(sp::set_metadata("cells", 1000000000000LL) == SP_OK);
        CHECK(sp::set_metadata("dt", 0.25) == SP_OK);
        CHECK(sp::set_metadata("mesh", std::string("ring")) == SP_OK);
        CHECK(sp::set_metadata("mpi_size", 2) == SP_ERR_INVALID_ARGUMENT);
        CHECK(sp::add_tag(sp::handle("iteration"), "loop") == SP_OK);
        int thrown = 0;
        for (int n = 0; n < 3; n++) {
            try {
                depth3(n);
            } catch (const std::runtime_error &) {
                thrown++;
            }
        }
        CHECK(thrown == 1);
        {
            sp::Region moved_from{"moved"};
            sp::Region owner{std::move(moved_from)}; // one call, ended once
            sp::Region early{"early"};
            early.end();
            early.end(); // idempotent
        }
        // clang-format off: each pair must stay on one line (the line is the name)
        CHECK(sp::region("callable", [] { return 42; }) == 42); callable_line = __LINE__;
        first_lambda = __LINE__; auto first = [] { SP_CXX_FUNCTION(); };
        second_lambda = __LINE__; auto second_one = [] { SP_CXX_FUNCTION(); };
        // clang-format on
        first();
        second_one();
        second_one();
        sp::region(sp::handle("void callable"), [] {});
        CHECK(session.finalize(true) == SP_OK);
        CHECK(session.finalize(true) == SP_OK); // already done: nothing more
    }
    sp_error err;
    sp::Results r = sp::Results::read(path, &err);
    CHECK(bool(r));
    if (!r) return;
    CHECK(r.metadata_string("source_language") == std::string("c++"));
    CHECK(r.metadata_string("mesh") == std::string("ring"));
    {
        sp_metadata_item item;
        CHECK(sp_results_metadata_find(r.get(), "problem_size", &item) && item.type == SP_VALUE_INT &&
              item.int_value == 64);
        CHECK(sp_results_metadata_find(r.get(), "cells", &item) && item.int_value == 1000000000000LL);
        CHECK(sp_results_metadata_find(r.get(), "dt", &item) && item.type == SP_VALUE_FLOAT &&
              item.float_value == 0.25);
    }
    CHECK(calls(r, "app::Solver::solve") == 1);
    CHECK(calls(r, "iteration") == 3);
    CHECK(calls(r, "app::Grid<int>::sum") == 3);
    CHECK(calls(r, "app::twice<int>") == 3);
    CHECK(calls(r, "level 1") == 3);
    CHECK(calls(r, "level 2") == 3);
    CHECK(calls(r, "level 3") == 3);
    CHECK(calls(r, "moved") == 1);
    CHECK(calls(r, "early") == 1);
    CHECK(calls(r, "callable") == 1);
    CHECK(calls(r, "void callable") == 1);
    // two lambdas of one function: two regions, each named with its line
    std::string in_fn = "test_session_and_regions::<lambda@";
    CHECK(calls(r, (in_fn + std::to_string(first_lambda) + ">").c_str()) == 1);
    CHECK(calls(r, (in_fn + std::to_string(second_lambda) + ">").c_str()) == 2);
    // sp::region(name, fn) records the caller's line, not the header's
    const char *file = nullptr, *text = nullptr;
    int64_t line = -1;
    (void)sp_mpi_region_source(sp_results_get(r.get(), "callable", nullptr), &file, &line, &text);
    CHECK(line == callable_line && file && std::strstr(file, "test_cxx.cpp"));
    CHECK(!r["absent"]);
    CHECK(r.contains("level 3") && !r.contains("absent"));
    // well-formed after the exception: the tree rebuilds, each level's
    // exclusive time is its total minus the next level's
    sp::SummaryRows rows = r.summary(nullptr, false, &err);
    CHECK(bool(rows));
    CHECK(rows.size() == r.num_regions());
    double l1 = r["level 1"].total_duration(), l2 = r["level 2"].total_duration(),
           l3 = r["level 3"].total_duration();
    CHECK(std::abs(r["level 1"].exclusive_duration() - (l1 - l2)) < 1e-8);
    CHECK(std::abs(r["level 2"].exclusive_duration() - (l2 - l3)) < 1e-8);
    CHECK(std::abs(r["level 3"].exclusive_duration() - l3) < 1e-8);
    std::remove(path.c_str());
}

// The destructor finalizes with the options it was given.
static void test_session_destructor_finalizes() {
    std::string path = temp_path("dtor.h5");
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = path.c_str();
    {
        sp::Session session{opt};
        sp_finalize_options quiet = SP_FINALIZE_OPTIONS_INIT;
        quiet.quiet = 1;
        session.set_finalize_options(quiet);
        sp::Region r{"only"};
    }
    CHECK(!sp_is_active());
    sp::Results r = sp::Results::read(path);
    CHECK(bool(r) && calls(r, "only") == 1);
    std::remove(path.c_str());
    sp::Results missing = sp::Results::read("/nonexistent/x.h5");
    CHECK(!missing);
}

// sp::Region{"literal"} takes its handle from the literal cache (issue 29): a
// literal, the same text at another address, a char buffer reused for another
// name (checked byte by byte, never mistaken), a name too long for the cache,
// a const char * name; and the literal's slot then holds its handle.
static void test_literal_cache() {
    std::string path = temp_path("literals.h5");
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = path.c_str();
    static const char same_text[] = "cached literal";
    char buffer[16];
    std::strcpy(buffer, "buffer one");
    const char *pointer = "through a pointer";
    {
        sp::Session session{opt};
        CHECK(session.ok());
        for (int i = 0; i < 5; i++) {
            sp::Region r{"cached literal"};
        }
        for (int i = 0; i < 2; i++) {
            sp::Region r{same_text};
        }
        for (int i = 0; i < 3; i++) {
            sp::Region r{buffer};
        }
        std::memset(buffer, 0, sizeof buffer);
        std::strcpy(buffer, "buffer two");
        for (int i = 0; i < 4; i++) {
            sp::Region r{buffer};
        }
        for (int i = 0; i < 2; i++) {
            sp::Region r{"a literal name longer than the cache's thirty-two bytes"};
            sp::Region inner{pointer};
        }
        const sp_internal_literal_t_ &e =
            sp_internal_literals_[sp_internal_literal_slot_(same_text)];
        CHECK(e.key != nullptr); // filled by same_text or by a literal hashed there first
        if (e.key == same_text)
            CHECK(e.handle == sp::handle("cached literal") &&
                  std::strcmp(e.text, "cached literal") == 0);
        CHECK(session.finalize(true) == SP_OK);
    }
    sp::Results r = sp::Results::read(path);
    CHECK(bool(r));
    if (!r) return;
    CHECK(calls(r, "cached literal") == 7);
    CHECK(calls(r, "buffer one") == 3);
    CHECK(calls(r, "buffer two") == 4);
    CHECK(calls(r, "a literal name longer than the cache's thirty-two bytes") == 2);
    CHECK(calls(r, "through a pointer") == 2);
    std::remove(path.c_str());
}

int main() {
    test_qualified_name_parsing();
    test_literal_cache();
    test_session_and_regions();
    test_session_destructor_finalizes();
    if (failures)
        std::fprintf(stderr, "%d check(s) failed\n", failures);
    else
        std::printf("test_cxx: all checks passed (C++%ld)\n", __cplusplus / 100 % 100);
    return failures != 0;
}
