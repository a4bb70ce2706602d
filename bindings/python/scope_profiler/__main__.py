"""``python3 -m scope_profiler ...`` runs the scope-profiler command-line tool."""

import os
import shutil
import sys


def _cli_path():
    try:
        from scope_profiler._build_info import CLI
    except ImportError:
        CLI = None
    if CLI and os.access(CLI, os.X_OK):
        return CLI
    return shutil.which("scope-profiler")


def main():
    cli = _cli_path()
    if not cli:
        sys.stderr.write(
            "scope-profiler: the command-line tool is not installed next to this module "
            "and not on PATH; install the project (cmake --install) or add its bin/ to PATH\n"
        )
        return 2
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(cli, ["scope-profiler"] + sys.argv[1:])
    return 2  # not reached


if __name__ == "__main__":
    sys.exit(main())
