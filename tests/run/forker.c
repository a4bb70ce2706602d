/* Starts a child: fork, then exec of this program with "child". */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "child") == 0) {
        printf("child %ld\n", (long)getpid());
        return 0;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        execl("/proc/self/exe", argv[0], "child", (char *)NULL);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    printf("parent saw %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return 0;
}
