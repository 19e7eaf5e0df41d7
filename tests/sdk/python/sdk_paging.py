"""Shared by the SDK paging tests (test_sdk_boto3.py, test_sdk_awscli.py): a multi-page table in a server of its own.

`paged` is a module-scoped fixture, parametrized over two server configurations: the default 1 MB page with 3000
items of ~1.1 KB (about 3.4 MB: 4+ Scan pages, 2 Query pages per partition), and --max-page-bytes 4096 with 3000
items of ~45 bytes (about 27 Scan pages, 9 per partition). The table is loaded once per module and configuration,
through boto3's resource API and its batch_writer, and the tests only read it.
"""

import collections
from dataclasses import dataclass

import pytest

from conftest import Dynapage

TABLE = "sdk_paging"
ITEM_COUNT = 3000
PARTITIONS = 3
ALL_KEYS = list(range(ITEM_COUNT))


@dataclass(frozen=True)
class Config:
    name: str
    args: tuple
    pad: int  # length of each item's "pad" string
    min_scan_pages: int  # lower bounds that prove a client really had to follow LastEvaluatedKey
    min_query_pages: int


CONFIGS = [
    Config("default-1MB-pages", (), 1100, 4, 2),
    Config("max-page-bytes-4096", ("--max-page-bytes", "4096"), 20, 20, 8),
]

TABLE_DEFINITION = {
    "TableName": TABLE,
    "AttributeDefinitions": [
        {"AttributeName": "pk", "AttributeType": "S"},
        {"AttributeName": "sk", "AttributeType": "N"},
    ],
    "KeySchema": [
        {"AttributeName": "pk", "KeyType": "HASH"},
        {"AttributeName": "sk", "KeyType": "RANGE"},
    ],
    "BillingMode": "PAY_PER_REQUEST",
}


def plain_item(i, pad):
    """Item i: pk "p<i % 3>", sk i, grp i % 7 (for filters), and a pad string of the configured length."""
    return {"pk": f"p{i % PARTITIONS}", "sk": i, "grp": i % 7, "pad": f"{i}:".ljust(pad, "x")}


def partition_keys(p):
    """The sort keys of partition p, ascending."""
    return list(range(p, ITEM_COUNT, PARTITIONS))


def assert_exactly_once(seen, expected, what):
    """seen (sort keys, as received) holds every key of expected exactly once, and nothing else."""
    counts = collections.Counter(seen)
    duplicates = sorted(k for k, n in counts.items() if n > 1)
    missing = sorted(set(expected) - set(counts))
    extra = sorted(set(counts) - set(expected))
    assert (duplicates[:10], missing[:10], extra[:10]) == ([], [], []), (
        f"{what}: {len(seen)} items for {len(expected)} expected "
        f"(duplicates {len(duplicates)}, missing {len(missing)}, extra {len(extra)})"
    )
    assert len(seen) == len(expected), what


class Paged:
    """The loaded server and its configuration; client() and resource() are closed when the module is done."""

    def __init__(self, server, config):
        self.server = server
        self.config = config
        self._clients = []

    def client(self):
        client = self.server.client()
        self._clients.append(client)
        return client

    def resource(self):
        resource = self.server.resource()
        self._clients.append(resource.meta.client)
        return resource

    def close_clients(self):
        for client in self._clients:
            client.close()


@pytest.fixture(scope="module", params=CONFIGS, ids=lambda config: config.name)
def paged(request, tmp_path_factory):
    """A dynapage (with the configuration's flags) whose table TABLE holds the ITEM_COUNT items."""
    config = request.param
    log = tmp_path_factory.mktemp(f"dynapage-{config.name}") / "dynapage.log"
    server = Dynapage(list(config.args), str(log))
    try:
        client = server.client()
        client.create_table(**TABLE_DEFINITION)
        resource = server.resource()
        with resource.Table(TABLE).batch_writer() as writer:  # 120 BatchWriteItem calls
            for i in range(ITEM_COUNT):
                writer.put_item(Item=plain_item(i, config.pad))
        resource.meta.client.close()
        # The premise of every paging test: a Scan and a Query need more than one page here.
        assert "LastEvaluatedKey" in client.scan(TableName=TABLE), "a Scan fits in one page"
        first = client.query(
            TableName=TABLE,
            KeyConditionExpression="pk = :p",
            ExpressionAttributeValues={":p": {"S": "p0"}},
        )
        assert "LastEvaluatedKey" in first, "a Query fits in one page"
        client.close()
        loaded = Paged(server, config)
        yield loaded
        loaded.close_clients()
        code, _ = server.stop()
        assert code == 0, server.stderr()
    finally:
        server.kill()
