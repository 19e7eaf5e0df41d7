#!/usr/bin/env python3
"""Prints how much memory an in-memory dynapage gives back (issue 19, item 6): RSS after writing N items of 1 KB,
after deleting every item (then after the table is deleted), over the seconds that follow, and over create/delete
cycles of tables.

    DYNAPAGE_BIN=build/dynapage python3 tests/reliability/memory_figures.py [--items 300000] [--cycles 1000]
"""

import argparse
import time

from dynapage_client import Server

MB = 1 << 20


def fill(client, table, items, value):
    for start in range(0, items, 25):
        client.write_batch(table, [{"PutRequest": {"Item": {"id": {"S": f"item-{i:08d}"}, "v": {"S": value}}}}
                                   for i in range(start, min(start + 25, items))])


def delete_all(client, table, items):
    for start in range(0, items, 25):
        client.write_batch(table, [{"DeleteRequest": {"Key": {"id": {"S": f"item-{i:08d}"}}}}
                                   for i in range(start, min(start + 25, items))])


def watch(server, label, seconds):
    """Prints RSS every second for `seconds`."""
    start = time.monotonic()
    samples = []
    while True:
        elapsed = time.monotonic() - start
        samples.append((elapsed, server.rss_bytes()))
        if elapsed >= seconds:
            break
        time.sleep(1)
    print(f"  {label}: " + ", ".join(f"{t:.0f}s {r / MB:.0f}" for t, r in samples) + " MB")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--items", type=int, default=300000)
    parser.add_argument("--cycles", type=int, default=1000)
    parser.add_argument("--watch", type=int, default=10)
    args = parser.parse_args()

    server = Server()
    try:
        client = server.client()
        print(f"start: RSS {server.rss_bytes() / MB:.1f} MB")
        if args.items:
            items(server, client, args)
        cycles(server, client, args)
        client.close()
    finally:
        server.kill()


def items(server, client, args):
    value = "x" * 1000
    client.create_table("memory")
    t0 = time.monotonic()
    fill(client, "memory", args.items, value)
    print(f"wrote {args.items} items of 1 KB in {time.monotonic() - t0:.1f}s: RSS {server.rss_bytes() / MB:.1f} MB")
    t0 = time.monotonic()
    delete_all(client, "memory", args.items)
    print(f"deleted every item in {time.monotonic() - t0:.1f}s: RSS {server.rss_bytes() / MB:.1f} MB")
    watch(server, "after deleting every item", args.watch)
    fill(client, "memory", args.items, value)
    print(f"wrote them again: RSS {server.rss_bytes() / MB:.1f} MB")
    client.ok("DeleteTable", {"TableName": "memory"})
    print(f"deleted the table: RSS {server.rss_bytes() / MB:.1f} MB")
    watch(server, "after deleting the table", args.watch)


def cycles(server, client, args):
    for i in range(50):  # warm-up: thread, allocator and RocksDB structures of a first few tables
        client.create_table(f"warm{i}")
        client.ok("DeleteTable", {"TableName": f"warm{i}"})
    time.sleep(2)
    before = server.rss_bytes()
    for i in range(args.cycles):
        client.create_table(f"cycle{i}")
        client.ok("DeleteTable", {"TableName": f"cycle{i}"})
    time.sleep(2)
    after = server.rss_bytes()
    print(f"{args.cycles} CreateTable/DeleteTable cycles: RSS {before / MB:.1f} -> {after / MB:.1f} MB "
          f"({(after - before) / 1024 / max(args.cycles, 1):.1f} KB a cycle)")


if __name__ == "__main__":
    main()
