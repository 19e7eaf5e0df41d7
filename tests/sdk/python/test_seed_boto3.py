"""--seed PATH: tables and items loaded before the server answers, all or nothing (docs/seeding.md)."""

import json
import os
import socket
import subprocess
import time

import pytest
from boto3.dynamodb.conditions import Key

from conftest import CREDENTIALS, Dynapage, dynapage_binary
from test_export_import_boto3 import checksum, make_table, put_all, sample_items

ACCESS_KEY = CREDENTIALS["aws_access_key_id"]

USERS = {"TableName": "Users", "BillingMode": "PAY_PER_REQUEST",
         "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"},
                                  {"AttributeName": "team", "AttributeType": "S"}],
         "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}],
         "GlobalSecondaryIndexes": [{"IndexName": "byTeam", "KeySchema": [{"AttributeName": "team", "KeyType": "HASH"}],
                                     "Projection": {"ProjectionType": "ALL"}}]}


def user(i):
    return {"id": {"S": f"u{i}"}, "team": {"S": f"team{i % 3}"}, "n": {"N": str(i)}}


def write_seed(path, tables, **top):
    """A seed file with one table or item a line, as a person would write it."""
    lines = ["{" + "".join(f"{json.dumps(k)}:{json.dumps(v)}," for k, v in top.items()) + "\"Tables\":["]
    for t, (definition, items) in enumerate(tables):
        lines.append(("," if t else "") + "{" + definition + ",\"Items\":[")
        lines += [("," if i else "") + json.dumps(item) for i, item in enumerate(items)]
        lines.append("]}")
    lines.append("]}")
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def create(definition):
    return "\"CreateTable\":" + json.dumps(definition)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_refused(args, timeout=60):
    """Runs dynapage with args, which must refuse to start: (exit code, stderr, whether the port ever answered)."""
    port = free_port()
    proc = subprocess.Popen([dynapage_binary(), "--port", str(port), *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    answered = False
    deadline = time.monotonic() + timeout
    while proc.poll() is None and time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.05).close()
            answered = True
        except OSError:
            time.sleep(0.01)
    out, err = proc.communicate(timeout=timeout)
    return proc.returncode, err.decode(), answered or b"listening" in out


def test_seeded_tables_and_items_are_there_at_the_first_request(start_dynapage, tmp_path):
    described = {"Table": {"TableName": "Orders", "TableStatus": "ACTIVE", "ItemCount": 0,
                           "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                                    {"AttributeName": "sk", "AttributeType": "N"}],
                           "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                         {"AttributeName": "sk", "KeyType": "RANGE"}],
                           "ProvisionedThroughput": {"NumberOfDecreasesToday": 0, "ReadCapacityUnits": 5,
                                                     "WriteCapacityUnits": 5},
                           "TableArn": "arn:aws:dynamodb:us-east-1:123456789012:table/Orders"}}
    seed = write_seed(tmp_path / "seed.json",
                      [(create(USERS), [user(i) for i in range(30)]),
                       ("\"Table\":" + json.dumps(described["Table"]),
                        [{"pk": {"S": "o"}, "sk": {"N": str(i)}} for i in range(5)])],
                      AccessKeyId=ACCESS_KEY)
    server = start_dynapage("--seed", seed)
    ddb = server.client()
    assert sorted(ddb.list_tables()["TableNames"]) == ["Orders", "Users"]
    assert ddb.describe_table(TableName="Users")["Table"]["TableStatus"] == "ACTIVE"
    assert ddb.get_item(TableName="Users", Key={"id": {"S": "u7"}})["Item"] == user(7)
    team = server.resource().Table("Users").query(IndexName="byTeam", KeyConditionExpression=Key("team").eq("team1"))
    assert sorted(item["id"] for item in team["Items"]) == sorted(f"u{i}" for i in range(30) if i % 3 == 1)
    orders = ddb.describe_table(TableName="Orders")["Table"]
    assert orders["ProvisionedThroughput"]["ReadCapacityUnits"] == 5 and orders["ItemCount"] == 5
    assert "seed: 2 table(s), 35 item(s) loaded" in server.stderr()


def test_a_bad_item_stops_the_start_naming_file_line_and_item(tmp_path):
    good = [user(i) for i in range(20000)]  # the check takes a while: time for the port to be tried
    bad = {"team": {"S": "t"}}  # no id
    seed = write_seed(tmp_path / "seed.json", [(create(USERS), good + [bad])], AccessKeyId=ACCESS_KEY)
    code, err, answered = run_refused(["--seed", seed])
    assert code != 0
    assert not answered
    assert f"{seed}:20003: table Users item 20000: ValidationException: One or more parameter values were invalid: " \
           "Missing the key id in the item" in err, err
    assert "nothing was loaded" in err


def test_a_failed_seed_leaves_no_table_in_the_data_folder(start_dynapage, tmp_path):
    data = tmp_path / "data"
    other = dict(USERS, TableName="Other")
    seed = write_seed(tmp_path / "seed.json", [(create(other), [user(1)]), (create(USERS), [user(1), {"id": {"N": "1"}}])],
                      AccessKeyId=ACCESS_KEY)
    code, err, answered = run_refused(["--db-path", str(data), "--seed", seed])
    assert code != 0 and not answered
    assert f"{seed}:7: table Users item 1" in err and "Type mismatch" in err, err
    assert start_dynapage("--db-path", str(data)).client().list_tables()["TableNames"] == []


def test_a_restart_with_the_same_seed_keeps_the_tables_as_they_are(start_dynapage, tmp_path):
    data = str(tmp_path / "data")
    seed = write_seed(tmp_path / "seed.json", [(create(USERS), [user(1)])], AccessKeyId=ACCESS_KEY)
    first = start_dynapage("--db-path", data, "--seed", seed)
    first.client().put_item(TableName="Users", Item=user(2))
    first.stop()
    again = start_dynapage("--db-path", data, "--seed", seed)
    assert again.client().scan(TableName="Users")["Count"] == 2
    assert "table Users exists already" in again.stderr()


def export_folder(s3, server, items, export_format="DYNAMODB_JSON"):
    """Exports the table made by make_table with items from server; the export's folder."""
    ddb = server.client()
    arn = make_table(ddb)
    put_all(ddb, items)
    export = ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="bucket", S3Prefix="x",
                                               ExportFormat=export_format)["ExportDescription"]
    return s3 / "bucket" / "x" / "AWSDynamoDB" / export["ExportArn"].rsplit("/", 1)[1]


@pytest.fixture
def s3(tmp_path):
    (tmp_path / "s3" / "bucket").mkdir(parents=True)
    return tmp_path / "s3"


def test_an_export_folder_seeds_a_second_server(start_dynapage, s3):
    first = start_dynapage("--s3-dir", str(s3))
    items = sample_items(1500)  # more than one write batch
    folder = export_folder(s3, first, items)
    code, err, answered = run_refused(["--seed", str(folder)])
    assert code != 0 and not answered and "table.json" in err, err
    description = first.raw_client().describe_table(TableName="exported")
    description["AccessKeyId"] = ACCESS_KEY
    (folder / "table.json").write_text(json.dumps(description))
    second = start_dynapage("--seed", str(folder)).client()
    seeded, start = [], {}
    while True:
        page = second.scan(TableName="exported", **start)
        seeded += page["Items"]
        if "LastEvaluatedKey" not in page:
            break
        start = {"ExclusiveStartKey": page["LastEvaluatedKey"]}
    assert sorted(checksum(item) for item in seeded) == sorted(checksum(item) for item in items)


def test_an_ion_export_seeds_too(start_dynapage, s3):
    first = start_dynapage("--s3-dir", str(s3))
    items = sample_items(40)
    folder = export_folder(s3, first, items, export_format="ION")
    description = first.raw_client().describe_table(TableName="exported")
    description["AccessKeyId"] = ACCESS_KEY
    (folder / "table.json").write_text(json.dumps(description))
    second = start_dynapage("--seed", str(folder)).client()
    seeded = second.scan(TableName="exported")["Items"]
    assert sorted(checksum(item) for item in seeded) == sorted(checksum(item) for item in items)
