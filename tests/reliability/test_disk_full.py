"""A full disk, then space again, without a restart (issue 19): writes are refused while the disk is full, taken
again as soon as there is space, and no acknowledged write is lost, also across kill -9 and a restart.

The disk is a real tmpfs of 16 MB mounted for the test (root only: skipped where mounting is not allowed); space
is "freed" by growing it to 64 MB. 127.0.0.1 only, a few seconds.
"""

import os
import subprocess
import tempfile
import time

import pytest

from dynapage_client import Server


@pytest.fixture
def small_disk():
    mount_point = tempfile.mkdtemp(prefix="dynapage-full-disk-")
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", mount_point],
                             capture_output=True).returncode == 0
    if not mounted:
        os.rmdir(mount_point)
        pytest.skip("cannot mount a tmpfs here (needs root)")
    try:
        yield mount_point
    finally:
        subprocess.run(["umount", "-l", mount_point], capture_output=True)
        os.rmdir(mount_point)


def put(client, key, size):
    return client.call("PutItem", {"TableName": "fill", "Item": {"id": {"S": key}, "v": {"S": "x" * size}}})


def test_writes_come_back_once_space_is_freed_and_none_is_lost(small_disk):
    db = os.path.join(small_disk, "db")
    server = Server("--db-path", db)
    client = server.client()
    client.create_table("fill")
    acknowledged, refused = [], []
    i = 0
    while len(refused) < 10:
        key = f"k{i}"
        i += 1
        status, answer = put(client, key, 20000)
        if status == 200:
            acknowledged.append(key)
            continue
        assert status == 500, answer
        assert answer["__type"] == "com.amazonaws.dynamodb.v20120810#InternalServerError", answer
        assert "no space left on device" in answer["message"].lower(), answer
        refused.append(key)
        assert i < 5000, "the disk never filled"
    assert len(acknowledged) > 100

    subprocess.run(["mount", "-o", "remount,size=64m", small_disk], check=True)
    # The store resumes on the next write, at most once a second: within a few seconds writes are taken again.
    deadline = time.monotonic() + 5
    resumed = None
    j = 0
    while resumed is None and time.monotonic() < deadline:
        status, _ = put(client, f"after{j}", 10)
        if status == 200:
            resumed = f"after{j}"
        else:
            refused.append(f"after{j}")
            time.sleep(0.2)
        j += 1
    assert resumed is not None, "writes were still refused 5 s after space was freed"
    acknowledged.append(resumed)
    for k in range(50):
        status, answer = put(client, f"later{k}", 100)
        assert status == 200, answer
        acknowledged.append(f"later{k}")

    server.kill()  # kill -9
    server = Server("--db-path", db)
    client = server.client()
    for key in acknowledged:
        assert "Item" in client.ok("GetItem", {"TableName": "fill", "Key": {"id": {"S": key}}}), key
    for key in refused:
        assert "Item" not in client.ok("GetItem", {"TableName": "fill", "Key": {"id": {"S": key}}}), key
    server.kill()
