"""An in-memory dynapage gives deleted data back (issue 19, item 6), with generous bounds: the test asserts that
memory comes back, not how fast. tests/reliability/memory_figures.py prints the full figures (300,000 items).
"""

import os
import time

import pytest
from dynapage_client import Server
from memory_figures import delete_all, fill

MB = 1 << 20
ITEMS = 60000  # ~60 MB of items: about one memtable and a table file

# Under AddressSanitizer (the checked build) freed memory waits in the sanitizer's quarantine instead of going back
# to the system, so what these tests measure is the sanitizer's, not dynapage's.
pytestmark = pytest.mark.skipif(os.environ.get("DYNAPAGE_SANITIZED") == "1",
                                reason="RSS under AddressSanitizer measures its quarantine")


def rss_within(server, limit, seconds):
    deadline = time.monotonic() + seconds
    while True:
        rss = server.rss_bytes()
        if rss < limit or time.monotonic() > deadline:
            return rss
        time.sleep(0.5)


def test_deleted_items_and_tables_are_given_back():
    server = Server()
    try:
        client = server.client()
        client.create_table("memory")
        fill(client, "memory", ITEMS, "x" * 1000)
        full = server.rss_bytes()
        assert full > 60 * MB
        # RocksDB's flush and compaction threads start with their first job (engine/storage/lazy_threads_env.h):
        # a memtable not yet full has had none.
        assert not [name for name in server.thread_names() if name.startswith("rocksdb:")], server.thread_names()
        delete_all(client, "memory", ITEMS)
        rss = rss_within(server, 40 * MB, 20)
        assert rss < 40 * MB, f"RSS {rss / MB:.0f} MB after deleting every item (was {full / MB:.0f} MB)"
        assert "rocksdb:high" in server.thread_names()  # the reclaim's flush ran on it

        fill(client, "memory", ITEMS, "x" * 1000)
        client.ok("DeleteTable", {"TableName": "memory"})
        rss = rss_within(server, 40 * MB, 20)
        assert rss < 40 * MB, f"RSS {rss / MB:.0f} MB after deleting the table"
    finally:
        server.kill()


def test_table_cycles_keep_no_memory():
    server = Server()
    try:
        client = server.client()
        for i in range(50):
            client.create_table(f"warm{i}")
            client.ok("DeleteTable", {"TableName": f"warm{i}"})
        before = server.rss_bytes()
        for i in range(1000):
            client.create_table(f"cycle{i}")
            client.ok("DeleteTable", {"TableName": f"cycle{i}"})
        grown = server.rss_bytes() - before
        assert grown < 4 * MB, f"1,000 CreateTable/DeleteTable cycles grew RSS by {grown / MB:.1f} MB"
    finally:
        server.kill()
