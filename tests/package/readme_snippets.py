#!/usr/bin/env python3
"""Writes the code blocks README.md marks for the package test, so that the snippets users copy are the ones it
runs. A marked block is a fenced code block right after `<!-- package-test: NAME -->`; it is written to DIR/NAME.

    python3 tests/package/readme_snippets.py README.md DIR NAME...     # exit 1 if a NAME has no block
"""

import os
import re
import sys

MARKED_BLOCK = re.compile(r"<!-- package-test: (\S+) -->\n```[a-z]*\n(.*?)^```", re.S | re.M)


def main(readme, out_dir, names):
    with open(readme, encoding="utf-8") as f:
        blocks = dict(MARKED_BLOCK.findall(f.read()))
    missing = [name for name in names if name not in blocks]
    if missing:
        print(f"readme_snippets.py: {readme} marks no block for {', '.join(missing)}", file=sys.stderr)
        return 1
    for name in names:
        with open(os.path.join(out_dir, name), "w", encoding="utf-8") as f:
            f.write(blocks[name])
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3:]))
