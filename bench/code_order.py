#!/usr/bin/env python3
"""Writes the order in which the linker lays out dynapage's functions (issue #36, start-up).

A page fault on the executable's code maps the 64 KiB around it (the kernel's fault-around); on a VM, where each
fault exits to the hypervisor, start-up's cost is mostly those faults. The compiler places functions in the order
of their source files, so the few thousand that start-up runs are spread over most of the 10 MB of code: 7 MB of it
was resident at the first answer. Listed first, in one run, they fill a few hundred KB.

This runs the server under callgrind twice, from start to exit:

  start-up   start, one ListTables answered, stop
  requests   start, the instruction guard's workloads (CreateTable, BatchWriteItem, Query pages with and without a
             filter, no-op ListTables) and a Scan, stop

and writes the functions of the first run, then those only the second one ran, one mangled name per line, to
scripts/code_order.txt, which CMakeLists.txt gives the linker (lld's --symbol-ordering-file). The list ages as the
code changes: a function it does not name is laid out after the named ones, as the compiler placed it, and a name
that no longer exists is ignored; regenerate it when start-up's page faults grow (bench/run.py --phases startup).

  python3 bench/code_order.py --binary build-release/dynapage          # write scripts/code_order.txt
  python3 bench/code_order.py --check build/dynapage                   # is the executable laid out in that order?

--check (scripts/test.sh) fails unless at least 70% of the start-up functions the executable has follow one
another in the order the list gives: the link took the order. In the compiler's order about 45% do, by chance; laid
out, 97% with the release RocksDB (DYNAPAGE_ROCKSDB=release, built with -ffunction-sections) and 78% with Debian's
librocksdb.a, whose functions move with their whole source file, in that file's order.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import instruction_guard as guard  # noqa: E402  (its client and workloads)

ORDER_FILE = os.path.join(os.path.dirname(HERE), "scripts", "code_order.txt")
START_UP_CHECKED = 1500  # the first names of the list --check looks at (start-up's are the first ~2,000)
IN_ORDER_NEEDED = 0.7


def first_answer(client):
    client.call("ListTables", {})


def requests(client):
    guard.setup(client)
    guard.load(client)
    for workload in (guard.query, guard.filtered):
        workload(client)
    client.call("Scan", {"TableName": "bench", "Limit": 100, "FilterExpression": "#c < :z",
                         "ExpressionAttributeNames": {"#c": "count"}, "ExpressionAttributeValues": {":z": {"N": "0"}}})
    client.call("Scan", {"TableName": "bench"})
    client.call("GetItem", {"TableName": "bench", "Key": {"pk": {"S": "p0"}, "sk": {"N": "1"}}})
    client.call("PutItem", {"TableName": "bench", "Item": guard.item("p9", 1)})
    client.call("DescribeTable", {"TableName": "bench"})
    for _ in range(10):
        client.call("ListTables", {}, access_key="EMPTY")


def functions_run(binary, workload):
    """The mangled names of the functions the server ran, start to exit, serving workload."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        guard.serve_under_valgrind(["--tool=callgrind", "--demangle=no", "--callgrind-out-file=" + out], binary,
                                   [workload])
        names = {}
        ran = []
        seen = set()
        # Callgrind names a function once, "fn=(id) name", and by its id alone after that.
        for line in open(out):
            match = re.match(r"^c?fn=\((\d+)\)(?: (.+))?$", line.rstrip("\n"))
            if not match:
                continue
            if match.group(2):
                names[match.group(1)] = re.sub(r"'\d+$", "", match.group(2))  # "'2": a recursion level
            name = names.get(match.group(1))
            if name and not name.startswith("0x") and name not in seen:
                seen.add(name)
                ran.append(name)
        return ran


def laid_out_in_order(binary, order):
    """Of the functions in order that binary has, the share that come after the one listed before them."""
    address = {}
    listing = subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    for line in listing.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[1] in "tTwW":
            address.setdefault(fields[2], int(fields[0], 16))
    placed = [address[name] for name in order if name in address]
    if len(placed) < 2:
        return 0.0, len(placed)
    following = sum(1 for earlier, later in zip(placed, placed[1:]) if later >= earlier)
    return following / (len(placed) - 1), len(placed)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default="build-release/dynapage")
    parser.add_argument("--out", default=ORDER_FILE)
    parser.add_argument("--check", metavar="BINARY", help="check that BINARY is laid out in the order of --out")
    args = parser.parse_args()
    if args.check:
        with open(args.out) as f:
            order = [line.strip() for line in f if line.strip()]
        in_order, found = laid_out_in_order(args.check, order[:START_UP_CHECKED])
        verdict = "ok" if in_order >= IN_ORDER_NEEDED else "FAILED: the link did not take the order (lld?)"
        print("code order: %.1f%% of %d listed functions of %s in order: %s" % (in_order * 100, found, args.check,
                                                                                 verdict))
        return 0 if in_order >= IN_ORDER_NEEDED else 1
    start_up = functions_run(args.binary, first_answer)
    seen = set(start_up)
    later = [name for name in functions_run(args.binary, requests) if name not in seen]
    with open(args.out, "w") as f:
        for name in start_up + later:
            f.write(name + "\n")
    print("code order: %d functions of start-up, then %d of requests, in %s" % (len(start_up), len(later), args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
