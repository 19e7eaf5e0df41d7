#!/usr/bin/env python3
"""The figures README.md and docs/ quote, generated from their one source each, so that they cannot drift:

- bench/results/latest.json (bench/run.py): start-up, idle memory and the performance table;
- packaging/sizes.json: the release artefacts' sizes, measured by scripts/package.sh (dist/sizes.json);
- CMakeLists.txt: the version in the artefacts' names (dynapage-V-…, dynapage_V_amd64.deb, dynapage:V).

Each generated part sits between `<!-- figures: NAME -->` and `<!-- /figures -->` in a Markdown file; the
artefact names are rewritten where they stand.

    python3 scripts/readme_figures.py --check                 # CI: exit 1, with a diff, if a file is stale
    python3 scripts/readme_figures.py --write                 # rewrite the generated parts
    python3 scripts/readme_figures.py --sizes dist/sizes.json --write   # take new sizes first
    python3 scripts/readme_figures.py --sizes dist/sizes.json --check   # also: measured sizes within 10%
"""

import argparse
import difflib
import glob
import json
import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(REPO, "bench", "results", "latest.json")
SIZES = os.path.join(REPO, "packaging", "sizes.json")
CMAKE = os.path.join(REPO, "CMakeLists.txt")
VERSIONED_NAME = re.compile(r"(dynapage[-_:])(\d+\.\d+\.\d+)")
MARKED = re.compile(r"(<!-- figures: ([a-z-]+) -->)(.*?)(<!-- /figures -->)", re.S)
SIZE_TOLERANCE = 0.10

# The performance table: (row, figure of bench/run.py, unit).
PERFORMANCE_ROWS = [
    ("start-up", "startup_ms", "ms"),
    ("memory when idle", "idle_rss_mib", "MiB"),
    ("load with BatchWriteItem, per item", "small.load_cpu_us_per_item", "µs"),
    ("full Scan, per item", "small.scan_cpu_us_per_item", "µs"),
    ("Query page of 25 items", "small.query_cpu_us_per_page", "µs"),
    ("Scan with a 1% filter, per scanned item", "small.filter_cpu_us_per_item", "µs"),
    ("Scan page of Limit 100 with a filter", "small.limitfilter_cpu_us_per_page", "µs"),
]
# The artefacts of scripts/package.sh, as sizes.json names them.
ARTEFACTS = [
    ("tarball", "static binary, LICENSE, README (`.tar.gz`)"),
    ("deb", "`.deb`"),
    ("npm", "npm package (`.tgz`)"),
    ("wheel", "Python wheel"),
    ("image", "image, unpacked (`docker images`)"),
]


def number(value, unit):
    if unit == "MiB":
        return f"{value:.1f}"
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:.1f}" if value >= 10 else f"{value:.2f}"


def render(name, bench, sizes):
    figures = {server: agg["figures"] for server, agg in bench["aggregate"].items()}
    mine = figures["dynapage"]
    if name == "performance":
        lines = ["", "| | dynapage | dynalite | dynalite / dynapage |", "|---|---|---|---|"]
        for row, key, unit in PERFORMANCE_ROWS:
            values = [figures[s][key]["median"] for s in ("dynapage", "dynalite")]
            cells = [f"{number(value, unit)} {unit}" for value in values]
            lines.append(f"| {row} | {cells[0]} | {cells[1]} | {values[1] / values[0]:.1f}x |")
        return "\n".join(lines) + "\n\n"
    if name == "summary":
        return (f"starts in about {mine['startup_ms']['median']:.0f} ms, idles in "
                f"{mine['idle_rss_mib']['median']:.1f} MiB")
    if name == "image-size":
        return f"{sizes['image']:.1f} MB"
    if name == "sizes":
        lines = [""] + [f"| {what} | {sizes[key]:.1f} MB |" for key, what in ARTEFACTS]
        return "\n".join(["", "| artefact | size |", "|---|---|"] + lines[1:]) + "\n\n"
    raise SystemExit(f"scripts/readme_figures.py: unknown figures block {name!r}")


def files():
    return [os.path.join(REPO, "README.md")] + sorted(glob.glob(os.path.join(REPO, "docs", "*.md")))


def regenerate(text, bench, sizes, version):
    text = MARKED.sub(lambda m: m.group(1) + render(m.group(2), bench, sizes) + m.group(4), text)
    return VERSIONED_NAME.sub(lambda m: m.group(1) + version, text)


def project_version():
    with open(CMAKE) as f:
        return re.search(r"project\(dynapage VERSION (\d+\.\d+\.\d+)", f.read()).group(1)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--sizes", help="sizes measured by scripts/package.sh (dist/sizes.json)")
    args = parser.parse_args()
    with open(BENCH) as f:
        bench = json.load(f)
    with open(SIZES) as f:
        sizes = json.load(f)
    status = 0
    if args.sizes:
        with open(args.sizes) as f:
            measured = json.load(f)
        if args.write:
            sizes = {key: round(value, 1) for key, value in measured.items()}
            with open(SIZES, "w") as f:
                json.dump(sizes, f, indent=1, sort_keys=True)
                f.write("\n")
        for key, value in measured.items():
            if abs(value - sizes[key]) > SIZE_TOLERANCE * sizes[key]:
                print(f"scripts/readme_figures.py: {key} is {value:.1f} MB, packaging/sizes.json says "
                      f"{sizes[key]:.1f} MB: run it with --sizes dist/sizes.json --write", file=sys.stderr)
                status = 1
    for path in files():
        with open(path, encoding="utf-8") as f:
            text = f.read()
        new = regenerate(text, bench, sizes, project_version())
        if new == text:
            continue
        if args.write:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
            print(f"scripts/readme_figures.py: rewrote {os.path.relpath(path, REPO)}")
        else:
            status = 1
            sys.stderr.writelines(difflib.unified_diff(text.splitlines(True), new.splitlines(True),
                                                       os.path.relpath(path, REPO), "generated"))
    if status and not args.write:
        print("scripts/readme_figures.py: stale figures: python3 scripts/readme_figures.py --write", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
