"""Many namespaces in one store (issue 35, item 1): with --db-path every namespace (access key + region) lives in
the folder's one RocksDB, so 10,000 access keys each creating a table and writing an item work under
`ulimit -n 1024`, with a thread count that does not grow with the namespaces; in memory the same holds, in a
bounded RSS. Namespaces survive a restart; a folder written by dynapage 0.1.0 (one database per namespace) opens
and is migrated once; a second process on the same folder is refused.

Raw HTTP with signed-looking Authorization headers (signatures are not checked), over a few keep-alive
connections, so that 20,000 requests take seconds.
"""

import http.client
import json
import os
import resource
import shutil
import subprocess
import tarfile
import tempfile
import threading
import time

import pytest
from dynapage_client import Server, binary
from namespace_client import NamespaceClient

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "data", "dynapage-0.1.0-folder.tar.gz")
MB = 1 << 20
STREAMS = "DynamoDBStreams_20120810"
TABLE = "per_key"
NAMESPACES = int(os.environ.get("DYNAPAGE_TEST_NAMESPACES", "10000"))  # fewer: to try an old binary
CONNECTIONS = 4
# Threads of the server besides one per open connection: main (which also takes the signals), the TTL sweeper, the
# space reclaimer, RocksDB's timer and background threads (3 measured with the clients gone, before any flush; 6
# before 2026-11-29). 12, as margin: what matters is that it does not grow with the namespaces (dynapage 0.1.0 had a
# thread per namespace).
FIXED_THREADS = 12


def limit_open_files():
    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))


def access_key(i):
    return f"AKIANS{i:014d}"


def fill_namespaces(port, count):
    """Each of count access keys creates table TABLE and puts one item, over CONNECTIONS connections."""
    errors = []

    def work(first):
        try:
            client = NamespaceClient(port, "unused")
            for i in range(first, count, CONNECTIONS):
                client.authorization = NamespaceClient(port, access_key(i)).authorization
                client.create_table(TABLE)
                client.ok("PutItem", {"TableName": TABLE, "Item": {"id": {"S": f"item-{i}"}}})
            client.close()
        except Exception as error:  # noqa: BLE001 - reported by the test
            errors.append(error)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(CONNECTIONS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors[0]


def item_of(port, i):
    client = NamespaceClient(port, access_key(i))
    answer = client.ok("GetItem", {"TableName": TABLE, "Key": {"id": {"S": f"item-{i}"}}})
    client.close()
    return answer.get("Item")


@pytest.fixture
def folder():
    path = tempfile.mkdtemp(prefix="dynapage-namespaces-")
    yield os.path.join(path, "data")
    shutil.rmtree(path, ignore_errors=True)


def test_ten_thousand_namespaces_on_disk_under_1024_open_files(folder):
    server = Server("--db-path", folder, preexec_fn=limit_open_files)
    try:
        start = time.monotonic()
        fill_namespaces(server.port, NAMESPACES)
        elapsed = time.monotonic() - start
        threads, files = server.threads(), server.open_files()
        assert threads <= FIXED_THREADS + CONNECTIONS, f"{threads} threads for {NAMESPACES} namespaces"
        assert files < 512, f"{files} open files for {NAMESPACES} namespaces"
        # The folder is one store: no folder per namespace.
        assert not [name for name in os.listdir(folder) if os.path.isdir(os.path.join(folder, name))]
        assert server.stop() == 0
        print(f"{NAMESPACES} namespaces in {elapsed:.1f} s; {threads} threads, {files} open files")

        # A restart keeps every namespace: a sample of them, and the last.
        server = Server("--db-path", folder, preexec_fn=limit_open_files)
        for i in list(range(0, NAMESPACES, 97)) + [NAMESPACES - 1]:
            assert item_of(server.port, i) == {"id": {"S": f"item-{i}"}}, f"namespace {i} lost its item"
        other = NamespaceClient(server.port, access_key(NAMESPACES))
        assert other.ok("ListTables", {})["TableNames"] == []  # a new key is a new, empty namespace
    finally:
        server.kill()


def test_a_started_server_runs_three_threads():
    # Before any connection: main (whose accept loop also takes SIGINT and SIGTERM), the TTL sweeper and RocksDB's
    # timer. No signal watcher, and RocksDB's flush and compaction threads only with their first job: each thread
    # is a stack and a malloc arena that start-up would pay for before the first answer.
    server = Server()
    try:
        assert server.threads() == 3, server.thread_names()
    finally:
        assert server.stop() == 0


@pytest.mark.skipif(os.environ.get("DYNAPAGE_SANITIZED") == "1",
                    reason="RSS under AddressSanitizer measures its quarantine")
def test_ten_thousand_namespaces_in_memory_are_bounded():
    server = Server()
    try:
        before = server.rss_bytes()
        fill_namespaces(server.port, NAMESPACES)
        rss, threads = server.rss_bytes(), server.threads()
        print(f"in memory: RSS {before / MB:.0f} MB -> {rss / MB:.0f} MB for {NAMESPACES} namespaces; "
              f"{threads} threads")
        assert rss - before < 200 * MB, f"{(rss - before) / MB:.0f} MB for {NAMESPACES} namespaces"
        assert threads <= FIXED_THREADS + CONNECTIONS, f"{threads} threads for {NAMESPACES} namespaces"
        assert item_of(server.port, 1234) == {"id": {"S": "item-1234"}}
    finally:
        server.kill()


def query_status(client, status):
    answer = client.ok("Query", {"TableName": "orders", "IndexName": "by_status",
                                 "KeyConditionExpression": "#s = :s", "ExpressionAttributeNames": {"#s": "status"},
                                 "ExpressionAttributeValues": {":s": {"S": status}}})
    return sorted(int(item["sk"]["N"]) for item in answer["Items"])


def stream_records(client, table):
    arn = client.ok("DescribeTable", {"TableName": table})["Table"]["LatestStreamArn"]
    shard = client.ok("DescribeStream", {"StreamArn": arn}, STREAMS)["StreamDescription"]["Shards"][0]["ShardId"]
    iterator = client.ok("GetShardIterator", {"StreamArn": arn, "ShardId": shard,
                                                      "ShardIteratorType": "TRIM_HORIZON"}, STREAMS)["ShardIterator"]
    return client.ok("GetRecords", {"ShardIterator": iterator}, STREAMS)["Records"]


# The time of the fixture's commit (ac8026e, 2026-11-27 18:29:09 UTC): every record it holds was written before it.
FIXTURE_WRITTEN_MS = 1795804149000


def set_clock(port, body):
    """POST /_dynapage/clock?scope=all: sets, or resets, the server's clock for every namespace."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("POST", "/_dynapage/clock?scope=all", json.dumps(body), {"Content-Type": "application/json"})
        answer = conn.getresponse()
        assert answer.status == 200, answer.read()
        answer.read()
    finally:
        conn.close()


def check_fixture_data(port):
    """What make_010_fixture.py wrote, all there."""
    main = NamespaceClient(port, "AKIAFIXTUREAAAAAAAAA", "us-east-1")
    assert main.ok("ListTables", {})["TableNames"] == ["orders"]
    table = main.ok("DescribeTable", {"TableName": "orders"})["Table"]
    assert table["ItemCount"] == 10
    assert table["GlobalSecondaryIndexes"][0]["IndexName"] == "by_status"
    assert table["StreamSpecification"] == {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"}
    ttl = main.ok("DescribeTimeToLive", {"TableName": "orders"})["TimeToLiveDescription"]
    assert ttl == {"TimeToLiveStatus": "ENABLED", "AttributeName": "expires"}
    assert query_status(main, "open") == [1, 3, 5, 7, 9]
    assert query_status(main, "shipped") == [0, 2, 4, 6, 8]
    item = main.ok("GetItem", {"TableName": "orders", "Key": {"pk": {"S": "customer1"}, "sk": {"N": "4"}}})["Item"]
    assert item["status"] == {"S": "shipped"} and item["expires"] == {"N": "4102444800"}
    # The fixture's stream records were written on 2026-11-27, and records older than 24 hours count as trimmed:
    # they are read with the server's clock at the fixture's day (docs/streams-and-ttl.md, the settable clock).
    set_clock(port, {"set_epoch_ms": FIXTURE_WRITTEN_MS + 3600 * 1000})
    try:
        records = stream_records(main, "orders")
    finally:
        set_clock(port, {"reset": True})
    assert [r["eventName"] for r in records] == ["INSERT"] * 10
    for key in ["AKIAFIXTUREAAAAAAAAA", "AKIAFIXTUREBBBBBBBBB"]:
        for region in ["us-east-1", "eu-west-1"]:
            if (key, region) == ("AKIAFIXTUREAAAAAAAAA", "us-east-1"):
                continue
            client = NamespaceClient(port, key, region)
            name = f"t_{key[-1]}_{region}"
            assert client.ok("ListTables", {})["TableNames"] == [name]
            items = client.ok("Scan", {"TableName": name})["Items"]
            assert sorted(i["id"]["S"] for i in items) == [f"{region}-{n}" for n in range(3)]
    # A table made now gets keyspaces of its own: its items do not show up in the migrated tables.
    main.ok("CreateTable", {"TableName": "after", "BillingMode": "PAY_PER_REQUEST",
                            "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
                            "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}]})
    main.ok("PutItem", {"TableName": "after", "Item": {"id": {"S": "new"}}})
    assert main.ok("DescribeTable", {"TableName": "orders"})["Table"]["ItemCount"] == 10
    main.ok("DeleteTable", {"TableName": "after"})


def test_a_010_folder_opens_and_is_migrated_once(folder):
    with tarfile.open(FIXTURE) as tar:
        tar.extractall(os.path.dirname(folder))
    log = tempfile.TemporaryFile()
    server = Server("--db-path", folder, stderr=log)
    try:
        check_fixture_data(server.port)
        assert not [n for n in os.listdir(folder) if n.endswith(".db")], "0.1.0 folders left after the migration"
        assert server.stop() == 0
        log.seek(0)
        assert b"migrated 4 namespace database(s) of dynapage 0.1.0" in log.read()

        log.seek(0)
        log.truncate()
        server = Server("--db-path", folder, stderr=log)
        check_fixture_data(server.port)
        assert server.stop() == 0
        log.seek(0)
        assert b"migrated" not in log.read(), "a second open migrated again"
    finally:
        server.kill()


def test_a_second_process_on_the_same_folder_is_refused(folder):
    server = Server("--db-path", folder)
    try:
        second = subprocess.run([binary(), "--host", "127.0.0.1", "--port", "0", "--db-path", folder],
                                capture_output=True, timeout=30, stdin=subprocess.DEVNULL)
        assert second.returncode != 0
        assert f"dynapage: {folder} is in use by another dynapage process".encode() in second.stderr, second.stderr
        # The first one is untouched.
        client = NamespaceClient(server.port, "AKIAFIRST")
        client.create_table("still_mine")
        assert client.ok("ListTables", {})["TableNames"] == ["still_mine"]
    finally:
        server.kill()
