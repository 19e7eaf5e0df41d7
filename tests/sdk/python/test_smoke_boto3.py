"""Smoke tests of the built dynapage binary through unmodified clients: boto3 and the AWS CLI.

Also: persistence across SIGKILL with --db-path, clean shutdown on SIGTERM/SIGINT, and the command line.
"""

import json
import os
import signal
import subprocess
import time
import urllib.request
import zlib
from decimal import Decimal

import pytest
from botocore.exceptions import ClientError, ConnectTimeoutError, ReadTimeoutError

from conftest import dynapage_binary

HASH_RANGE = {
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


def create_table(ddb, name, **overrides):
    spec = dict(HASH_RANGE, **overrides)
    ddb.create_table(TableName=name, **spec)
    ddb.get_waiter("table_exists").wait(TableName=name, WaiterConfig={"Delay": 1, "MaxAttempts": 5})


def record_responses(client):
    """Collects (status, headers, body bytes) of every response the client receives."""
    seen = []

    def hook(http_response, **kwargs):
        seen.append((http_response.status_code, dict(http_response.headers), http_response.content))

    client.meta.events.register("after-call.dynamodb", hook)
    return seen


# --- boto3 -----------------------------------------------------------------------------------------------------


def test_create_put_get(ddb):
    create_table(ddb, "smoke")
    described = ddb.describe_table(TableName="smoke")["Table"]
    assert described["TableStatus"] == "ACTIVE"
    assert described["KeySchema"] == HASH_RANGE["KeySchema"]

    item = {
        "pk": {"S": "user#1"},
        "sk": {"N": "1e3"},
        "name": {"S": "Ada Lovelace \u00e4"},
        "price": {"N": "12.50"},
        "blob": {"B": b"\x00\x01\xff"},
        "flag": {"BOOL": True},
        "none": {"NULL": True},
        "tags": {"SS": ["a", "b"]},
        "nums": {"NS": ["1", "2.0"]},
        "list": {"L": [{"S": "x"}, {"N": "-0.5"}]},
        "map": {"M": {"nested": {"M": {"deep": {"BS": [b"\x01", b"\x02"]}}}}},
    }
    assert "Attributes" not in ddb.put_item(TableName="smoke", Item=item)
    got = ddb.get_item(TableName="smoke", Key={"pk": {"S": "user#1"}, "sk": {"N": "1000"}}, ConsistentRead=True)
    stored = got["Item"]
    assert stored["sk"] == {"N": "1000"}  # canonical number
    assert stored["price"] == {"N": "12.5"}
    assert stored["blob"] == {"B": b"\x00\x01\xff"}
    assert set(stored["nums"]["NS"]) == {"1", "2"}
    assert set(stored["tags"]["SS"]) == {"a", "b"}
    assert set(stored["map"]["M"]["nested"]["M"]["deep"]["BS"]) == {b"\x01", b"\x02"}
    assert stored["list"] == {"L": [{"S": "x"}, {"N": "-0.5"}]}
    assert stored["name"] == {"S": "Ada Lovelace \u00e4"}

    old = ddb.put_item(TableName="smoke", Item={"pk": {"S": "user#1"}, "sk": {"N": "1000"}}, ReturnValues="ALL_OLD")
    assert old["Attributes"]["name"] == {"S": "Ada Lovelace \u00e4"}
    assert "Item" not in ddb.get_item(TableName="smoke", Key={"pk": {"S": "nobody"}, "sk": {"N": "1"}})
    deleted = ddb.delete_item(TableName="smoke", Key={"pk": {"S": "user#1"}, "sk": {"N": "1000"}}, ReturnValues="ALL_OLD")
    assert deleted["Attributes"] == {"pk": {"S": "user#1"}, "sk": {"N": "1000"}}


def test_control_characters_in_strings_round_trip(ddb):
    """Every control character, at every position of strings long enough to be scanned in 16-byte blocks, is
    stored and read back: by GetItem, BatchWriteItem and Scan, in values, key values and attribute names."""
    create_table(ddb, "controls")
    written = {}
    for code in range(0x20):
        for at in (0, 7, 16, 21, 33, 47):
            text = "x" * 24 + chr(code) + "y" * 24
            text = text[:at] + chr(code) + text[at:]
            written[(code, at)] = {"pk": {"S": f"{code}:{at}{chr(code)}"}, "sk": {"N": "1"}, "v": {"S": text},
                                   f"name{chr(code)}" + "z" * 20: {"S": text}}
    items = list(written.values())
    for start in range(0, len(items), 25):
        ddb.batch_write_item(RequestItems={"controls": [{"PutRequest": {"Item": i}} for i in items[start:start + 25]]})
    for key, item in list(written.items())[::7]:
        assert ddb.get_item(TableName="controls", Key={"pk": item["pk"], "sk": item["sk"]})["Item"] == item, key
    scanned = []
    for page in ddb.get_paginator("scan").paginate(TableName="controls"):
        scanned.extend(page["Items"])
    assert sorted(scanned, key=lambda i: i["pk"]["S"]) == sorted(items, key=lambda i: i["pk"]["S"])


def test_consumed_capacity(ddb):
    create_table(ddb, "cap")
    put = ddb.put_item(
        TableName="cap",
        Item={"pk": {"S": "a"}, "sk": {"N": "1"}, "data": {"S": "x" * 2000}},
        ReturnConsumedCapacity="TOTAL",
    )
    assert put["ConsumedCapacity"]["TableName"] == "cap"
    assert put["ConsumedCapacity"]["CapacityUnits"] == 2.0
    got = ddb.get_item(TableName="cap", Key={"pk": {"S": "a"}, "sk": {"N": "1"}}, ReturnConsumedCapacity="TOTAL")
    assert got["ConsumedCapacity"]["CapacityUnits"] == 0.5


def test_batch_write_and_get(ddb):
    create_table(ddb, "batch")
    requests = [{"PutRequest": {"Item": {"pk": {"S": f"p{i % 5}"}, "sk": {"N": str(i)}, "v": {"S": "x" * i}}}} for i in range(25)]
    result = ddb.batch_write_item(RequestItems={"batch": requests})
    assert result["UnprocessedItems"] == {}

    keys = [{"pk": {"S": f"p{i % 5}"}, "sk": {"N": str(i)}} for i in range(25)]
    keys.append({"pk": {"S": "missing"}, "sk": {"N": "0"}})
    got = ddb.batch_get_item(RequestItems={"batch": {"Keys": keys, "ConsistentRead": True}})
    assert got["UnprocessedKeys"] == {}
    items = got["Responses"]["batch"]
    assert sorted(int(item["sk"]["N"]) for item in items) == list(range(25))
    assert all(item["v"]["S"] == "x" * int(item["sk"]["N"]) for item in items)

    deletes = [{"DeleteRequest": {"Key": key}} for key in keys[:10]]
    assert ddb.batch_write_item(RequestItems={"batch": deletes})["UnprocessedItems"] == {}
    got = ddb.batch_get_item(RequestItems={"batch": {"Keys": keys[:12]}})
    assert sorted(int(item["sk"]["N"]) for item in got["Responses"]["batch"]) == [10, 11]


def test_batch_limits_are_validation_errors(ddb):
    create_table(ddb, "limits")
    too_many = [{"PutRequest": {"Item": {"pk": {"S": "p"}, "sk": {"N": str(i)}}}} for i in range(26)]
    with pytest.raises(ClientError) as error:
        ddb.batch_write_item(RequestItems={"limits": too_many})
    assert error.value.response["Error"]["Code"] == "ValidationException"
    duplicates = [{"pk": {"S": "p"}, "sk": {"N": "1"}}, {"pk": {"S": "p"}, "sk": {"N": "1.0"}}]
    with pytest.raises(ClientError) as error:
        ddb.batch_get_item(RequestItems={"limits": {"Keys": duplicates}})
    assert error.value.response["Error"] == {
        "Code": "ValidationException",
        "Message": "Provided list of item keys contains duplicates",
    }


def test_list_tables_across_pages(ddb):
    names = [f"table{i:02d}" for i in range(7)]
    for name in reversed(names):
        ddb.create_table(TableName=name, **HASH_RANGE)

    seen, start, pages = [], None, 0
    while True:
        kwargs = {"Limit": 3}
        if start:
            kwargs["ExclusiveStartTableName"] = start
        page = ddb.list_tables(**kwargs)
        pages += 1
        seen += page["TableNames"]
        start = page.get("LastEvaluatedTableName")
        if not start:
            break
    assert seen == names
    assert pages == 3

    paginated = []
    for page in ddb.get_paginator("list_tables").paginate(PaginationConfig={"PageSize": 2}):
        paginated += page["TableNames"]
    assert paginated == names
    assert "LastEvaluatedTableName" not in ddb.list_tables(Limit=7)


def test_errors_are_typed(ddb):
    with pytest.raises(ddb.exceptions.ResourceNotFoundException) as error:
        ddb.describe_table(TableName="nope")
    assert error.value.response["Error"]["Message"] == "Requested resource not found: Table: nope not found"
    assert error.value.response["ResponseMetadata"]["HTTPStatusCode"] == 400

    with pytest.raises(ddb.exceptions.ResourceNotFoundException) as error:
        ddb.get_item(TableName="nope", Key={"pk": {"S": "a"}})
    assert error.value.response["Error"]["Message"] == "Requested resource not found"

    create_table(ddb, "errs")
    with pytest.raises(ddb.exceptions.ResourceInUseException):
        ddb.create_table(TableName="errs", **HASH_RANGE)
    with pytest.raises(ClientError) as error:
        ddb.put_item(TableName="errs", Item={"pk": {"S": "a"}, "sk": {"N": "not-a-number"}})
    assert error.value.response["Error"] == {
        "Code": "ValidationException",
        # PutItem's own messages carry us-east-1's envelope (docs/behaviour.md §12).
        "Message": "1 validation error detected: The parameter cannot be converted to a numeric value: not-a-number",
    }
    with pytest.raises(ClientError) as error:
        ddb.get_item(TableName="errs", Key={"pk": {"S": "a"}})
    assert error.value.response["Error"]["Message"] == "The provided key element does not match the schema"
    with pytest.raises(ClientError) as error:
        ddb.put_item(TableName="errs", Item={"pk": {"S": "a"}, "sk": {"N": "1"}, "big": {"S": "x" * 409600}})
    assert error.value.response["Error"]["Message"] == "Item size has exceeded the maximum allowed size"
    # Nothing was written by the refused requests, and the server is still up.
    assert "Item" not in ddb.get_item(TableName="errs", Key={"pk": {"S": "a"}, "sk": {"N": "1"}})


def test_crc32_and_request_id_on_every_response(dynapage):
    ddb = dynapage.client()
    seen = record_responses(ddb)
    ddb.list_tables()
    create_table(ddb, "crc")
    ddb.put_item(TableName="crc", Item={"pk": {"S": "\u00e9t\u00e9"}, "sk": {"N": "1"}})
    ddb.get_item(TableName="crc", Key={"pk": {"S": "\u00e9t\u00e9"}, "sk": {"N": "1"}})
    with pytest.raises(ClientError):
        ddb.describe_table(TableName="missing")
    assert len(seen) >= 5
    assert any(status == 400 for status, _, _ in seen)
    for status, headers, body in seen:
        lower = {k.lower(): v for k, v in headers.items()}
        assert lower["content-type"] == "application/x-amz-json-1.0"
        assert int(lower["x-amz-crc32"]) == zlib.crc32(body) & 0xFFFFFFFF, (status, body)
        assert len(lower["x-amzn-requestid"]) == 52


def test_resource_api_with_decimals(dynapage):
    ddb = dynapage.client()
    create_table(ddb, "res")
    table = dynapage.resource().Table("res")
    table.put_item(Item={"pk": "a", "sk": Decimal("1E+3"), "price": Decimal("19.990"), "qty": 3, "tags": {"x", "y"}})
    item = table.get_item(Key={"pk": "a", "sk": 1000})["Item"]
    assert item == {"pk": "a", "sk": Decimal("1000"), "price": Decimal("19.99"), "qty": Decimal("3"), "tags": {"x", "y"}}
    with table.batch_writer() as writer:
        for i in range(40):  # more than one BatchWriteItem call
            writer.put_item(Item={"pk": "batch", "sk": i})
    got = dynapage.client().batch_get_item(
        RequestItems={"res": {"Keys": [{"pk": {"S": "batch"}, "sk": {"N": str(i)}} for i in range(1, 41)]}}
    )
    assert len(got["Responses"]["res"]) == 39  # sk 40 was never written


def test_many_idle_clients_do_not_starve_new_ones(dynapage):
    # Applications (and test suites creating a client per test) keep idle pooled connections open; a new client
    # must still be answered promptly, however many idle connections there are.
    clients = []
    try:
        for i in range(48):
            client = dynapage.client(read_timeout=5, retries={"mode": "legacy", "max_attempts": 1})
            t0 = time.monotonic()
            try:
                client.list_tables()
            except (ReadTimeoutError, ConnectTimeoutError):
                pytest.fail(f"client {i} got no answer within 5 s with {len(clients)} idle connections open", pytrace=False)
            elapsed = time.monotonic() - t0
            assert elapsed < 2.0, f"client {i} waited {elapsed:.1f}s with {len(clients)} idle connections open"
            clients.append(client)
    finally:
        for client in clients:
            client.close()


def test_health_check(dynapage):
    with urllib.request.urlopen(dynapage.endpoint + "/", timeout=5) as response:
        assert response.status == 200
        assert response.read().decode() == f"healthy: 127.0.0.1:{dynapage.port} "


# --- AWS CLI ---------------------------------------------------------------------------------------------------


def test_aws_cli(aws):
    created = json.loads(
        aws(
            "create-table",
            "--table-name", "cli",
            "--attribute-definitions", "AttributeName=pk,AttributeType=S",
            "--key-schema", "AttributeName=pk,KeyType=HASH",
            "--billing-mode", "PAY_PER_REQUEST",
        ).stdout
    )
    assert created["TableDescription"]["TableStatus"] == "ACTIVE"
    aws("wait", "table-exists", "--table-name", "cli")

    aws("put-item", "--table-name", "cli", "--item", json.dumps({"pk": {"S": "a"}, "n": {"N": "1.50"}, "l": {"L": [{"BOOL": True}]}}))
    got = json.loads(aws("get-item", "--table-name", "cli", "--key", '{"pk":{"S":"a"}}', "--consistent-read").stdout)
    assert got["Item"] == {"pk": {"S": "a"}, "n": {"N": "1.5"}, "l": {"L": [{"BOOL": True}]}}

    batch = {"cli": [{"PutRequest": {"Item": {"pk": {"S": f"b{i}"}}}} for i in range(10)]}
    written = json.loads(aws("batch-write-item", "--request-items", json.dumps(batch)).stdout)
    assert written["UnprocessedItems"] == {}
    keys = {"cli": {"Keys": [{"pk": {"S": f"b{i}"}} for i in range(10)]}}
    fetched = json.loads(aws("batch-get-item", "--request-items", json.dumps(keys)).stdout)
    assert sorted(item["pk"]["S"] for item in fetched["Responses"]["cli"]) == [f"b{i}" for i in range(10)]

    for name in ("cli2", "cli3", "cli4"):
        aws("create-table", "--table-name", name, "--attribute-definitions", "AttributeName=pk,AttributeType=S",
            "--key-schema", "AttributeName=pk,KeyType=HASH", "--billing-mode", "PAY_PER_REQUEST")
    # The CLI follows LastEvaluatedTableName itself when pages are small.
    listed = json.loads(aws("list-tables", "--page-size", "1").stdout)
    assert listed["TableNames"] == ["cli", "cli2", "cli3", "cli4"]
    first = json.loads(aws("list-tables", "--max-items", "2").stdout)
    assert first["TableNames"] == ["cli", "cli2"]
    assert "NextToken" in first
    rest = json.loads(aws("list-tables", "--starting-token", first["NextToken"]).stdout)
    assert rest["TableNames"] == ["cli3", "cli4"]

    missing = aws("describe-table", "--table-name", "nope", check=False)
    assert missing.returncode != 0
    assert "ResourceNotFoundException" in missing.stderr
    assert "Requested resource not found: Table: nope not found" in missing.stderr

    bad = aws("put-item", "--table-name", "cli", "--item", '{"pk":{"S":""}}', check=False)
    assert bad.returncode != 0
    assert "ValidationException" in bad.stderr

    deleted = json.loads(aws("delete-table", "--table-name", "cli4").stdout)
    assert deleted["TableDescription"]["TableStatus"] == "DELETING"


# --- persistence, signals, command line ------------------------------------------------------------------------


def test_data_survives_sigkill(start_dynapage, tmp_path):
    db_path = str(tmp_path / "db")
    server = start_dynapage("--db-path", db_path)
    ddb = server.client()
    create_table(ddb, "durable")
    ddb.create_table(
        TableName="other",
        AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "N"}],
        KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
        BillingMode="PAY_PER_REQUEST",
    )
    for chunk in range(4):
        requests = [
            {"PutRequest": {"Item": {"pk": {"S": f"p{i}"}, "sk": {"N": str(i)}, "v": {"S": "v" * i}}}}
            for i in range(chunk * 25, chunk * 25 + 25)
        ]
        ddb.batch_write_item(RequestItems={"durable": requests})
    ddb.put_item(TableName="other", Item={"id": {"N": "7"}, "big": {"S": "b" * 300000}})
    ddb.delete_item(TableName="durable", Key={"pk": {"S": "p0"}, "sk": {"N": "0"}})
    ddb.create_table(TableName="dropped", **HASH_RANGE)
    ddb.delete_table(TableName="dropped")

    server.proc.send_signal(signal.SIGKILL)
    server.proc.wait(timeout=10)
    assert server.proc.returncode == -signal.SIGKILL

    again = start_dynapage("--db-path", db_path)
    ddb = again.client()
    assert ddb.list_tables()["TableNames"] == ["durable", "other"]
    keys = [{"pk": {"S": f"p{i}"}, "sk": {"N": str(i)}} for i in range(100)]
    found = []
    for start in range(0, 100, 50):
        found += ddb.batch_get_item(RequestItems={"durable": {"Keys": keys[start:start + 50]}})["Responses"]["durable"]
    assert sorted(int(item["sk"]["N"]) for item in found) == list(range(1, 100))
    assert all(item["v"]["S"] == "v" * int(item["sk"]["N"]) for item in found)
    assert ddb.get_item(TableName="other", Key={"id": {"N": "7"}})["Item"]["big"]["S"] == "b" * 300000
    assert ddb.describe_table(TableName="durable")["Table"]["ItemCount"] == 99
    # Writes keep working after the restart, and a clean stop keeps them too.
    ddb.put_item(TableName="durable", Item={"pk": {"S": "new"}, "sk": {"N": "1"}})
    ddb.close()  # (an idle client connection must not hold up the exit either: test_clean_exit_on_signal)
    code, out = again.stop(signal.SIGTERM)
    assert code == 0, again.stderr()
    third = start_dynapage("--db-path", db_path)
    assert "Item" in third.client().get_item(TableName="durable", Key={"pk": {"S": "new"}, "sk": {"N": "1"}})


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_clean_exit_on_signal(start_dynapage, sig):
    server = start_dynapage()
    ddb = server.client()
    ddb.list_tables()  # the client keeps its connection open, as an application's client does
    t0 = time.monotonic()
    code, out = server.stop(sig, timeout=5.0)
    assert code == 0, server.stderr()
    assert "stopped" in out
    assert time.monotonic() - t0 < 5.0
    ddb.close()


def test_signal_right_after_start_up_is_not_lost(start_dynapage):
    # A stop that arrives as the listener starts (a test harness that starts a server and stops it at once) must
    # still stop it: cpp-httplib ignores a stop() that comes before its listener loop runs.
    for _ in range(20):
        server = start_dynapage()
        code, out = server.stop(signal.SIGTERM, timeout=5.0)
        assert code == 0, server.stderr()
        assert "stopped" in out


def test_busy_port_is_an_error(start_dynapage):
    server = start_dynapage()
    result = subprocess.run([dynapage_binary(), "--port", str(server.port)], capture_output=True, text=True, timeout=10)
    assert result.returncode != 0
    assert "cannot listen" in result.stderr


def test_clean_exit_without_clients(start_dynapage):
    server = start_dynapage()
    client = server.client()
    client.list_tables()
    client.close()
    code, out = server.stop(signal.SIGTERM, timeout=5.0)
    assert code == 0, server.stderr()
    assert "stopped" in out


def test_ready_line_and_loopback_default(start_dynapage):
    server = start_dynapage()
    assert server.host == "127.0.0.1"
    assert "in memory" in server.ready_line


def test_startup_is_fast_and_idle_memory_small(start_dynapage):
    t0 = time.monotonic()
    server = start_dynapage()
    server.client().list_tables()
    elapsed = time.monotonic() - t0
    with open(f"/proc/{server.proc.pid}/status") as status:
        rss_kb = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
    # Generous bounds for a loaded CI machine; typical figures are a few milliseconds and ~10-20 MB.
    assert elapsed < 3.0, f"first request answered after {elapsed:.3f}s"
    assert rss_kb < 200 * 1024, f"idle RSS {rss_kb} kB"


def run_binary(*args):
    return subprocess.run([dynapage_binary(), *args], capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)


def test_help_and_version():
    result = run_binary("--help")
    assert result.returncode == 0
    flags = ("--port", "--host", "--db-path", "--max-page-bytes", "--no-client-cpu-affinity", "--help", "--version")
    for flag in flags:
        assert flag in result.stdout
    result = run_binary("--version")
    assert result.returncode == 0
    assert result.stdout.startswith("dynapage ")
    assert any(ch.isdigit() for ch in result.stdout)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--bogus"], "unknown option"),
        (["--port"], "--port"),
        (["--port", "abc"], "--port"),
        (["--port", "70000"], "--port"),
        (["--max-page-bytes", "0"], "--max-page-bytes"),
        (["--db-path"], "--db-path"),
        (["--no-client-cpu-affinity=yes"], "unknown option"),
    ],
)
def test_bad_flags_fail_with_a_message(args, message):
    result = run_binary(*args)
    assert result.returncode != 0
    assert message in result.stderr
    assert result.stdout == ""


def single_cpu_threads(pid):
    """The CPU each thread of pid is pinned to, for the threads allowed on one CPU only."""
    pinned = []
    for tid in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{tid}/status") as status:
            allowed = next(line.split()[1] for line in status if line.startswith("Cpus_allowed_list:"))
        if allowed.isdigit():
            pinned.append(int(allowed))
    return pinned


@pytest.mark.parametrize("follow", [True, False])
def test_a_connection_runs_on_the_cpu_its_client_sends_from(start_dynapage, follow):
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        pytest.skip("needs two CPUs to tell a pinned thread from a free one")
    server = start_dynapage() if follow else start_dynapage("--no-client-cpu-affinity")
    client = server.client()
    before = os.sched_getaffinity(0)
    try:
        # The client's thread sends from the last CPU, then from the first; the server looks its client's CPU up when
        # a connection's first request arrives and at every 16th receive after it (a request is one receive here).
        for cpu, requests in ((cpus[-1], 1), (cpus[0], 16)):
            os.sched_setaffinity(0, {cpu})
            for _ in range(requests):
                client.list_tables()
            # The thread pins itself after it has sent the answer, so the client may look before it has.
            expected = [cpu] if follow else []
            deadline = time.monotonic() + 2
            while single_cpu_threads(server.proc.pid) != expected and time.monotonic() < deadline:
                time.sleep(0.01)
            assert single_cpu_threads(server.proc.pid) == expected
    finally:
        os.sched_setaffinity(0, before)
        client.close()
