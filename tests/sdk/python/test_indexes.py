"""Secondary indexes through boto3 (issue 5): paginators over a GSI and an LSI whose entries tie on the index key.

`indexed` is a module-scoped server (default 1 MB pages, and --max-page-bytes 1024) holding 3000 items that all share
one GSI partition and sort value (g = "G", t = 1) and, within each of two table partitions, one LSI sort value
(l = "same"). Ties are broken by the table key, so "index order" is table-key order: every paginator must return every
item exactly once, in that order, page after page (Limit 7, or the small page size). The other tests start servers of
their own: an index created by UpdateTable on a populated table, and an index that outlives a restart.
"""

import collections

import pytest
from botocore.exceptions import ClientError

from conftest import Dynapage
from sdk_paging import assert_exactly_once

TABLE = "ties"
ITEM_COUNT = 3000
PARTITIONS = 2

CONFIGS = [((), "default-1MB-pages"), (("--max-page-bytes", "1024"), "max-page-bytes-1024")]

TABLE_DEFINITION = {
    "TableName": TABLE,
    "BillingMode": "PAY_PER_REQUEST",
    "AttributeDefinitions": [
        {"AttributeName": "pk", "AttributeType": "S"},
        {"AttributeName": "sk", "AttributeType": "N"},
        {"AttributeName": "g", "AttributeType": "S"},
        {"AttributeName": "t", "AttributeType": "N"},
        {"AttributeName": "l", "AttributeType": "S"},
    ],
    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
    "GlobalSecondaryIndexes": [
        {
            "IndexName": "by_g",
            "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}, {"AttributeName": "t", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "KEYS_ONLY"},
        }
    ],
    "LocalSecondaryIndexes": [
        {
            "IndexName": "by_l",
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "l", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["pad"]},
        }
    ],
}


def item(i):
    return {"pk": f"p{i % PARTITIONS}", "sk": i, "g": "G", "t": 1, "l": "same", "pad": f"{i}:".ljust(24, "x")}


# Table-key order: pk bytes, then sk numerically.
ALL_IN_INDEX_ORDER = sorted(((f"p{i % PARTITIONS}", i) for i in range(ITEM_COUNT)))


def keys_of(pages):
    """(pk, sk) of every item, in order, and the number of pages."""
    keys, count = [], 0
    for page in pages:
        count += 1
        keys += [(it["pk"]["S"], int(it["sk"]["N"])) for it in page["Items"]]
    return keys, count


def page_config(server_args, limit):
    """Limit 7 on the default server; no Limit (the page size decides) on the small-page server."""
    return {"PageSize": limit} if limit else {}


@pytest.fixture(scope="module", params=CONFIGS, ids=lambda c: c[1])
def indexed(request, tmp_path_factory):
    args, name = request.param
    server = Dynapage(list(args), str(tmp_path_factory.mktemp(f"indexes-{name}") / "dynapage.log"))
    try:
        client = server.client()
        client.create_table(**TABLE_DEFINITION)
        resource = server.resource()
        with resource.Table(TABLE).batch_writer() as writer:
            for i in range(ITEM_COUNT):
                writer.put_item(Item=item(i))
        resource.meta.client.close()
        server.small_pages = bool(args)
        yield server, client
        client.close()
        code, _ = server.stop()
        assert code == 0, server.stderr()
    finally:
        server.kill()


@pytest.mark.parametrize("forward", [True, False], ids=["forward", "reversed"])
def test_gsi_query_paginator_through_3000_ties(indexed, forward):
    server, client = indexed
    limit = None if server.small_pages else 7
    pages = client.get_paginator("query").paginate(
        TableName=TABLE,
        IndexName="by_g",
        KeyConditionExpression="g = :g AND t = :t",
        ExpressionAttributeValues={":g": {"S": "G"}, ":t": {"N": "1"}},
        ScanIndexForward=forward,
        PaginationConfig=page_config(server, limit),
    )
    keys, count = keys_of(pages)
    assert_exactly_once(keys, ALL_IN_INDEX_ORDER, "GSI query paginator")
    assert keys == (ALL_IN_INDEX_ORDER if forward else ALL_IN_INDEX_ORDER[::-1])
    assert count >= (ITEM_COUNT // 7 if limit else 20)


def test_gsi_last_evaluated_key_holds_index_and_table_keys(indexed):
    _, client = indexed
    page = client.query(
        TableName=TABLE,
        IndexName="by_g",
        Limit=7,
        KeyConditionExpression="g = :g",
        ExpressionAttributeValues={":g": {"S": "G"}},
    )
    assert page["LastEvaluatedKey"] == {"g": {"S": "G"}, "t": {"N": "1"}, "pk": {"S": "p0"}, "sk": {"N": "12"}}
    assert page["Items"][-1] == page["LastEvaluatedKey"]  # KEYS_ONLY: an entry is exactly its keys


@pytest.mark.parametrize("forward", [True, False], ids=["forward", "reversed"])
def test_lsi_query_paginator_through_ties(indexed, forward):
    server, client = indexed
    limit = None if server.small_pages else 7
    for p in range(PARTITIONS):
        pages = client.get_paginator("query").paginate(
            TableName=TABLE,
            IndexName="by_l",
            KeyConditionExpression="pk = :p AND l = :l",
            ExpressionAttributeValues={":p": {"S": f"p{p}"}, ":l": {"S": "same"}},
            ScanIndexForward=forward,
            PaginationConfig=page_config(server, limit),
        )
        keys, count = keys_of(pages)
        expected = [k for k in ALL_IN_INDEX_ORDER if k[0] == f"p{p}"]
        assert keys == (expected if forward else expected[::-1])
        assert count >= (len(expected) // 7 if limit else 10)


def test_lsi_pages_carry_the_index_sort_key(indexed):
    _, client = indexed
    page = client.query(
        TableName=TABLE,
        IndexName="by_l",
        Limit=3,
        KeyConditionExpression="pk = :p",
        ExpressionAttributeValues={":p": {"S": "p1"}},
    )
    assert page["LastEvaluatedKey"] == {"pk": {"S": "p1"}, "sk": {"N": "5"}, "l": {"S": "same"}}
    assert set(page["Items"][0]) == {"pk", "sk", "l", "pad"}  # the projection, not the whole item
    full = client.query(
        TableName=TABLE,
        IndexName="by_l",
        Limit=1,
        Select="ALL_ATTRIBUTES",
        KeyConditionExpression="pk = :p",
        ExpressionAttributeValues={":p": {"S": "p1"}},
    )
    assert set(full["Items"][0]) == {"pk", "sk", "l", "pad", "g", "t"}


@pytest.mark.parametrize("index", ["by_g", "by_l"])
def test_index_scan_paginator_and_parallel_segments(indexed, index):
    server, client = indexed
    config = page_config(server, None if server.small_pages else 7)
    keys, _ = keys_of(client.get_paginator("scan").paginate(TableName=TABLE, IndexName=index, PaginationConfig=config))
    assert_exactly_once(keys, ALL_IN_INDEX_ORDER, f"scan of {index}")
    keys = []
    for segment in range(3):
        part, _ = keys_of(
            client.get_paginator("scan").paginate(
                TableName=TABLE, IndexName=index, Segment=segment, TotalSegments=3, PaginationConfig={"PageSize": 100}
            )
        )
        keys += part
    assert_exactly_once(keys, ALL_IN_INDEX_ORDER, f"parallel scan of {index}")


def test_index_read_errors_are_dynamodb_errors(indexed):
    _, client = indexed
    with pytest.raises(ClientError) as error:
        client.query(
            TableName=TABLE,
            IndexName="by_g",
            ConsistentRead=True,
            KeyConditionExpression="g = :g",
            ExpressionAttributeValues={":g": {"S": "G"}},
        )
    assert error.value.response["Error"] == {
        "Code": "ValidationException",
        "Message": "Consistent reads are not supported on global secondary indexes",
    }
    with pytest.raises(ClientError) as error:
        client.scan(TableName=TABLE, IndexName="by_g", Select="ALL_ATTRIBUTES")
    assert error.value.response["Error"]["Message"] == (
        "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global "
        "secondary index by_g because its projection type is not ALL"
    )


# --- UpdateTable --------------------------------------------------------------------------------------------------


def create_plain_table(client, name):
    client.create_table(
        TableName=name,
        BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[
            {"AttributeName": "pk", "AttributeType": "S"},
            {"AttributeName": "sk", "AttributeType": "N"},
        ],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
    )


CREATE_BY_CAT = {
    "AttributeDefinitions": [
        {"AttributeName": "cat", "AttributeType": "S"},
        {"AttributeName": "rank", "AttributeType": "N"},
    ],
    "GlobalSecondaryIndexUpdates": [
        {
            "Create": {
                "IndexName": "by_cat",
                "KeySchema": [
                    {"AttributeName": "cat", "KeyType": "HASH"},
                    {"AttributeName": "rank", "KeyType": "RANGE"},
                ],
                "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["note"]},
            }
        }
    ],
}


def wait_for_index(client, table, index):
    """Polls DescribeTable as tools do until the index is ACTIVE; returns its description."""
    for _ in range(50):
        described = client.describe_table(TableName=table)["Table"]
        for gsi in described.get("GlobalSecondaryIndexes", []):
            if gsi["IndexName"] == index and gsi["IndexStatus"] == "ACTIVE":
                return gsi
    raise AssertionError(f"index {index} never became ACTIVE")


def test_update_table_creates_index_on_populated_table(dynapage):
    client = dynapage.client()
    create_plain_table(client, "populated")
    table = dynapage.resource().Table("populated")
    expected = collections.defaultdict(list)
    with table.batch_writer() as writer:
        for i in range(1500):
            entry = {"pk": f"p{i % 13}", "sk": i, "note": f"n{i}", "other": "x" * 50}
            if i % 4:  # every fourth item lacks the index keys: a sparse index
                entry.update(cat=f"c{i % 3}", rank=i % 10)
                expected[f"c{i % 3}"].append((i % 10, f"p{i % 13}", i))
            writer.put_item(Item=entry)

    response = client.update_table(TableName="populated", **CREATE_BY_CAT)
    assert response["TableDescription"]["TableStatus"] == "ACTIVE"
    gsi = wait_for_index(client, "populated", "by_cat")
    assert gsi["ItemCount"] == sum(len(v) for v in expected.values())
    assert gsi["Projection"] == {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["note"]}

    for cat, entries in expected.items():
        pages = client.get_paginator("query").paginate(
            TableName="populated",
            IndexName="by_cat",
            KeyConditionExpression="cat = :c",
            ExpressionAttributeValues={":c": {"S": cat}},
            PaginationConfig={"PageSize": 9},
        )
        keys, _ = keys_of(pages)
        assert keys == [(pk, sk) for _, pk, sk in sorted(entries)]
    items = [it for page in client.get_paginator("scan").paginate(TableName="populated", IndexName="by_cat") for it in page["Items"]]
    assert len(items) == gsi["ItemCount"]
    assert all(set(it) == {"pk", "sk", "cat", "rank", "note"} for it in items)

    # Maintained from now on; deleting it leaves the table as it was.
    table.put_item(Item={"pk": "new", "sk": 1, "cat": "c0", "rank": -5})
    first = client.query(
        TableName="populated",
        IndexName="by_cat",
        Limit=1,
        KeyConditionExpression="cat = :c",
        ExpressionAttributeValues={":c": {"S": "c0"}},
    )
    assert first["Items"][0]["pk"] == {"S": "new"}
    client.update_table(TableName="populated", GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": "by_cat"}}])
    described = client.describe_table(TableName="populated")["Table"]
    assert "GlobalSecondaryIndexes" not in described
    assert [d["AttributeName"] for d in described["AttributeDefinitions"]] == ["pk", "sk"]
    assert described["ItemCount"] == 1501


def test_index_created_by_update_table_survives_restart(start_dynapage, tmp_path):
    data = str(tmp_path / "data")
    server = start_dynapage("--db-path", data)
    client = server.client()
    create_plain_table(client, "kept")
    for i in range(40):
        client.put_item(
            TableName="kept",
            Item={"pk": {"S": "a"}, "sk": {"N": str(i)}, "cat": {"S": "c"}, "rank": {"N": str(40 - i)}},
        )
    client.update_table(TableName="kept", **CREATE_BY_CAT)
    client.close()
    assert server.stop()[0] == 0

    server = start_dynapage("--db-path", data)
    client = server.client()
    gsi = wait_for_index(client, "kept", "by_cat")
    assert gsi["ItemCount"] == 40
    client.put_item(TableName="kept", Item={"pk": {"S": "b"}, "sk": {"N": "0"}, "cat": {"S": "c"}, "rank": {"N": "0"}})
    pages = client.get_paginator("query").paginate(
        TableName="kept",
        IndexName="by_cat",
        KeyConditionExpression="cat = :c",
        ExpressionAttributeValues={":c": {"S": "c"}},
        PaginationConfig={"PageSize": 6},
    )
    keys, _ = keys_of(pages)
    assert keys == [("b", 0)] + [("a", i) for i in range(39, -1, -1)]
    client.close()
