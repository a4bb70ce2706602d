// Checks a profile of the tutorial workload (examples/cxx, examples/fortran)
// through the C++ analysis wrappers:
//     check_tutorial FILE LANGUAGE RANKS SETUP TIMESTEP ASSEMBLE SOLVE [INNER]
// Exact call counts per rank (1 setup, 5 time steps, 5 assemble, 5 solve and
// 5 INNER calls, and the session root once), the language metadata, and the nesting: each time step's
// exclusive time is its total minus its children's (assemble and solve), and
// solve's minus INNER's, to the nanosecond.
#include <scope_profiler.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

static int failures = 0;
#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            std::fprintf(stderr, "check_tutorial: %s:%d: %s\n", __FILE__, __LINE__, #cond);        \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

static sp::MpiRegion region(const sp::Results &r, const char *name) {
    sp_error err;
    sp::MpiRegion m = r.get_region(name, &err);
    if (!m) std::fprintf(stderr, "check_tutorial: %s\n", err.message);
    return m;
}

int main(int argc, char **argv) {
    if (argc < 8) {
        std::fprintf(stderr, "usage: check_tutorial FILE LANGUAGE RANKS SETUP TIMESTEP ASSEMBLE "
                             "SOLVE [INNER]\n");
        return 2;
    }
    sp_error err;
    sp::Results r = sp::Results::read(argv[1], &err);
    if (!r) {
        std::fprintf(stderr, "check_tutorial: %s\n", err.message);
        return 1;
    }
    const uint64_t ranks = std::strtoull(argv[3], nullptr, 10);
    CHECK(std::string(r.metadata_string("source_language")) == argv[2]);
    CHECK(sp_results_num_data_ranks(r.get()) == ranks);
    const char *inner = argc > 8 ? argv[8] : nullptr;
    // the workload's regions and the session root (scope_profiler.session)
    CHECK(r.num_regions() == (inner ? 6u : 5u));
    CHECK(r.contains("scope_profiler.session") && r["scope_profiler.session"].num_calls() == ranks);
    sp::MpiRegion setup = region(r, argv[4]), step = region(r, argv[5]),
                  assemble = region(r, argv[6]), solve = region(r, argv[7]);
    if (!setup || !step || !assemble || !solve) return 1;
    CHECK(setup.num_calls() == ranks);
    CHECK(step.num_calls() == 5 * ranks);
    CHECK(assemble.num_calls() == 5 * ranks);
    CHECK(solve.num_calls() == 5 * ranks);
    double inner_total = 0.0;
    if (inner) {
        sp::MpiRegion in = region(r, inner);
        if (!in) return 1;
        CHECK(in.num_calls() == 5 * ranks);
        inner_total = in.total_duration();
    }
    double expect = step.total_duration() - assemble.total_duration() - solve.total_duration();
    CHECK(std::fabs(step.exclusive_duration() - expect) < 1e-9 * ranks * 5);
    CHECK(std::fabs(solve.exclusive_duration() - (solve.total_duration() - inner_total)) <
          1e-9 * ranks * 5);
    CHECK(std::fabs(setup.exclusive_duration() - setup.total_duration()) < 1e-9);
    CHECK(assemble.total_duration() > 0.0);
    sp::SummaryRows rows = r.summary();
    CHECK(rows.size() == r.num_regions());
    if (failures) return 1;
    std::printf("check_tutorial: %s (%s, %llu rank(s)): ok\n", argv[1], argv[2],
                (unsigned long long)ranks);
    return 0;
}
