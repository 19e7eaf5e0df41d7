"""Writes tests/reliability/data/dynapage-0.1.0-folder.tar.gz: a --db-path folder as dynapage 0.1.0 left it.

Run once with a 0.1.0 binary (the commit before the one-store layout, a6e55df):
    python3 tests/reliability/make_010_fixture.py /path/to/0.1.0/dynapage
The folder holds four namespaces (two access keys x two regions, 0.1.0's DIR/<AKID>_<region>.db folders); the
first has a table with a GSI, a stream and TTL, and items; the others a table each with a few items.
test_namespaces.py opens a copy with the current binary and checks everything is there.
"""

import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dynapage_client  # noqa: E402
from namespace_client import NamespaceClient  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "data", "dynapage-0.1.0-folder.tar.gz")
KEYS = ["AKIAFIXTUREAAAAAAAAA", "AKIAFIXTUREBBBBBBBBB"]
REGIONS = ["us-east-1", "eu-west-1"]


def fill(port):
    main = NamespaceClient(port, KEYS[0], REGIONS[0])
    main.ok("CreateTable", {
        "TableName": "orders", "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                 {"AttributeName": "sk", "AttributeType": "N"},
                                 {"AttributeName": "status", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
        "GlobalSecondaryIndexes": [{"IndexName": "by_status",
                                    "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"}],
                                    "Projection": {"ProjectionType": "ALL"}}],
        "StreamSpecification": {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"}})
    main.ok("UpdateTimeToLive", {"TableName": "orders",
                                 "TimeToLiveSpecification": {"Enabled": True, "AttributeName": "expires"}})
    for i in range(10):
        main.ok("PutItem", {"TableName": "orders", "Item": {
            "pk": {"S": f"customer{i % 3}"}, "sk": {"N": str(i)}, "status": {"S": "open" if i % 2 else "shipped"},
            "expires": {"N": "4102444800"}}})
    for key in KEYS:
        for region in REGIONS:
            if (key, region) == (KEYS[0], REGIONS[0]):
                continue
            client = NamespaceClient(port, key, region)
            table = f"t_{key[-1]}_{region}"
            client.create_table(table)
            for i in range(3):
                client.ok("PutItem", {"TableName": table, "Item": {"id": {"S": f"{region}-{i}"}}})


def main():
    os.environ["DYNAPAGE_BIN"] = sys.argv[1]
    work = tempfile.mkdtemp()
    folder = os.path.join(work, "data")
    server = dynapage_client.Server("--db-path", folder)
    try:
        fill(server.port)
    finally:
        server.proc.terminate()  # a clean stop: memtables flushed
        server.proc.wait()
    for root, _, files in os.walk(folder):
        for name in files:
            if name.startswith("LOG"):
                os.remove(os.path.join(root, name))  # RocksDB's info logs: not needed to open
    with tarfile.open(OUT, "w:gz") as tar:
        tar.add(folder, arcname="data")
    shutil.rmtree(work)
    print(OUT, os.path.getsize(OUT), "bytes")


if __name__ == "__main__":
    main()
