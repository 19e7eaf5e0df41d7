"""Multi-attribute GSI keys through boto3 (issue 25, docs/multi-attribute-keys.md).

A GSI keyed [t HASH, r HASH, a RANGE, b RANGE, m RANGE] (S, N / N, S, B) over 1200 items that tie heavily on every
component. boto3's Query and Scan paginators, with PageSize 7 on the default server and with no PageSize under
--max-page-bytes 1024, must return every indexed item exactly once, in the index's order: the RANGE tuple, each
component by its own type, then the table key.

botocore models before November 2025 limit every KeySchema to 2 elements on the client, so the table is created
by a client that skips parameter validation; reading needs no such help.
"""

import itertools

import pytest
from botocore.exceptions import ClientError

from conftest import Dynapage
from sdk_paging import assert_exactly_once

TABLE = "multi"
ITEM_COUNT = 1200

CONFIGS = [((), "default-1MB-pages"), (("--max-page-bytes", "1024"), "max-page-bytes-1024")]

TS = ["x", "y"]
RS = [1, 2]
AS = [-2.5, 0, 7]
BS = ["a", "ab", "b"]
MS = [b"\x00", b"\x01", b"\x01\x00"]

TABLE_DEFINITION = {
    "TableName": TABLE,
    "BillingMode": "PAY_PER_REQUEST",
    "AttributeDefinitions": [
        {"AttributeName": "pk", "AttributeType": "S"},
        {"AttributeName": "sk", "AttributeType": "N"},
        {"AttributeName": "t", "AttributeType": "S"},
        {"AttributeName": "r", "AttributeType": "N"},
        {"AttributeName": "a", "AttributeType": "N"},
        {"AttributeName": "b", "AttributeType": "S"},
        {"AttributeName": "m", "AttributeType": "B"},
    ],
    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
    "GlobalSecondaryIndexes": [
        {
            "IndexName": "gsi",
            "KeySchema": [
                {"AttributeName": "t", "KeyType": "HASH"},
                {"AttributeName": "r", "KeyType": "HASH"},
                {"AttributeName": "a", "KeyType": "RANGE"},
                {"AttributeName": "b", "KeyType": "RANGE"},
                {"AttributeName": "m", "KeyType": "RANGE"},
            ],
            "Projection": {"ProjectionType": "ALL"},
        }
    ],
}


def components(i):
    """The (t, r, a, b, m) of item i; every 11th item lacks b and is not indexed."""
    return TS[i % 2], RS[(i // 2) % 2], AS[(i // 3) % 3], None if i % 11 == 0 else BS[(i // 5) % 3], MS[(i // 7) % 3]


def item(i):
    t, r, a, b, m = components(i)
    out = {
        "pk": {"S": f"p{i % 13}"},
        "sk": {"N": str(i)},
        "t": {"S": t},
        "r": {"N": str(r)},
        "a": {"N": str(a)},
        "m": {"B": m},
        "pad": {"S": "x" * 40},
    }
    if b is not None:
        out["b"] = {"S": b}
    return out


def index_order(t=None, r=None):
    """(pk, sk) of the indexed items of partition (t, r), or of all, in index order."""
    rows = []
    for i in range(ITEM_COUNT):
        ti, ri, a, b, m = components(i)
        if b is None or (t is not None and (ti, ri) != (t, r)):
            continue
        rows.append(((a, b.encode(), m, f"p{i % 13}".encode(), i), (f"p{i % 13}", i)))
    return [key for _, key in sorted(rows)]


def keys_of(pages):
    keys, count = [], 0
    for page in pages:
        count += 1
        keys += [(it["pk"]["S"], int(it["sk"]["N"])) for it in page["Items"]]
        if "LastEvaluatedKey" in page:
            assert set(page["LastEvaluatedKey"]) == {"t", "r", "a", "b", "m", "pk", "sk"}
    return keys, count


@pytest.fixture(scope="module", params=CONFIGS, ids=lambda c: c[1])
def multi(request, tmp_path_factory):
    args, name = request.param
    server = Dynapage(list(args), str(tmp_path_factory.mktemp(f"multi-{name}") / "dynapage.log"))
    try:
        creator = server.client(parameter_validation=False)
        creator.create_table(**TABLE_DEFINITION)
        creator.close()
        client = server.client()
        for start in range(0, ITEM_COUNT, 25):
            requests = [{"PutRequest": {"Item": item(i)}} for i in range(start, min(start + 25, ITEM_COUNT))]
            assert not client.batch_write_item(RequestItems={TABLE: requests}).get("UnprocessedItems")
        server.small_pages = bool(args)
        yield server, client
        client.close()
        code, _ = server.stop()
        assert code == 0, server.stderr()
    finally:
        server.kill()


def paging(server):
    return {} if server.small_pages else {"PageSize": 7}


def test_describe_table_keeps_the_submitted_key_schema(multi):
    _, client = multi
    index = client.describe_table(TableName=TABLE)["Table"]["GlobalSecondaryIndexes"][0]
    assert index["KeySchema"] == TABLE_DEFINITION["GlobalSecondaryIndexes"][0]["KeySchema"]
    assert index["ItemCount"] == len(index_order())


@pytest.mark.parametrize("forward", [True, False], ids=["forward", "reversed"])
def test_query_paginator_over_every_partition(multi, forward):
    server, client = multi
    for t, r in itertools.product(TS, RS):
        pages = client.get_paginator("query").paginate(
            TableName=TABLE,
            IndexName="gsi",
            KeyConditionExpression="r = :r AND t = :t",
            ExpressionAttributeValues={":t": {"S": t}, ":r": {"N": str(r)}},
            ScanIndexForward=forward,
            PaginationConfig=paging(server),
        )
        keys, count = keys_of(pages)
        expected = index_order(t, r)
        assert_exactly_once(keys, expected, f"query of ({t}, {r})")
        assert keys == (expected if forward else expected[::-1])
        assert count >= 10


def test_query_paginator_over_a_range_prefix(multi):
    server, client = multi
    pages = client.get_paginator("query").paginate(
        TableName=TABLE,
        IndexName="gsi",
        KeyConditionExpression="t = :t AND r = :r AND a = :a AND begins_with(b, :b)",
        ExpressionAttributeValues={":t": {"S": "x"}, ":r": {"N": "1"}, ":a": {"N": "0"}, ":b": {"S": "a"}},
        PaginationConfig=paging(server),
    )
    keys, _ = keys_of(pages)
    expected = [
        k for k in index_order("x", 1) if components(k[1])[2] == 0 and components(k[1])[3] in ("a", "ab")
    ]
    assert expected and keys == expected


def test_scan_paginators_cover_every_entry_once(multi):
    server, client = multi
    keys, _ = keys_of(
        client.get_paginator("scan").paginate(TableName=TABLE, IndexName="gsi", PaginationConfig=paging(server))
    )
    assert_exactly_once(keys, index_order(), "scan of g")
    keys = []
    for segment in range(3):
        part, _ = keys_of(
            client.get_paginator("scan").paginate(
                TableName=TABLE, IndexName="gsi", Segment=segment, TotalSegments=3, PaginationConfig={"PageSize": 50}
            )
        )
        keys += part
    assert_exactly_once(keys, index_order(), "parallel scan of g")


def test_query_rule_errors_are_validation_errors(multi):
    _, client = multi
    with pytest.raises(ClientError) as error:
        client.query(
            TableName=TABLE,
            IndexName="gsi",
            KeyConditionExpression="t = :t AND r = :r AND b = :b",
            ExpressionAttributeValues={":t": {"S": "x"}, ":r": {"N": "1"}, ":b": {"S": "a"}},
        )
    assert error.value.response["Error"] == {
        "Code": "ValidationException",
        "Message": "RANGE key attributes a must have equality conditions specified in the query because a condition "
        "is present on key attribute b",
    }
