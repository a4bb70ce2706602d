/* A shared library built with -finstrument-functions (functions.c calls it). */
int lib_scale(int x);

int lib_scale(int x) {
    return 3 * x;
}
