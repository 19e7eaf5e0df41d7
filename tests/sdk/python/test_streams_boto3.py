"""DynamoDB Streams and TTL expiry through boto3's dynamodb and dynamodbstreams clients (docs/streams-and-ttl.md).

boto3 validates what it sends against the service model (shard ids of 28+ characters, sequence numbers of 21+
digits, stream ARNs of 37+), so every id dynapage hands out is sent back here as a consumer would.
"""

import json
import signal
import threading
import time

import boto3
import botocore.exceptions
import pytest

from conftest import CREDENTIALS

VIEW_TYPES = ["KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES"]


def streams_client(server):
    return boto3.client("dynamodbstreams", endpoint_url=server.endpoint, **CREDENTIALS)


def admin(server, path, body):
    """POST to the admin API as the tests' clients; the clock is every namespace's, so it is set with ?scope=all."""
    if path.startswith("/_dynapage/clock") and body:
        path += "?scope=all"
    return server.admin_json("POST", path, body)


def create_table(ddb, name, view_type):
    ddb.create_table(TableName=name, KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
                     AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
                     BillingMode="PAY_PER_REQUEST",
                     StreamSpecification={"StreamEnabled": True, "StreamViewType": view_type})
    return ddb.describe_table(TableName=name)["Table"]["LatestStreamArn"]


def shard_of(streams, arn):
    description = streams.describe_stream(StreamArn=arn)["StreamDescription"]
    assert len(description["Shards"]) == 1
    return description["Shards"][0]["ShardId"]


def read_all(streams, arn, iterator_type="TRIM_HORIZON", limit=None):
    """Follows NextShardIterator until a read comes back empty; returns the records."""
    iterator = streams.get_shard_iterator(StreamArn=arn, ShardId=shard_of(streams, arn),
                                          ShardIteratorType=iterator_type)["ShardIterator"]
    records = []
    while iterator:
        kwargs = {"ShardIterator": iterator}
        if limit:
            kwargs["Limit"] = limit
        response = streams.get_records(**kwargs)
        if not response["Records"]:
            break
        records.extend(response["Records"])
        iterator = response.get("NextShardIterator")
    return records


def write_mix(ddb, table):
    """Puts, a batch and a transaction; returns the (eventName, id) each should make, in order."""
    ddb.put_item(TableName=table, Item={"id": {"S": "a"}, "n": {"N": "1"}})
    ddb.put_item(TableName=table, Item={"id": {"S": "a"}, "n": {"N": "1"}})  # the same item: no record
    ddb.batch_write_item(RequestItems={table: [{"PutRequest": {"Item": {"id": {"S": "b"}}}},
                                              {"PutRequest": {"Item": {"id": {"S": "c"}}}}]})
    ddb.transact_write_items(TransactItems=[
        {"Update": {"TableName": table, "Key": {"id": {"S": "a"}}, "UpdateExpression": "SET n = :n",
                    "ExpressionAttributeValues": {":n": {"N": "2"}}}},
        {"Delete": {"TableName": table, "Key": {"id": {"S": "b"}}}},
        {"ConditionCheck": {"TableName": table, "Key": {"id": {"S": "c"}},
                            "ConditionExpression": "attribute_exists(id)"}},
    ])
    ddb.delete_item(TableName=table, Key={"id": {"S": "a"}})
    return [("INSERT", "a"), ("INSERT", "b"), ("INSERT", "c"), ("MODIFY", "a"), ("REMOVE", "b"), ("REMOVE", "a")]


@pytest.mark.parametrize("view_type", VIEW_TYPES)
def test_every_view_type_end_to_end(dynapage, view_type):
    ddb, streams = dynapage.client(), streams_client(dynapage)
    arn = create_table(ddb, "events", view_type)
    expected = write_mix(ddb, "events")
    records = read_all(streams, arn, limit=2)
    assert [(r["eventName"], r["dynamodb"]["Keys"]["id"]["S"]) for r in records] == expected
    for record in records:
        assert record["eventVersion"] == "1.1"
        assert record["eventSource"] == "aws:dynamodb"
        assert record["awsRegion"] == "us-east-1"
        assert len(record["eventID"]) == 32
        assert record["dynamodb"]["StreamViewType"] == view_type
        assert len(record["dynamodb"]["SequenceNumber"]) >= 21
        assert "userIdentity" not in record
        has_new = "NewImage" in record["dynamodb"]
        has_old = "OldImage" in record["dynamodb"]
        name = record["eventName"]
        assert has_new == (view_type in ("NEW_IMAGE", "NEW_AND_OLD_IMAGES") and name != "REMOVE")
        assert has_old == (view_type in ("OLD_IMAGE", "NEW_AND_OLD_IMAGES") and name != "INSERT")
    modify = records[3]["dynamodb"]
    if "NewImage" in modify:
        assert modify["NewImage"] == {"id": {"S": "a"}, "n": {"N": "2"}}
    if "OldImage" in modify:
        assert modify["OldImage"] == {"id": {"S": "a"}, "n": {"N": "1"}}
    # Sequence numbers rise; AT_SEQUENCE_NUMBER and AFTER_SEQUENCE_NUMBER of one of them are accepted by boto3.
    numbers = [int(r["dynamodb"]["SequenceNumber"]) for r in records]
    assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers)
    shard = shard_of(streams, arn)
    after = streams.get_shard_iterator(StreamArn=arn, ShardId=shard, ShardIteratorType="AFTER_SEQUENCE_NUMBER",
                                       SequenceNumber=records[2]["dynamodb"]["SequenceNumber"])["ShardIterator"]
    assert [r["eventName"] for r in streams.get_records(ShardIterator=after)["Records"]] == ["MODIFY", "REMOVE",
                                                                                             "REMOVE"]


def test_partiql_writes_write_records_as_the_item_operations_do(dynapage):
    # INSERT, UPDATE and DELETE statements (alone, batched and in a transaction) go through the write path like
    # PutItem, UpdateItem and DeleteItem: one record each, with the images the view type asks for; a statement
    # that changes nothing (a DELETE of a missing item) or fails (a duplicate INSERT) writes none.
    ddb, streams = dynapage.client(), streams_client(dynapage)
    arn = create_table(ddb, "statements", "NEW_AND_OLD_IMAGES")
    ddb.execute_statement(Statement="INSERT INTO \"statements\" VALUE {'id': 'a', 'n': 1}")
    with pytest.raises(ddb.exceptions.DuplicateItemException):
        ddb.execute_statement(Statement="INSERT INTO \"statements\" VALUE {'id': 'a', 'n': 9}")
    ddb.execute_statement(Statement="UPDATE \"statements\" SET n = 2 WHERE id = 'a'")
    ddb.execute_statement(Statement="DELETE FROM \"statements\" WHERE id = 'missing'")
    answer = ddb.batch_execute_statement(Statements=[
        {"Statement": "INSERT INTO \"statements\" VALUE {'id': 'b'}"},
        {"Statement": "INSERT INTO \"statements\" VALUE {'id': 'c'}"}])
    assert all("Error" not in r for r in answer["Responses"]), answer
    ddb.execute_transaction(TransactStatements=[
        {"Statement": "DELETE FROM \"statements\" WHERE id = 'a'"},
        {"Statement": "UPDATE \"statements\" SET n = 3 WHERE id = 'b'"}])
    records = read_all(streams, arn)
    assert [(r["eventName"], r["dynamodb"]["Keys"]["id"]["S"]) for r in records] == [
        ("INSERT", "a"), ("MODIFY", "a"), ("INSERT", "b"), ("INSERT", "c"), ("REMOVE", "a"), ("MODIFY", "b")]
    assert records[1]["dynamodb"]["OldImage"] == {"id": {"S": "a"}, "n": {"N": "1"}}
    assert records[1]["dynamodb"]["NewImage"] == {"id": {"S": "a"}, "n": {"N": "2"}}
    assert records[4]["dynamodb"]["OldImage"] == {"id": {"S": "a"}, "n": {"N": "2"}}
    assert "NewImage" not in records[4]["dynamodb"]
    assert records[5]["dynamodb"]["NewImage"] == {"id": {"S": "b"}, "n": {"N": "3"}}


def test_a_polling_consumer_sees_every_record_once_in_order(dynapage):
    ddb, streams = dynapage.client(), streams_client(dynapage)
    arn = create_table(ddb, "polled", "KEYS_ONLY")
    iterator = streams.get_shard_iterator(StreamArn=arn, ShardId=shard_of(streams, arn),
                                          ShardIteratorType="LATEST")["ShardIterator"]
    expected = [f"k{i:03d}" for i in range(150)]
    writer_done = threading.Event()

    def write():
        writer = dynapage.client()
        for start in range(0, 100, 25):
            writer.batch_write_item(RequestItems={"polled": [{"PutRequest": {"Item": {"id": {"S": k}}}}
                                                             for k in expected[start:start + 25]]})
        for k in expected[100:]:
            writer.put_item(TableName="polled", Item={"id": {"S": k}})
        writer_done.set()

    thread = threading.Thread(target=write)
    thread.start()
    seen = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        response = streams.get_records(ShardIterator=iterator, Limit=7)
        seen.extend(r["dynamodb"]["Keys"]["id"]["S"] for r in response["Records"])
        iterator = response["NextShardIterator"]  # present, also after an empty read: the shard is open
        if writer_done.is_set() and not response["Records"] and len(seen) >= len(expected):
            break
    thread.join()
    assert seen == expected


def test_disabled_and_deleted_streams_stay_listed_and_readable(dynapage):
    ddb, streams = dynapage.client(), streams_client(dynapage)
    first = create_table(ddb, "cycled", "NEW_IMAGE")
    ddb.put_item(TableName="cycled", Item={"id": {"S": "x"}})
    ddb.update_table(TableName="cycled", StreamSpecification={"StreamEnabled": False})
    with pytest.raises(ddb.exceptions.ClientError, match="Table has no stream to disable"):
        ddb.update_table(TableName="cycled", StreamSpecification={"StreamEnabled": False})
    ddb.update_table(TableName="cycled", StreamSpecification={"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"})
    second = ddb.describe_table(TableName="cycled")["Table"]["LatestStreamArn"]
    assert second != first
    ddb.delete_table(TableName="cycled")
    listed = streams.list_streams(TableName="cycled")["Streams"]
    assert {s["StreamArn"] for s in listed} == {first, second}
    for arn in (first, second):
        assert streams.describe_stream(StreamArn=arn)["StreamDescription"]["StreamStatus"] == "DISABLED"
    assert [r["eventName"] for r in read_all(streams, first)] == ["INSERT"]
    # A closed shard read to its end has no next iterator.
    iterator = streams.get_shard_iterator(StreamArn=first, ShardId=shard_of(streams, first),
                                          ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
    response = streams.get_records(ShardIterator=iterator)
    assert len(response["Records"]) == 1
    assert response.get("NextShardIterator") is None


def test_errors_parse_as_the_model_declares(dynapage):
    ddb, streams = dynapage.client(), streams_client(dynapage)
    arn = create_table(ddb, "errs", "KEYS_ONLY")
    iterator = streams.get_shard_iterator(StreamArn=arn, ShardId=shard_of(streams, arn),
                                          ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
    admin(dynapage, "/_dynapage/clock", {"advance_ms": 15 * 60 * 1000 + 1000})
    with pytest.raises(streams.exceptions.ExpiredIteratorException):
        streams.get_records(ShardIterator=iterator)
    with pytest.raises(streams.exceptions.ResourceNotFoundException):
        streams.describe_stream(StreamArn=arn + "0")
    with pytest.raises(botocore.exceptions.ClientError) as refused:
        streams.get_records(ShardIterator=iterator, Limit=1001)
    assert refused.value.response["Error"]["Code"] == "ValidationException"


def test_ttl_expiry_with_the_clock_advanced(dynapage):
    ddb, streams = dynapage.client(), streams_client(dynapage)
    arn = create_table(ddb, "sessions", "NEW_AND_OLD_IMAGES")
    ddb.update_time_to_live(TableName="sessions",
                            TimeToLiveSpecification={"Enabled": True, "AttributeName": "expires"})
    now = admin(dynapage, "/_dynapage/clock", {})["epoch_ms"] // 1000
    ddb.put_item(TableName="sessions", Item={"id": {"S": "soon"}, "expires": {"N": str(now + 60)}})
    ddb.put_item(TableName="sessions", Item={"id": {"S": "later"}, "expires": {"N": str(now + 7200)}})
    assert admin(dynapage, "/_dynapage/ttl/sweep", {}) == {"ExpiredItems": 0}
    admin(dynapage, "/_dynapage/clock", {"advance_ms": 120 * 1000})
    assert ddb.get_item(TableName="sessions", Key={"id": {"S": "soon"}}).get("Item")  # readable until swept
    assert admin(dynapage, "/_dynapage/ttl/sweep", {}) == {"ExpiredItems": 1}
    assert "Item" not in ddb.get_item(TableName="sessions", Key={"id": {"S": "soon"}})
    removes = [r for r in read_all(streams, arn) if r["eventName"] == "REMOVE"]
    assert len(removes) == 1
    assert removes[0]["userIdentity"] == {"PrincipalId": "dynamodb.amazonaws.com", "Type": "Service"}
    assert removes[0]["dynamodb"]["OldImage"]["id"] == {"S": "soon"}


def test_ttl_sweeper_thread_deletes_without_being_asked(start_dynapage):
    server = start_dynapage("--ttl-interval", "1")
    ddb = server.client()
    ddb.create_table(TableName="swept", KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
                     AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
                     BillingMode="PAY_PER_REQUEST")
    ddb.update_time_to_live(TableName="swept", TimeToLiveSpecification={"Enabled": True, "AttributeName": "ttl"})
    now = admin(server, "/_dynapage/clock", {})["epoch_ms"] // 1000
    ddb.put_item(TableName="swept", Item={"id": {"S": "old"}, "ttl": {"N": str(now - 1)}})
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and ddb.scan(TableName="swept")["Count"]:
        time.sleep(0.1)
    assert ddb.scan(TableName="swept")["Count"] == 0


def test_kill_9_after_acknowledged_writes_loses_no_record(start_dynapage, tmp_path):
    data = str(tmp_path / "data")
    server = start_dynapage("--db-path", data, "--ttl-interval", "0")
    ddb = server.client()
    arn = create_table(ddb, "durable", "KEYS_ONLY")
    keys = [f"k{i:03d}" for i in range(60)]
    for start in range(0, 50, 25):
        ddb.batch_write_item(RequestItems={"durable": [{"PutRequest": {"Item": {"id": {"S": k}}}}
                                                       for k in keys[start:start + 25]]})
    for k in keys[50:]:
        ddb.put_item(TableName="durable", Item={"id": {"S": k}})
    server.stop(sig=signal.SIGKILL)
    restarted = start_dynapage("--db-path", data, "--ttl-interval", "0")
    streams = streams_client(restarted)
    assert [r["dynamodb"]["Keys"]["id"]["S"] for r in read_all(streams, arn)] == keys
    # The sequence goes on after the restart.
    restarted.client().put_item(TableName="durable", Item={"id": {"S": "after"}})
    records = read_all(streams, arn)
    assert records[-1]["dynamodb"]["Keys"]["id"]["S"] == "after"
    assert int(records[-1]["dynamodb"]["SequenceNumber"]) > int(records[-2]["dynamodb"]["SequenceNumber"])
