// C++ with -finstrument-functions: template instances named demangled, and an
// exception thrown through instrumented frames (their exits still come).
#include <cstdio>
#include <stdexcept>

template <typename T> __attribute__((noinline)) T twice(T x) {
    return x + x;
}

__attribute__((noinline)) int thrower(int n) {
    if (n == 0) throw std::runtime_error("bottom");
    return thrower(n - 1) + 1;
}

int main() {
    int caught = 0;
    for (int i = 0; i < 2; i++) {
        try {
            thrower(3);
        } catch (const std::exception &) {
            caught++;
        }
    }
    std::printf("caught %d, %d %.1f\n", caught, twice(2), twice(1.5));
    return 0;
}
