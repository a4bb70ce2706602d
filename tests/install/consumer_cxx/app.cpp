// A C++ program built against the installed package: records, reads back.
#include <scope_profiler.hpp>

#include <cstdio>
#include <string>

namespace installed {
struct Solver {
    void solve() { SP_CXX_FUNCTION(); }
};
} // namespace installed

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = argv[1];
    {
        sp::Session session{opt};
        installed::Solver{}.solve();
        if (session.finalize(true) != SP_OK) return 1;
    }
    sp::Results r = sp::Results::read(argv[1]);
    bool ok = r && r.contains("scope_profiler.session") && r["installed::Solver::solve"] &&
              std::string(r.metadata_string("source_language")) == "c++";
    std::printf("installed C++ layer: %s\n", ok ? "ok" : "FAILED");
    return !ok;
}
