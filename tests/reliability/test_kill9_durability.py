"""kill -9 during writes with --db-path: every acknowledged write is there after a restart (issue 19, item 9).

A few rounds, each: start dynapage on a database directory, write from two client threads (PutItem and
BatchWriteItem, each item's value naming its round), kill -9 the server while they write, restart it on the same
directory and read every acknowledged item back. Bounded: ~3 s of writes a round. 127.0.0.1 only.
"""

import os
import threading
import time

import pytest

from dynapage_client import Server

ROUNDS = 4
WRITE_SECONDS = 2.5


def writer(port, name, acknowledged, stop):
    from dynapage_client import Client
    client = Client(port, timeout=10)
    n = 0
    try:
        while not stop.is_set():
            keys = [f"{name}-{n + i}" for i in range(25 if n % 2 else 1)]
            if len(keys) == 1:
                body = {"TableName": "durable", "Item": {"id": {"S": keys[0]}, "v": {"S": keys[0] * 8}}}
                status, _ = client.call("PutItem", body)
            else:
                requests = [{"PutRequest": {"Item": {"id": {"S": k}, "v": {"S": k * 8}}}} for k in keys]
                status, answer = client.call("BatchWriteItem", {"RequestItems": {"durable": requests}})
                if status == 200 and answer.get("UnprocessedItems"):
                    keys = []  # never happens in dynapage; counted as not acknowledged if it did
            if status == 200:
                acknowledged.extend(keys)
            n += len(keys) or 1
    except Exception:  # the server was killed: the write in flight is not acknowledged
        pass
    finally:
        client.close()


def test_kill9_loses_no_acknowledged_write(tmp_path):
    db_path = str(tmp_path / "db")
    acknowledged = []
    server = Server("--db-path", db_path)
    server.client().create_table("durable")
    try:
        for round_number in range(ROUNDS):
            stop = threading.Event()
            threads = [threading.Thread(target=writer, args=(server.port, f"r{round_number}w{w}", acknowledged, stop))
                       for w in range(2)]
            for t in threads:
                t.start()
            time.sleep(WRITE_SECONDS)
            server.kill()  # SIGKILL while the writers are writing
            stop.set()
            for t in threads:
                t.join(timeout=15)
            server = Server("--db-path", db_path)
        assert len(acknowledged) > 1000, "too few writes to mean anything"
        client = server.client()
        found = set()
        start_key = None
        while True:
            body = {"TableName": "durable", "ConsistentRead": True}
            if start_key:
                body["ExclusiveStartKey"] = start_key
            page = client.ok("Scan", body)
            for item in page["Items"]:
                key = item["id"]["S"]
                assert item["v"]["S"] == key * 8
                found.add(key)
            start_key = page.get("LastEvaluatedKey")
            if not start_key:
                break
        lost = [k for k in acknowledged if k not in found]
        assert not lost, f"{len(lost)} of {len(acknowledged)} acknowledged writes lost, e.g. {lost[:5]}"
    finally:
        server.kill()


def test_database_files_are_the_owners_only(tmp_path):
    db_path = str(tmp_path / "db")
    old = os.umask(0)
    try:
        server = Server("--db-path", db_path)
    finally:
        os.umask(old)
    try:
        client = server.client()
        client.create_table("private")
        client.ok("PutItem", {"TableName": "private", "Item": {"id": {"S": "secret"}}})
    finally:
        server.kill()
    assert os.stat(db_path).st_mode & 0o777 == 0o700
    # Each namespace's database is a subdirectory (docs/dynamodb-local.md): every directory 0700, every file 0600.
    files = 0
    for directory, subdirectories, names in os.walk(db_path):
        for name in subdirectories:
            assert os.stat(os.path.join(directory, name)).st_mode & 0o777 == 0o700, name
        for name in names:
            files += 1
            assert os.stat(os.path.join(directory, name)).st_mode & 0o777 == 0o600, name
    assert files
