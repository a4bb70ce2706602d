/* An unannotated program: prints one line and exits with argv[1] (default 0). */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    printf("plain says hello\n");
    return argc > 1 ? atoi(argv[1]) : 0;
}
