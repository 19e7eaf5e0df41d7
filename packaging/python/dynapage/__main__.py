"""`python -m dynapage [flags]` (and the `dynapage` command the wheel installs): runs the packaged binary."""

import os
import sys

from dynapage import DynapageError, _ensure_executable, binary_path


def main():
    binary = binary_path()
    try:
        _ensure_executable(binary)
    except DynapageError as e:
        sys.exit(str(e))
    os.execv(binary, [binary, *sys.argv[1:]])


if __name__ == "__main__":
    main()
