"""Page chaos, fault rules, the pagination audit, the request log and metrics through boto3
(docs/testing-pagination.md).

Paginators and hand-written LastEvaluatedKey loops must return every item exactly once under page chaos for every
seed tried; a loop that stops at the first empty page must be caught, by its own result and by the audit;
BatchWriteItem loops that resend UnprocessedItems must apply everything, and those that do not must be caught;
botocore's retries must absorb throttles a rule injects; the request log and metrics must show what was sent.
"""

import json
import signal

import boto3
import pytest
from boto3.dynamodb.conditions import Key
from botocore.exceptions import ClientError

from conftest import CREDENTIALS

TABLE = "chaos"
PER_PARTITION = 60
SEEDS = range(1, 26)


def admin(server, method, path, body=None):
    """The admin API as the tests' clients (CREDENTIALS): their namespace's chaos, faults, audit and log."""
    return server.admin(method, path, body)


def admin_json(server, method, path, body=None):
    status, text = admin(server, method, path, body)
    assert status == 200, text
    return json.loads(text)


def stderr_of(stopped_server):
    with open(stopped_server.log_path, encoding="utf-8", errors="replace") as f:
        return f.read()


def create_table(ddb, name=TABLE):
    ddb.create_table(
        TableName=name,
        BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[
            {"AttributeName": "pk", "AttributeType": "S"},
            {"AttributeName": "sk", "AttributeType": "S"},
        ],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
    )


def load(server, ddb):
    create_table(ddb)
    with server.resource().Table(TABLE).batch_writer() as batch:
        for pk in ("a", "b"):
            for i in range(PER_PARTITION):
                batch.put_item(Item={"pk": pk, "sk": f"{i:04d}", "n": i})


@pytest.fixture
def chaos_server(start_dynapage):
    server = start_dynapage("--audit-pagination")
    ddb = server.client()
    load(server, ddb)
    return server, ddb


def query_loop(ddb, pk, stop_at_empty_page=False):
    """A hand-written loop on LastEvaluatedKey; with stop_at_empty_page, the bug this guide is about."""
    keys, kwargs = [], {}
    while True:
        page = ddb.query(TableName=TABLE, KeyConditionExpression="pk = :p",
                         ExpressionAttributeValues={":p": {"S": pk}}, **kwargs)
        if stop_at_empty_page and not page["Items"]:
            break
        keys += [item["sk"]["S"] for item in page["Items"]]
        if "LastEvaluatedKey" not in page:
            break
        kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]
    return keys


def test_paginators_and_loops_return_every_item_once_for_every_seed(chaos_server):
    server, ddb = chaos_server
    expected = [f"{i:04d}" for i in range(PER_PARTITION)]
    table = server.resource().Table(TABLE)
    pages = 0
    for seed in SEEDS:
        admin_json(server, "POST", "/_dynapage/chaos", {"seed": seed})
        query_pages = list(ddb.get_paginator("query").paginate(
            TableName=TABLE, KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": "a"}}))
        pages += len(query_pages)
        assert [i["sk"]["S"] for p in query_pages for i in p["Items"]] == expected, f"seed {seed}"
        scanned = [(i["pk"]["S"], i["sk"]["S"]) for p in ddb.get_paginator("scan").paginate(TableName=TABLE)
                   for i in p["Items"]]
        assert sorted(scanned) == sorted((pk, sk) for pk in "ab" for sk in expected), f"seed {seed}"
        assert query_loop(ddb, "b") == expected, f"seed {seed}"
        # The resource API's hand-written loop, backwards.
        keys, kwargs = [], {}
        while True:
            page = table.query(KeyConditionExpression=Key("pk").eq("a"), ScanIndexForward=False, **kwargs)
            keys += [item["sk"] for item in page["Items"]]
            if "LastEvaluatedKey" not in page:
                break
            kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]
        assert keys == expected[::-1], f"seed {seed}"
    assert pages > 2 * len(SEEDS)  # chaos did cut the pages
    report = admin_json(server, "GET", "/_dynapage/pagination")
    assert report["abandoned"] == []
    assert report["followed"] == report["issued"] > 0


def test_a_loop_that_stops_at_the_first_empty_page_is_caught(chaos_server):
    server, ddb = chaos_server
    expected = [f"{i:04d}" for i in range(PER_PARTITION)]
    lost = 0
    for seed in SEEDS:
        admin_json(server, "POST", "/_dynapage/chaos", {"seed": seed})
        if query_loop(ddb, "a", stop_at_empty_page=True) != expected:
            lost += 1
    assert lost > 0
    abandoned = admin_json(server, "GET", "/_dynapage/pagination")["abandoned"]
    assert sum(a["times"] for a in abandoned) >= lost
    assert {(a["operation"], a["table"], a["key_condition"]) for a in abandoned} == {("Query", TABLE, "pk = :p")}


def test_batch_writes_that_resend_unprocessed_items_apply_everything(start_dynapage):
    server = start_dynapage("--audit-pagination", "--page-chaos", "3")
    ddb = server.client()
    create_table(ddb)
    # boto3's batch_writer resends UnprocessedItems.
    with server.resource().Table(TABLE).batch_writer() as batch:
        for i in range(200):
            batch.put_item(Item={"pk": "w", "sk": f"{i:04d}"})
    # So does this loop.
    for start in range(200, 400, 25):
        request = {TABLE: [{"PutRequest": {"Item": {"pk": {"S": "w"}, "sk": {"S": f"{i:04d}"}}}}
                           for i in range(start, start + 25)]}
        while request:
            request = ddb.batch_write_item(RequestItems=request)["UnprocessedItems"]
    admin_json(server, "DELETE", "/_dynapage/chaos")
    count = sum(p["Count"] for p in ddb.get_paginator("scan").paginate(TableName=TABLE, Select="COUNT"))
    assert count == 400
    assert admin_json(server, "GET", "/_dynapage/pagination")["abandoned"] == []


def test_batch_writes_that_ignore_unprocessed_items_are_caught(start_dynapage):
    server = start_dynapage("--audit-pagination", "--page-chaos", "3")
    ddb = server.client()
    create_table(ddb)
    for start in range(0, 400, 25):
        ddb.batch_write_item(RequestItems={TABLE: [  # the bug: UnprocessedItems ignored
            {"PutRequest": {"Item": {"pk": {"S": "w"}, "sk": {"S": f"{i:04d}"}}}} for i in range(start, start + 25)]})
    admin_json(server, "DELETE", "/_dynapage/chaos")
    count = sum(p["Count"] for p in ddb.get_paginator("scan").paginate(TableName=TABLE, Select="COUNT"))
    assert count < 400
    abandoned = admin_json(server, "GET", "/_dynapage/pagination")["abandoned"]
    assert len(abandoned) == 400 - count
    assert {(a["operation"], a["table"]) for a in abandoned} == {("BatchWriteItem", TABLE)}


@pytest.mark.parametrize("error", ["ProvisionedThroughputExceededException", "ThrottlingException",
                                   "InternalServerError", "ServiceUnavailable"])
def test_sdk_retries_absorb_injected_throttles(dynapage, error):
    # Legacy mode: botocore's DynamoDB back-off (50 ms, doubling), so the test does not wait for seconds.
    ddb = dynapage.client(retries={"mode": "legacy", "max_attempts": 5})
    create_table(ddb)
    ddb.put_item(TableName=TABLE, Item={"pk": {"S": "a"}, "sk": {"S": "1"}})
    admin_json(dynapage, "POST", "/_dynapage/faults",
               {"operation": "GetItem", "table": TABLE, "error": error, "times": 3})
    item = ddb.get_item(TableName=TABLE, Key={"pk": {"S": "a"}, "sk": {"S": "1"}})["Item"]
    assert item["sk"] == {"S": "1"}
    rules = admin_json(dynapage, "GET", "/_dynapage/faults")["rules"]
    assert (rules[0]["matched"], rules[0]["fired"]) == (4, 3)
    # A client that gives up sooner sees the error itself.
    admin_json(dynapage, "POST", "/_dynapage/faults", {"operation": "PutItem", "error": error, "times": 3})
    impatient = dynapage.client(retries={"mode": "legacy", "max_attempts": 2})
    with pytest.raises(ClientError) as raised:
        impatient.put_item(TableName=TABLE, Item={"pk": {"S": "a"}, "sk": {"S": "2"}})
    assert raised.value.response["Error"]["Code"] == error


def test_request_log_and_metrics_reflect_what_was_sent(start_dynapage, tmp_path):
    log = tmp_path / "requests.jsonl"
    server = start_dynapage("--request-log", str(log), "--metrics")
    ddb = server.client()
    create_table(ddb)
    for i in range(5):
        ddb.put_item(TableName=TABLE, Item={"pk": {"S": "a"}, "sk": {"S": f"{i}"}})
    page = ddb.query(TableName=TABLE, KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": "a"}},
                     Limit=3)
    with pytest.raises(ClientError):
        ddb.get_item(TableName="missing", Key={"pk": {"S": "a"}})
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert [line["operation"] for line in lines] == ["CreateTable"] + ["PutItem"] * 5 + ["Query", "GetItem"]
    query = lines[6]
    assert query["request_id"] == page["ResponseMetadata"]["RequestId"]
    assert (query["table"], query["status"], query["items_returned"], query["items_evaluated"]) == (TABLE, 200, 3, 3)
    assert query["last_evaluated_key"] is True and query["exclusive_start_key"] is False
    assert (lines[7]["status"], lines[7]["error"]) == (400, "ResourceNotFoundException")
    recent = admin_json(server, "GET", "/_dynapage/requests?limit=2")["requests"]
    assert recent == lines[-2:]
    status, metrics = admin(server, "GET", "/metrics")
    assert status == 200
    for line in ['dynapage_requests_total{operation="PutItem",status="200"} 5',
                 'dynapage_requests_total{operation="Query",status="200"} 1',
                 'dynapage_requests_total{operation="GetItem",status="400"} 1',
                 "dynapage_items_written_total 5", "dynapage_continuations_issued_total 1", "dynapage_items 5"]:
        assert line + "\n" in metrics, line


def test_shutdown_fails_when_a_continuation_was_abandoned(start_dynapage):
    server = start_dynapage("--audit-pagination", "--fail-on-abandoned")
    ddb = server.client()
    create_table(ddb)
    for i in range(3):
        ddb.put_item(TableName=TABLE, Item={"pk": {"S": "a"}, "sk": {"S": f"{i}"}})
    ddb.query(TableName=TABLE, KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": "a"}},
              Limit=1)
    code, _ = server.stop(signal.SIGTERM)
    assert code == 3
    # Limit 1 without chaos: two items left, in three pages (the last item's page still has a LastEvaluatedKey).
    assert ('abandoned: Query chaos key condition "pk = :p" after 1 page(s), 1 item(s); 3 page(s), 2 item(s) left at '
            in stderr_of(server))
    # The last line says why the status is 3, and what was abandoned, per operation.
    assert stderr_of(server).rstrip().endswith(
        "dynapage: exit status 3 (--fail-on-abandoned): 1 continuation(s) abandoned (Query 1)")


def stream_keys(streams, arn, stop_at_empty_answer=False):
    """Reads a closed shard from TRIM_HORIZON following NextShardIterator; with stop_at_empty_answer, the bug."""
    shard = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]["ShardId"]
    iterator = streams.get_shard_iterator(StreamArn=arn, ShardId=shard,
                                          ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
    keys = []
    while iterator:
        answer = streams.get_records(ShardIterator=iterator)
        if stop_at_empty_answer and not answer["Records"]:
            break
        keys += [record["dynamodb"]["Keys"]["id"]["S"] for record in answer["Records"]]
        iterator = answer.get("NextShardIterator")
    return keys


def test_stream_readers_under_chaos_and_the_audit_of_shard_iterators(start_dynapage):
    server = start_dynapage("--audit-pagination", "--fail-on-abandoned")
    ddb = server.client()
    ddb.create_table(TableName="feed", KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
                     AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
                     BillingMode="PAY_PER_REQUEST",
                     StreamSpecification={"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"})
    expected = [f"{i:03d}" for i in range(40)]
    for key in expected:
        ddb.put_item(TableName="feed", Item={"id": {"S": key}})
    arn = ddb.describe_table(TableName="feed")["Table"]["LatestStreamArn"]
    ddb.update_table(TableName="feed", StreamSpecification={"StreamEnabled": False})  # a closed shard
    streams = boto3.client("dynamodbstreams", endpoint_url=server.endpoint, **CREDENTIALS)
    # A reader that follows NextShardIterator to the end of the shard gets every record once, in order.
    for seed in SEEDS:
        admin_json(server, "POST", "/_dynapage/chaos", {"seed": seed})
        assert stream_keys(streams, arn) == expected, f"seed {seed}"
    assert admin_json(server, "GET", "/_dynapage/pagination")["abandoned"] == []
    # One that takes an empty answer for the end loses records for some seeds, and the audit names each chain.
    losing = 0
    for seed in SEEDS:
        admin_json(server, "POST", "/_dynapage/chaos", {"seed": seed})
        losing += len(stream_keys(streams, arn, stop_at_empty_answer=True)) < len(expected)
    assert losing > 0
    abandoned = admin_json(server, "GET", "/_dynapage/pagination")["abandoned"]
    # (An iterator is a position token: one left may be the very one a later seed gets in the same millisecond.)
    assert 0 < sum(a["times"] for a in abandoned) <= losing
    for a in abandoned:
        assert (a["operation"], a["table"]) == ("GetRecords", "feed")
        assert a["items_read"] + a["items_left"] == len(expected) and a["items_left"] > 0
        assert a["continuation"].startswith(arn + "|1|")
    code, _ = server.stop(signal.SIGTERM)
    assert code == 3
    assert "abandoned: GetRecords feed after " in stderr_of(server)


def test_shutdown_succeeds_when_every_continuation_was_followed(start_dynapage):
    server = start_dynapage("--audit-pagination", "--fail-on-abandoned", "--page-chaos", "2")
    ddb = server.client()
    load(server, ddb)
    list(ddb.get_paginator("scan").paginate(TableName=TABLE))
    code, _ = server.stop(signal.SIGTERM)
    assert code == 0, stderr_of(server)
    assert "0 abandoned" in stderr_of(server)
