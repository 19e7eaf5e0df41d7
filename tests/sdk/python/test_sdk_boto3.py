"""dynapage through boto3: client paginators (Query, Scan, MaxItems/StartingToken resumption, parallel segments) and
the resource API (Table.query / Table.scan loops on LastEvaluatedKey, batch_writer), on a multi-page table with the
default 1 MB page and with --max-page-bytes 4096 (see sdk_paging.py). Every item must come back exactly once, Query
results in key order, and a bad request must raise the SDK's typed exception.
"""

from decimal import Decimal

import pytest
from boto3.dynamodb.conditions import Attr, Key
from botocore.exceptions import ClientError

from sdk_paging import (  # noqa: F401  (paged is a fixture)
    ALL_KEYS,
    ITEM_COUNT,
    PARTITIONS,
    TABLE,
    TABLE_DEFINITION,
    assert_exactly_once,
    paged,
    partition_keys,
)


def collect(pages):
    keys, count = [], 0
    for page in pages:
        count += 1
        keys += [int(item["sk"]["N"]) for item in page["Items"]]
    return keys, count


def test_scan_paginator_returns_every_item_once(paged):
    client = paged.client()
    keys, pages = collect(client.get_paginator("scan").paginate(TableName=TABLE))
    assert_exactly_once(keys, ALL_KEYS, "scan paginator")
    assert pages >= paged.config.min_scan_pages


def test_scan_paginator_with_page_size_and_filter(paged):
    client = paged.client()
    result = client.get_paginator("scan").paginate(
        TableName=TABLE,
        FilterExpression="grp = :g",
        ExpressionAttributeValues={":g": {"N": "3"}},
        PaginationConfig={"PageSize": 250},
    )
    keys, pages = collect(result)
    assert_exactly_once(keys, [k for k in ALL_KEYS if k % 7 == 3], "filtered scan paginator")
    assert pages >= ITEM_COUNT // 250


def test_parallel_scan_segments_together_return_every_item_once(paged):
    client = paged.client()
    keys = []
    for segment in range(4):
        part, _ = collect(client.get_paginator("scan").paginate(TableName=TABLE, Segment=segment, TotalSegments=4))
        keys += part
    assert_exactly_once(keys, ALL_KEYS, "segmented scan paginator")


@pytest.mark.parametrize("forward", [True, False], ids=["forward", "reversed"])
def test_query_paginator_in_key_order(paged, forward):
    client = paged.client()
    for p in range(PARTITIONS):
        keys, pages = collect(
            client.get_paginator("query").paginate(
                TableName=TABLE,
                KeyConditionExpression="pk = :p",
                ExpressionAttributeValues={":p": {"S": f"p{p}"}},
                ScanIndexForward=forward,
            )
        )
        expected = partition_keys(p)
        assert keys == (expected if forward else expected[::-1])
        assert pages >= paged.config.min_query_pages


@pytest.mark.parametrize("operation", ["scan", "query"])
def test_paginator_resumes_from_starting_token(paged, operation):
    """MaxItems cuts inside a page; boto3's NextToken (LastEvaluatedKey plus an offset) must resume exactly there."""
    client = paged.client()
    kwargs = {"TableName": TABLE}
    expected = ALL_KEYS
    if operation == "query":
        kwargs.update(KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": "p1"}})
        expected = partition_keys(1)
    keys, token, calls = [], None, 0
    while True:
        config = {"MaxItems": 370}
        if token:
            config["StartingToken"] = token
        result = client.get_paginator(operation).paginate(**kwargs, PaginationConfig=config).build_full_result()
        calls += 1
        assert len(result["Items"]) <= 370
        keys += [int(item["sk"]["N"]) for item in result["Items"]]
        token = result.get("NextToken")
        if not token:
            break
        assert calls < 100, "NextToken never ran out"
    if operation == "query":
        assert keys == expected
    else:
        assert_exactly_once(keys, expected, "scan resumed from NextToken")
    assert calls == -(-len(expected) // 370)


def test_resource_query_loop_on_last_evaluated_key(paged):
    table = paged.resource().Table(TABLE)
    for p in range(PARTITIONS):
        keys, pages, start = [], 0, None
        while True:
            kwargs = {"KeyConditionExpression": Key("pk").eq(f"p{p}")}
            if start:
                kwargs["ExclusiveStartKey"] = start
            page = table.query(**kwargs)
            pages += 1
            for item in page["Items"]:
                assert isinstance(item["sk"], Decimal)
                assert len(item["pad"]) == paged.config.pad
                keys.append(int(item["sk"]))
            start = page.get("LastEvaluatedKey")
            if not start:
                break
            assert set(start) == {"pk", "sk"}
        assert keys == partition_keys(p)
        assert pages >= paged.config.min_query_pages


def test_resource_scan_loop_with_filter_and_limit(paged):
    table = paged.resource().Table(TABLE)
    keys, start, pages = [], None, 0
    while True:
        kwargs = {"FilterExpression": Attr("grp").between(2, 3), "Limit": 400}
        if start:
            kwargs["ExclusiveStartKey"] = start
        page = table.scan(**kwargs)
        pages += 1
        assert page["ScannedCount"] <= 400
        assert page["Count"] == len(page["Items"])
        keys += [int(item["sk"]) for item in page["Items"]]
        start = page.get("LastEvaluatedKey")
        if not start:
            break
    assert_exactly_once(keys, [k for k in ALL_KEYS if k % 7 in (2, 3)], "resource scan loop")
    assert pages >= ITEM_COUNT // 400


def test_batch_writer_puts_and_deletes_across_many_calls(dynapage):
    """batch_writer flushes every 25 requests and retries UnprocessedItems; what it wrote must be exactly there."""
    dynapage.client().create_table(**TABLE_DEFINITION)
    table = dynapage.resource().Table(TABLE)
    with table.batch_writer() as writer:
        for i in range(160):
            writer.put_item(Item={"pk": "w", "sk": i, "v": Decimal(i) / 4})
        for i in range(0, 160, 3):
            writer.delete_item(Key={"pk": "w", "sk": i})
    with table.batch_writer(overwrite_by_pkeys=["pk", "sk"]) as writer:
        writer.put_item(Item={"pk": "w", "sk": 1, "v": 0})
        writer.put_item(Item={"pk": "w", "sk": 1, "v": 1})  # replaces the buffered put of the same key
    keys, values, start = [], {}, None
    while True:
        kwargs = {"KeyConditionExpression": Key("pk").eq("w"), "Limit": 17}
        if start:
            kwargs["ExclusiveStartKey"] = start
        page = table.query(**kwargs)
        for item in page["Items"]:
            keys.append(int(item["sk"]))
            values[int(item["sk"])] = item["v"]
        start = page.get("LastEvaluatedKey")
        if not start:
            break
    assert keys == [i for i in range(160) if i % 3]
    assert values[1] == 1
    assert values[7] == Decimal("1.75")


def test_client_errors_are_typed(paged):
    client = paged.client()
    with pytest.raises(client.exceptions.ResourceNotFoundException) as error:
        client.get_paginator("query").paginate(
            TableName="no_such_table",
            KeyConditionExpression="pk = :p",
            ExpressionAttributeValues={":p": {"S": "p0"}},
        ).build_full_result()
    assert error.value.response["Error"]["Message"] == "Requested resource not found"
    assert error.value.response["ResponseMetadata"]["HTTPStatusCode"] == 400

    with pytest.raises(ClientError) as error:  # a key condition on a non-key attribute
        list(client.get_paginator("query").paginate(
            TableName=TABLE, KeyConditionExpression="grp = :g", ExpressionAttributeValues={":g": {"N": "1"}}
        ))
    assert error.value.response["Error"]["Code"] == "ValidationException"
    assert error.value.response["ResponseMetadata"]["HTTPStatusCode"] == 400

    with pytest.raises(ClientError) as error:  # an ExclusiveStartKey that is not the table's key
        client.scan(TableName=TABLE, ExclusiveStartKey={"pk": {"S": "p0"}})
    assert error.value.response["Error"]["Code"] == "ValidationException"


def test_resource_errors_are_typed(paged):
    resource = paged.resource()
    missing = resource.Table("no_such_table")
    with pytest.raises(resource.meta.client.exceptions.ResourceNotFoundException):
        missing.scan()
    with pytest.raises(ClientError) as error:
        resource.Table(TABLE).query(KeyConditionExpression=Key("pk").eq("p0") & Key("grp").eq(1))
    assert error.value.response["Error"]["Code"] == "ValidationException"
