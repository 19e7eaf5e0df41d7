"""Export of a table into a local S3 folder (--s3-dir), through boto3 and the AWS CLI (docs/export-import.md)."""

import datetime
import gzip
import hashlib
import json
import http.client
import os
import threading
import time

import botocore.exceptions
import pytest

from conftest import CREDENTIALS

TABLE = "exported"


def make_table(ddb, name=TABLE, pitr=True):
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                           {"AttributeName": "sk", "AttributeType": "N"}],
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                                {"AttributeName": "sk", "KeyType": "RANGE"}])
    if pitr:
        ddb.update_continuous_backups(TableName=name,
                                      PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
    return ddb.describe_table(TableName=name)["Table"]["TableArn"]


def sample_items(count):
    items = []
    for i in range(count):
        items.append({"pk": {"S": f"user{i % 7}"}, "sk": {"N": str(i)}, "name": {"S": f"name \"{i}\"\n"},
                      "bin": {"B": bytes([i % 256, 0, 255])}, "tags": {"SS": ["a", f"t{i}"]},
                      "nums": {"NS": ["1.5", str(i)]}, "flag": {"BOOL": i % 2 == 0}, "nothing": {"NULL": True},
                      "doc": {"M": {"list": {"L": [{"N": "-0.25"}, {"S": "x"}, {"BS": [b"\x01", b"\x02"]}]}}}})
    return items


def put_all(ddb, items, name=TABLE):
    for item in items:
        ddb.put_item(TableName=name, Item=item)


def checksum(item):
    """A checksum of one item in the low-level form boto3 returns (binary as bytes), order independent."""
    def canonical(value):
        if isinstance(value, dict):
            return {k: canonical(v) for k, v in sorted(value.items())}
        if isinstance(value, list):
            return [canonical(v) for v in value]
        if isinstance(value, (bytes, bytearray)):
            return "b64:" + bytes(value).hex()
        return value
    normal = canonical(item)
    for attr in normal.values():  # sets compare as sets
        for kind in ("SS", "NS", "BS"):
            if kind in attr:
                attr[kind] = sorted(attr[kind])
    return hashlib.sha256(json.dumps(normal, sort_keys=True).encode()).hexdigest()


def wire_checksum(item):
    """checksum() of an item in wire JSON (binary as base64), as export files hold it."""
    import base64

    def decode(value):
        if "B" in value:
            return {"B": base64.b64decode(value["B"])}
        if "BS" in value:
            return {"BS": [base64.b64decode(v) for v in value["BS"]]}
        if "L" in value:
            return {"L": [decode(v) for v in value["L"]]}
        if "M" in value:
            return {"M": {k: decode(v) for k, v in value["M"].items()}}
        return value
    return checksum({k: decode(v) for k, v in item.items()})


def read_export(folder, description):
    """The items of a completed export's data files, from its manifests, checked against them."""
    manifest_key = description["ExportManifest"]
    summary_text = open(os.path.join(folder, manifest_key), "rb").read()
    checksum_text = open(os.path.join(folder, manifest_key.replace(".json", ".checksum"))).read()
    assert checksum_text == hashlib.md5(summary_text).hexdigest()
    summary = json.loads(summary_text)
    files_text = open(os.path.join(folder, summary["manifestFilesS3Key"]), "rb").read()
    items = []
    for line in files_text.decode().splitlines():
        entry = json.loads(line)
        data = open(os.path.join(folder, entry["dataFileS3Key"]), "rb").read()
        assert hashlib.md5(data).hexdigest() == entry["etag"]
        lines = gzip.decompress(data).decode().splitlines()
        assert len(lines) == entry["itemCount"]
        items += lines
    return summary, items


@pytest.fixture
def s3(tmp_path):
    root = tmp_path / "s3"
    (root / "bucket").mkdir(parents=True)
    return root


def test_full_export_writes_dynamodb_layout_with_every_item(start_dynapage, s3):
    server = start_dynapage("--s3-dir", str(s3))
    ddb = server.client()
    arn = make_table(ddb)
    items = sample_items(50)
    put_all(ddb, items)
    started = ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="bucket", S3Prefix="backups/daily",
                                                ClientToken="token-1")["ExportDescription"]
    assert started["ExportStatus"] == "IN_PROGRESS"
    assert started["ExportFormat"] == "DYNAMODB_JSON" and started["S3SseAlgorithm"] == "AES256"
    assert "ExportType" not in started and "S3BucketOwner" not in started
    export_id = started["ExportArn"].rsplit("/", 1)[1]
    assert started["ExportArn"] == f"{arn}/export/{export_id}"
    assert len(export_id) == 23 and export_id[14] == "-"
    done = ddb.describe_export(ExportArn=started["ExportArn"])["ExportDescription"]
    assert done["ExportStatus"] == "COMPLETED", done
    assert done["ItemCount"] == 50
    assert done["ExportManifest"] == f"backups/daily/AWSDynamoDB/{export_id}/manifest-summary.json"
    base = s3 / "bucket" / "backups" / "daily" / "AWSDynamoDB" / export_id
    assert (base / "_started").read_bytes() == b""
    assert (base / "manifest-files.checksum").read_text() == hashlib.md5(
        (base / "manifest-files.json").read_bytes()).hexdigest()
    summary, lines = read_export(s3 / "bucket", done)
    assert summary["version"] == "2020-06-30" and summary["itemCount"] == 50 and summary["outputFormat"] == "DYNAMODB_JSON"
    assert summary["exportArn"] == started["ExportArn"] and summary["s3Prefix"] == "backups/daily"
    exported = sorted(wire_checksum(json.loads(line)["Item"]) for line in lines)
    assert exported == sorted(checksum(item) for item in items)
    # The same request again (ClientToken): the same export, not a second one.
    again = ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="bucket", S3Prefix="backups/daily",
                                              ClientToken="token-1")["ExportDescription"]
    assert again["ExportArn"] == started["ExportArn"]
    with pytest.raises(botocore.exceptions.ClientError) as conflict:
        ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="bucket", ClientToken="token-1")
    assert conflict.value.response["Error"]["Code"] == "ExportConflictException"


def test_ion_export_lines(start_dynapage, s3):
    server = start_dynapage("--s3-dir", str(s3))
    ddb = server.client()
    arn = make_table(ddb)
    ddb.put_item(TableName=TABLE, Item={"pk": {"S": "a"}, "sk": {"N": "103"}, "tags": {"SS": ["x", "y"]},
                                        "b": {"B": b"bar"}})
    arn_export = ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="bucket",
                                                   ExportFormat="ION")["ExportDescription"]["ExportArn"]
    done = ddb.describe_export(ExportArn=arn_export)["ExportDescription"]
    summary, lines = read_export(s3 / "bucket", done)
    assert summary["outputFormat"] == "ION"
    assert lines == ['$ion_1_0 {Item:{"b":{{YmFy}},"pk":"a","sk":103.,"tags":$dynamodb_SS::["x","y"]}}']


def test_export_snapshot_of_an_empty_table_has_one_empty_data_file(start_dynapage, s3):
    ddb = start_dynapage("--s3-dir", str(s3)).client()
    arn = make_table(ddb)
    export_arn = ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="bucket")["ExportDescription"]["ExportArn"]
    done = ddb.describe_export(ExportArn=export_arn)["ExportDescription"]
    assert done["ExportStatus"] == "COMPLETED" and done["ItemCount"] == 0 and done["BilledSizeBytes"] == 0
    _, lines = read_export(s3 / "bucket", done)
    assert lines == []


def test_export_time_in_the_past_exports_the_table_as_it_was_then(start_dynapage, s3):
    """ExportTime names an instant of the point-in-time window: the items written, changed and deleted after it are
    exported as they were (docs/export-import.md). Whole seconds, as botocore sends them. LatestRestorableDateTime
    is now (lag 0), so an instant seconds ago may be exported."""
    server = start_dynapage("--s3-dir", str(s3), "--pitr-latest-lag-seconds", "0")
    ddb = server.client()

    def set_clock(epoch_ms):
        server.admin_json("POST", "/_dynapage/clock?scope=all", {"set_epoch_ms": epoch_ms})

    base = (server.admin_json("POST", "/_dynapage/clock", {})["epoch_ms"] // 1000 + 10) * 1000
    set_clock(base)
    arn = make_table(ddb)
    then = sample_items(12)
    set_clock(base + 2000)
    put_all(ddb, then)
    set_clock(base + 6000)  # after the instant exported, base + 4 s: changes, a deletion, a new item
    for item in then[:5]:
        ddb.put_item(TableName=TABLE, Item=dict(item, name={"S": "changed"}))
    ddb.delete_item(TableName=TABLE, Key={"pk": then[7]["pk"], "sk": then[7]["sk"]})
    ddb.put_item(TableName=TABLE, Item={"pk": {"S": "late"}, "sk": {"N": "1"}})
    export_time = datetime.datetime.fromtimestamp(base / 1000 + 4, tz=datetime.timezone.utc)
    started = ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="bucket", ExportTime=export_time)
    done = ddb.describe_export(ExportArn=started["ExportDescription"]["ExportArn"])["ExportDescription"]
    assert done["ExportStatus"] == "COMPLETED" and done["ItemCount"] == 12, done
    _, lines = read_export(s3 / "bucket", done)
    assert sorted(wire_checksum(json.loads(line)["Item"]) for line in lines) == sorted(checksum(i) for i in then)
    # Without ExportTime: the table as it is now.
    now = ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="bucket")["ExportDescription"]["ExportArn"]
    assert ddb.describe_export(ExportArn=now)["ExportDescription"]["ItemCount"] == 12  # 12 - 1 deleted + 1 new


def test_export_time_after_latest_restorable_is_refused(start_dynapage, s3):
    """LatestRestorableDateTime trails now by 300 s (DynamoDB's lag): a later ExportTime is refused."""
    server = start_dynapage("--s3-dir", str(s3))
    ddb = server.client()
    arn = make_table(ddb)
    now = server.admin_json("POST", "/_dynapage/clock?scope=all", {"advance_ms": 3600 * 1000})["epoch_ms"] / 1000
    assert error_of(ddb.export_table_to_point_in_time, TableArn=arn, S3Bucket="bucket", ExportTime=now - 60) == (
        "InvalidExportTimeException", "Point in Time Recovery is not available for specified export time")
    done = ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="bucket", ExportTime=now - 600)
    assert done["ExportDescription"]["ExportStatus"] == "IN_PROGRESS"


def test_incremental_export_holds_each_changed_item_once_with_its_images(start_dynapage, s3):
    """An incremental export writes one line per item written in [ExportFromTime, ExportToTime): its final state
    over the window, with the old image at the window's start (docs/export-import.md)."""
    server = start_dynapage("--s3-dir", str(s3))
    ddb = server.client()
    export = server.raw_client().export_table_to_point_in_time  # Debian's botocore model predates incremental

    def set_clock(epoch_ms):
        server.admin_json("POST", "/_dynapage/clock?scope=all", {"set_epoch_ms": epoch_ms})

    def item(pk, **more):
        return dict({"pk": {"S": pk}, "sk": {"N": "1"}}, **{k: {"S": v} for k, v in more.items()})

    base = (server.admin_json("POST", "/_dynapage/clock", {})["epoch_ms"] // 1000 + 10) * 1000
    set_clock(base)
    arn = make_table(ddb)
    for pk in ("keep", "upd", "del"):
        ddb.put_item(TableName=TABLE, Item=item(pk, v="original"))
    start = base + 60_000  # the window: [start, start + 20 min)
    end = start + 20 * 60_000
    set_clock(start + 1000)
    ddb.put_item(TableName=TABLE, Item=item("upd", v="first"))
    ddb.delete_item(TableName=TABLE, Key={"pk": {"S": "del"}, "sk": {"N": "1"}})
    ddb.put_item(TableName=TABLE, Item=item("new", v="new"))
    ddb.put_item(TableName=TABLE, Item=item("flash", v="gone again"))
    ddb.delete_item(TableName=TABLE, Key={"pk": {"S": "flash"}, "sk": {"N": "1"}})
    set_clock(start + 2000)
    ddb.put_item(TableName=TABLE, Item=item("upd", v="second"))
    set_clock(end)  # after the window: not in the export, and the images are those at its end
    ddb.put_item(TableName=TABLE, Item=item("upd", v="third"))
    ddb.put_item(TableName=TABLE, Item=item("after", v="after"))
    ddb.delete_item(TableName=TABLE, Key={"pk": {"S": "new"}, "sk": {"N": "1"}})
    set_clock(end + 5000)

    def run(view):
        started = export(TableArn=arn, S3Bucket="bucket", S3Prefix="incr", ExportType="INCREMENTAL_EXPORT",
                         IncrementalExportSpecification={"ExportFromTime": start / 1000, "ExportToTime": end / 1000,
                                                         "ExportViewType": view})["ExportDescription"]
        done = ddb.describe_export(ExportArn=started["ExportArn"])["ExportDescription"]
        assert done["ExportStatus"] == "COMPLETED" and done["ItemCount"] == 3, done
        assert done["BilledSizeBytes"] == 10_000_000
        summary, lines = read_export(s3 / "bucket", done)
        assert summary["exportType"] == "INCREMENTAL_EXPORT" and summary["outputView"] == view
        assert all(f.startswith("incr/AWSDynamoDB/data/")
                   for f in (json.loads(x)["dataFileS3Key"] for x in
                             open(s3 / "bucket" / summary["manifestFilesS3Key"]).read().splitlines()))
        return {json.loads(line)["Keys"]["pk"]["S"]: json.loads(line) for line in lines}

    records = run("NEW_AND_OLD_IMAGES")
    assert sorted(records) == ["del", "new", "upd"]
    assert records["upd"]["NewImage"]["v"] == {"S": "second"} and records["upd"]["OldImage"]["v"] == {"S": "original"}
    written = int(records["upd"]["Metadata"]["WriteTimestampMicros"]["N"])  # its last write in the window
    assert (start + 2000) * 1000 <= written < (start + 3000) * 1000
    assert records["upd"]["Keys"] == {"pk": {"S": "upd"}, "sk": {"N": "1"}}
    assert "NewImage" not in records["del"] and records["del"]["OldImage"]["v"] == {"S": "original"}
    assert records["new"]["NewImage"]["v"] == {"S": "new"} and "OldImage" not in records["new"]
    records = run("NEW_IMAGE")
    assert all("OldImage" not in r for r in records.values()) and "NewImage" not in records["del"]


def test_missing_bucket_fails_the_export_not_the_request(start_dynapage, s3):
    ddb = start_dynapage("--s3-dir", str(s3)).client()
    arn = make_table(ddb)
    started = ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="nobucket")["ExportDescription"]
    assert started["ExportStatus"] == "IN_PROGRESS"
    done = ddb.describe_export(ExportArn=started["ExportArn"])["ExportDescription"]
    assert done["ExportStatus"] == "FAILED" and done["FailureCode"] == "S3NoSuchBucket"
    assert done["FailureMessage"].startswith("The specified bucket does not exist")
    assert not (s3 / "nobucket").exists()


def error_of(call, **kwargs):
    with pytest.raises(botocore.exceptions.ClientError) as caught:
        call(**kwargs)
    return caught.value.response["Error"]["Code"], caught.value.response["Error"]["Message"]


def test_export_sync_errors_in_dynamodb_order(start_dynapage, s3):
    server = start_dynapage("--s3-dir", str(s3))
    ddb = server.client()
    arn = make_table(ddb, pitr=False)
    # The raw client: Debian's botocore model predates incremental exports.
    export = server.raw_client().export_table_to_point_in_time
    assert error_of(export, TableArn=TABLE, S3Bucket="bucket") == (
        "ValidationException", "One or more parameter values were invalid: tableArn is not a valid ARN")
    assert error_of(export, TableArn=arn + "x", S3Bucket="bucket") == (
        "TableNotFoundException", f"Table not found: {arn}x")
    assert error_of(export, TableArn=arn, S3Bucket="bucket") == (
        "PointInTimeRecoveryUnavailableException", f"Point in time recovery is not enabled for table '{TABLE}'")
    ddb.update_continuous_backups(TableName=TABLE, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
    assert error_of(export, TableArn=arn, S3Bucket="bucket", ExportTime=time.time() + 3600) == (
        "InvalidExportTimeException", "Export Time is invalid")
    assert error_of(export, TableArn=arn, S3Bucket="bucket",
                    IncrementalExportSpecification={"ExportFromTime": time.time() - 7200}) == (
        "ValidationException", "Invalid Request: Export Type expected to be Incremental Export when incremental "
        "export specification is provided")
    assert error_of(export, TableArn=arn, S3Bucket="bucket", ExportType="FULL_EXPORT",
                    IncrementalExportSpecification={"ExportFromTime": time.time() - 7200})[1] == (
        "Invalid Request: When Export Type is Full Export , Incremental Export Specification should not be provided")
    assert error_of(export, TableArn=arn, S3Bucket="bucket", ExportType="INCREMENTAL_EXPORT")[1] == (
        "Invalid Request: Incremental Export Specification expected when export type is set as Incremental Export")
    assert error_of(export, TableArn=arn, S3Bucket="bucket", ExportType="INCREMENTAL_EXPORT",
                    IncrementalExportSpecification={"ExportToTime": time.time()})[1] == (
        "Invalid Request: ExportFromTime must be provided in IncrementalExportSpecification")
    assert error_of(export, TableArn=arn, S3Bucket="bucket", ExportType="INCREMENTAL_EXPORT",
                    IncrementalExportSpecification={"ExportFromTime": time.time() - 7200})[0] == (
        "InvalidExportTimeException")
    assert error_of(export, TableArn=arn, S3Bucket="bucket", S3SseKmsKeyId="key") == (
        "ValidationException", "Invalid Request: KMS Key Id is not supported for this encryption type")


def test_without_s3_dir_export_is_refused_clearly(dynapage):
    ddb = dynapage.client()
    arn = make_table(ddb)
    code, message = error_of(ddb.export_table_to_point_in_time, TableArn=arn, S3Bucket="bucket")
    assert code == "ValidationException" and "--s3-dir" in message


def test_list_exports_pages_newest_first_and_describe_errors(start_dynapage, s3):
    server = start_dynapage("--s3-dir", str(s3))
    ddb = server.client()
    arn = make_table(ddb)
    arns = [ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="bucket")["ExportDescription"]["ExportArn"]
            for _ in range(3)]
    first = ddb.list_exports(TableArn=arn, MaxResults=2)
    assert [e["ExportArn"] for e in first["ExportSummaries"]] == arns[::-1][:2]
    assert first["ExportSummaries"][0]["ExportStatus"] == "COMPLETED"
    raw_first = server.raw_client().list_exports(TableArn=arn, MaxResults=1)  # ExportType: newer than Debian's model
    assert raw_first["ExportSummaries"][0]["ExportType"] == "FULL_EXPORT"
    rest = ddb.list_exports(TableArn=arn, MaxResults=2, NextToken=first["NextToken"])
    assert [e["ExportArn"] for e in rest["ExportSummaries"]] == arns[:1] and "NextToken" not in rest
    assert error_of(ddb.list_exports, NextToken="abc") == (
        "ValidationException", "Invalid Request: Provided nextToken is invalid: abc")
    missing = arn + "/export/01489602797149-73d8d5bc"
    assert error_of(ddb.describe_export, ExportArn=missing) == (
        "ExportNotFoundException", f"Export not found: Export not found: {missing}")
    assert error_of(ddb.describe_export, ExportArn=arn)[1] == "Invalid Export ARN"
    ddb.delete_table(TableName=TABLE)
    assert ddb.list_exports(TableArn=arn)["ExportSummaries"] == []
    assert ddb.describe_export(ExportArn=arns[0])["ExportDescription"]["ExportStatus"] == "COMPLETED"


def test_aws_cli_export(start_dynapage, s3, tmp_path):
    import shutil
    import subprocess
    server = start_dynapage("--s3-dir", str(s3))
    arn = make_table(server.client())
    put_all(server.client(), sample_items(3))
    home = tmp_path / "aws-home"
    home.mkdir()
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "AWS_ACCESS_KEY_ID": CREDENTIALS["aws_access_key_id"],
           "AWS_SECRET_ACCESS_KEY": CREDENTIALS["aws_secret_access_key"], "AWS_DEFAULT_REGION": CREDENTIALS["region_name"], "AWS_PAGER": "",
           "AWS_CONFIG_FILE": str(home / "config"), "AWS_SHARED_CREDENTIALS_FILE": str(home / "credentials"),
           "AWS_EC2_METADATA_DISABLED": "true"}
    for name in ("PYENV_VERSION", "PYENV_ROOT", "LANG", "LC_ALL"):
        if name in os.environ:
            env[name] = os.environ[name]
    aws = os.environ.get("AWS_CLI") or shutil.which("aws")
    assert aws, "the AWS CLI (aws) is not installed"

    def run(*args):
        out = subprocess.run([aws, "dynamodb", *args, "--endpoint-url", server.endpoint, "--output", "json"],
                             env=env, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout)

    started = run("export-table-to-point-in-time", "--table-arn", arn, "--s3-bucket", "bucket")
    described = run("describe-export", "--export-arn", started["ExportDescription"]["ExportArn"])
    assert described["ExportDescription"]["ExportStatus"] == "COMPLETED"
    assert described["ExportDescription"]["ItemCount"] == 3


# Import.

PARAMETERS = {"TableName": "imported", "BillingMode": "PAY_PER_REQUEST",
              "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                       {"AttributeName": "sk", "AttributeType": "N"}],
              "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}]}


def scan_all(ddb, name):
    items, start = [], {}
    while True:
        page = ddb.scan(TableName=name, **start)
        items += page["Items"]
        if "LastEvaluatedKey" not in page:
            return items
        start = {"ExclusiveStartKey": page["LastEvaluatedKey"]}


def import_and_describe(ddb, **kwargs):
    started = ddb.import_table(TableCreationParameters=PARAMETERS, **kwargs)["ImportTableDescription"]
    assert started["ImportStatus"] == "IN_PROGRESS"
    return ddb.describe_import(ImportArn=started["ImportArn"])["ImportTableDescription"]


def test_export_then_import_into_a_second_server_keeps_every_item(start_dynapage, s3):
    first = start_dynapage("--s3-dir", str(s3)).client()
    arn = make_table(first)
    items = sample_items(2500)  # more than one write batch
    put_all(first, items)
    export = first.export_table_to_point_in_time(TableArn=arn, S3Bucket="bucket", S3Prefix="x")["ExportDescription"]
    export_id = export["ExportArn"].rsplit("/", 1)[1]
    second = start_dynapage("--s3-dir", str(s3)).client()
    done = import_and_describe(second, S3BucketSource={"S3Bucket": "bucket",
                                                       "S3KeyPrefix": f"x/AWSDynamoDB/{export_id}/data/"},
                               InputFormat="DYNAMODB_JSON", InputCompressionType="GZIP")
    assert done["ImportStatus"] == "COMPLETED", done
    assert done["ProcessedItemCount"] == 2500 and done["ImportedItemCount"] == 2500 and done["ErrorCount"] == 0
    assert done["ProcessedSizeBytes"] > 0
    assert done["TableCreationParameters"] == PARAMETERS
    assert done["S3BucketSource"]["S3BucketOwner"] == "000000000000"
    table = second.describe_table(TableName="imported")["Table"]
    assert table["TableStatus"] == "ACTIVE" and done["TableId"] == table["TableId"]
    imported = sorted(checksum(item) for item in scan_all(second, "imported"))
    assert imported == sorted(checksum(item) for item in items)


def test_ion_export_then_ion_import_keeps_every_item(start_dynapage, s3):
    ddb = start_dynapage("--s3-dir", str(s3)).client()
    arn = make_table(ddb)
    items = sample_items(1200)
    items.append({"pk": {"S": "odd 'names'"}, "sk": {"N": "-1.5E-7"}, "a b:c": {"S": "\x01\\\"é😀"},
                  "empty": {"S": ""}, "deep": {"L": [{"L": [{"M": {"": {"NULL": True}}}]}]}})
    put_all(ddb, items)
    export = ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="bucket", S3Prefix="ion",
                                               ExportFormat="ION")["ExportDescription"]
    export_id = export["ExportArn"].rsplit("/", 1)[1]
    done = import_and_describe(ddb, S3BucketSource={"S3Bucket": "bucket",
                                                    "S3KeyPrefix": f"ion/AWSDynamoDB/{export_id}/data/"},
                               InputFormat="ION", InputCompressionType="GZIP")
    assert done["ImportStatus"] == "COMPLETED", done
    assert (done["ProcessedItemCount"], done["ImportedItemCount"], done["ErrorCount"]) == (1201, 1201, 0)
    imported = sorted(checksum(item) for item in scan_all(ddb, "imported"))
    assert imported == sorted(checksum(item) for item in scan_all(ddb, TABLE))


def test_csv_import_with_delimiter_and_header_list(start_dynapage, s3):
    ddb = start_dynapage("--s3-dir", str(s3)).client()
    (s3 / "bucket" / "csv").mkdir()
    (s3 / "bucket" / "csv" / "one.csv").write_bytes(
        b'a;1;"semi;colon";0042\r\n'
        b'b;2;"two\nlines, ""quoted""";\r\n'
        b'a;3;;x\n')
    done = import_and_describe(ddb, S3BucketSource={"S3Bucket": "bucket", "S3KeyPrefix": "csv/"}, InputFormat="CSV",
                               InputFormatOptions={"Csv": {"Delimiter": ";", "HeaderList": ["pk", "sk", "text", "n"]}})
    assert done["ImportStatus"] == "COMPLETED", done
    assert done["InputFormatOptions"] == {"Csv": {"Delimiter": ";", "HeaderList": ["pk", "sk", "text", "n"]}}
    assert (done["ProcessedItemCount"], done["ImportedItemCount"]) == (3, 3)
    items = {(i["pk"]["S"], i["sk"]["N"]): i for i in scan_all(ddb, "imported")}
    assert items[("a", "1")] == {"pk": {"S": "a"}, "sk": {"N": "1"}, "text": {"S": "semi;colon"}, "n": {"S": "0042"}}
    assert items[("b", "2")] == {"pk": {"S": "b"}, "sk": {"N": "2"}, "text": {"S": 'two\nlines, "quoted"'}}
    assert items[("a", "3")] == {"pk": {"S": "a"}, "sk": {"N": "3"}, "n": {"S": "x"}}


def test_csv_import_with_a_header_line_and_a_bad_row(start_dynapage, s3):
    ddb = start_dynapage("--s3-dir", str(s3)).client()
    (s3 / "bucket" / "csv").mkdir()
    (s3 / "bucket" / "csv" / "rows.csv").write_text("pk,sk,v\na,1,x\nb,not-a-number,y\nc,3\nd,4,z\n")
    done = import_and_describe(ddb, S3BucketSource={"S3Bucket": "bucket", "S3KeyPrefix": "csv/"}, InputFormat="CSV")
    assert done["ImportStatus"] == "FAILED" and done["FailureCode"] == "ItemValidationError"
    assert (done["ProcessedItemCount"], done["ImportedItemCount"], done["ErrorCount"]) == (4, 2, 2)
    assert sorted(i["pk"]["S"] for i in scan_all(ddb, "imported")) == ["a", "d"]
    import_id = done["ImportArn"].rsplit("/", 1)[1]
    log = (s3 / ".dynapage" / "logs" / "aws-dynamodb" / "imports" / import_id / "error").read_text().splitlines()
    entries = [json.loads(line) for line in log]
    assert [e["itemS3Pointer"] for e in entries] == [{"bucket": "bucket", "key": "csv/rows.csv", "itemIndex": 1},
                                                     {"bucket": "bucket", "key": "csv/rows.csv", "itemIndex": 2}]
    assert "numeric" in entries[0]["errorMessages"][0]
    assert entries[1]["errorMessages"] == ["Unexpected data: the CSV record has 2 cells where the header has 3"]


def zstd_compress(data):
    """zstd framing through the zstd(1) tool when present, else libzstd through ctypes."""
    import ctypes
    import ctypes.util
    lib = ctypes.CDLL(ctypes.util.find_library("zstd") or "libzstd.so.1")
    lib.ZSTD_compressBound.restype = ctypes.c_size_t
    lib.ZSTD_compress.restype = ctypes.c_size_t
    bound = lib.ZSTD_compressBound(ctypes.c_size_t(len(data)))
    out = ctypes.create_string_buffer(bound)
    size = lib.ZSTD_compress(out, ctypes.c_size_t(bound), data, ctypes.c_size_t(len(data)), 3)
    assert not lib.ZSTD_isError(ctypes.c_size_t(size))
    return out.raw[:size]


def test_zstd_import_and_a_wrongly_compressed_object(start_dynapage, s3):
    ddb = start_dynapage("--s3-dir", str(s3)).client()
    (s3 / "bucket" / "z").mkdir()
    items = sample_items(300)
    lines = "".join(json.dumps({"Item": {k: ({"B": __import__("base64").b64encode(v["B"]).decode()} if "B" in v else v)
                                         for k, v in item.items() if k not in ("bin", "doc")}}) + "\n"
                    for item in items).encode()
    (s3 / "bucket" / "z" / "data.json.zst").write_bytes(zstd_compress(lines))
    done = import_and_describe(ddb, S3BucketSource={"S3Bucket": "bucket", "S3KeyPrefix": "z/"},
                               InputFormat="DYNAMODB_JSON", InputCompressionType="ZSTD")
    assert done["ImportStatus"] == "COMPLETED", done
    assert done["ImportedItemCount"] == 300 and done["ProcessedSizeBytes"] == len(lines)
    assert len(scan_all(ddb, "imported")) == 300
    # A gzip object read as ZSTD: one error for the object, none of its items.
    (s3 / "bucket" / "g").mkdir()
    (s3 / "bucket" / "g" / "data.json.gz").write_bytes(gzip.compress(lines))
    second = dict(PARAMETERS, TableName="second")
    started = ddb.import_table(TableCreationParameters=second, S3BucketSource={"S3Bucket": "bucket", "S3KeyPrefix": "g/"},
                               InputFormat="DYNAMODB_JSON", InputCompressionType="ZSTD")["ImportTableDescription"]
    done = ddb.describe_import(ImportArn=started["ImportArn"])["ImportTableDescription"]
    assert done["ImportStatus"] == "FAILED" and (done["ErrorCount"], done["ImportedItemCount"]) == (1, 0)
    assert ddb.scan(TableName="second")["Count"] == 0


def test_concatenated_objects_import(start_dynapage, s3):
    ddb = start_dynapage("--s3-dir", str(s3)).client()
    (s3 / "bucket" / "in").mkdir()
    (s3 / "bucket" / "in" / "one").write_text('{"Item":{"pk":{"S":"a"},"sk":{"N":"1"}}}{"Item":{"pk":{"S":"b"},'
                                              '"sk":{"N":"2"}}}\n{"Item":{"pk":{"S":"a"},"sk":{"N":"1"},"v":{"S":"x"}}}')
    done = import_and_describe(ddb, S3BucketSource={"S3Bucket": "bucket", "S3KeyPrefix": "in/"},
                               InputFormat="DYNAMODB_JSON")
    assert done["ImportStatus"] == "COMPLETED" and done["ImportedItemCount"] == 3 and done["InputCompressionType"] == "NONE"
    assert ddb.get_item(TableName="imported", Key={"pk": {"S": "a"}, "sk": {"N": "1"}})["Item"]["v"] == {"S": "x"}


def test_malformed_import_counts_errors_logs_them_and_keeps_the_good_items(start_dynapage, s3):
    ddb = start_dynapage("--s3-dir", str(s3)).client()
    (s3 / "bucket" / "bad").mkdir()
    (s3 / "bucket" / "bad" / "a.json").write_text(
        '{"Item":{"pk":{"S":"good"},"sk":{"N":"1"}}}\n'
        '{"Item":{"sk":{"N":"2"}}}\n'
        '{"Item":{"pk":{"N":"3"},"sk":{"N":"3"}}}\n'
        '{"NotItem":{}}\n'
        '{"Item":{"pk":{"S":"good"},"sk":{"N":"2"}}}\n'
        '{"Item": not json\n'
        '{"Item":{"pk":{"S":"skipped"},"sk":{"N":"9"}}}\n')
    done = import_and_describe(ddb, S3BucketSource={"S3Bucket": "bucket", "S3KeyPrefix": "bad/"},
                               InputFormat="DYNAMODB_JSON", InputCompressionType="NONE")
    assert done["ImportStatus"] == "FAILED" and done["FailureCode"] == "ItemValidationError"
    assert done["FailureMessage"].startswith("Some of the items failed validation checks")
    assert (done["ProcessedItemCount"], done["ImportedItemCount"], done["ErrorCount"]) == (6, 2, 4)
    assert sorted(i["sk"]["N"] for i in scan_all(ddb, "imported")) == ["1", "2"]
    import_id = done["ImportArn"].rsplit("/", 1)[1]
    log = (s3 / ".dynapage" / "logs" / "aws-dynamodb" / "imports" / import_id / "error").read_text().splitlines()
    entries = [json.loads(line) for line in log]
    assert len(entries) == 4
    assert entries[0]["itemS3Pointer"] == {"bucket": "bucket", "key": "bad/a.json", "itemIndex": 1}
    assert entries[0]["importArn"] == done["ImportArn"]
    assert entries[0]["errorMessages"] == ["One or more parameter values were invalid: Missing the key pk in the item"]


def test_kill_during_an_import_leaves_the_table_absent_or_complete(start_dynapage, s3, tmp_path):
    """A kill -9 while ImportTable loads leaves no half-loaded table after the restart (docs/export-import.md)."""
    path = str(tmp_path / "db")
    count = 120_000
    lines = "".join('{"Item":{"pk":{"S":"p%d"},"sk":{"N":"%d"},"pad":{"S":"%s"}}}\n' % (i % 97, i, "x" * 200)
                    for i in range(count))
    (s3 / "bucket" / "big").mkdir()
    (s3 / "bucket" / "big" / "data.json").write_text(lines)
    server = start_dynapage("--s3-dir", str(s3), "--db-path", path)
    ddb = server.client()
    finished = threading.Event()

    def import_cut_short():
        try:
            server.raw_client().call("ImportTable", {
                "S3BucketSource": {"S3Bucket": "bucket", "S3KeyPrefix": "big/"}, "InputFormat": "DYNAMODB_JSON",
                "TableCreationParameters": PARAMETERS})
            finished.set()
        except (OSError, http.client.HTTPException):
            pass  # the server was killed under it: the point of the test

    thread = threading.Thread(target=import_cut_short)
    thread.start()
    deadline = time.time() + 30
    while time.time() < deadline and PARAMETERS["TableName"] not in ddb.list_tables()["TableNames"]:
        time.sleep(0.01)
    time.sleep(0.2)  # some batches of items written
    assert not finished.is_set(), "the import ended before the kill: make it larger"
    server.kill()
    thread.join()
    ddb = start_dynapage("--s3-dir", str(s3), "--db-path", path).client()
    # Cut short, so absent (not half-loaded), and the name is free again: the import can be run anew, whole.
    assert ddb.list_tables()["TableNames"] == []
    done = import_and_describe(ddb, S3BucketSource={"S3Bucket": "bucket", "S3KeyPrefix": "big/"},
                               InputFormat="DYNAMODB_JSON")
    assert done["ImportStatus"] == "COMPLETED" and done["ImportedItemCount"] == count


def test_import_from_a_missing_bucket_fails_and_makes_no_table(start_dynapage, s3):
    ddb = start_dynapage("--s3-dir", str(s3)).client()
    done = import_and_describe(ddb, S3BucketSource={"S3Bucket": "nobucket"}, InputFormat="DYNAMODB_JSON")
    assert done["ImportStatus"] == "FAILED" and done["FailureCode"] == "S3NoSuchBucket"
    assert done["TableArn"].endswith(":table/imported")
    assert ddb.list_tables()["TableNames"] == []
    listed = ddb.list_imports()["ImportSummaryList"]
    assert [i["ImportArn"] for i in listed] == [done["ImportArn"]]


def test_import_sync_errors(start_dynapage, s3):
    server = start_dynapage("--s3-dir", str(s3))
    ddb = server.client()
    source = {"S3Bucket": "bucket"}
    assert error_of(ddb.import_table, S3BucketSource=source, InputFormat="DYNAMODB_JSON",
                    InputFormatOptions={"Csv": {"Delimiter": ","}}, TableCreationParameters=PARAMETERS) == (
        "ValidationException", "Invalid Request: Unsupported InputFormatOptions for the given input format: DYNAMODB_JSON.")
    provisioned = {k: v for k, v in PARAMETERS.items() if k != "BillingMode"}
    assert error_of(ddb.import_table, S3BucketSource=source, InputFormat="DYNAMODB_JSON",
                    TableCreationParameters=provisioned) == (
        "ValidationException", "One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits "
        "must both be specified when BillingMode is PROVISIONED")
    ddb.import_table(S3BucketSource=source, InputFormat="DYNAMODB_JSON", TableCreationParameters=PARAMETERS,
                     ClientToken="t1")
    assert error_of(ddb.import_table, S3BucketSource=source, InputFormat="DYNAMODB_JSON",
                    TableCreationParameters=PARAMETERS) == ("ResourceInUseException", "Table already exists: imported")
    other = dict(PARAMETERS, TableName="other")
    assert error_of(ddb.import_table, S3BucketSource=source, InputFormat="DYNAMODB_JSON",
                    TableCreationParameters=other, ClientToken="t1")[0] == "ImportConflictException"
    assert error_of(ddb.describe_import, ImportArn="arn:aws:dynamodb:us-east-1:000000000000:table/t/import/1-2")[0] == (
        "ImportNotFoundException")
    assert error_of(ddb.list_imports, NextToken="0" * 112) == (
        "ValidationException", "Invalid Request: Provided nextToken is invalid: " + "0" * 112)
    for _ in range(2):
        ddb.import_table(S3BucketSource={"S3Bucket": "nobucket"}, InputFormat="DYNAMODB_JSON",
                         TableCreationParameters=PARAMETERS)
    page = ddb.list_imports(PageSize=1)
    assert len(page["NextToken"]) == 112 and len(ddb.list_imports(PageSize=2, NextToken=page["NextToken"])[
        "ImportSummaryList"]) == 2
    csv_errors = [
        ({"Csv": {"Delimiter": "x"}}, "Value 'x' at 'inputFormatOptions.csv.delimiter' failed to satisfy constraint: "
         "Member must satisfy regular expression pattern: [,;:|\\t ]"),
        ({"Csv": {"Delimiter": ",,"}}, "Member must have length less than or equal to 1"),
        ({"Csv": {"HeaderList": []}}, "Value '[]' at 'inputFormatOptions.csv.headerList' failed to satisfy "
         "constraint: Member must have length greater than or equal to 1"),
        ({"Csv": {"HeaderList": ["a,b"]}}, "Value at 'inputFormatOptions.csv.headerList.1.member' failed to satisfy "
         "constraint: Member must satisfy regular expression pattern"),
        ({"Csv": {"HeaderList": ["h"] * 256}}, "Member must have length less than or equal to 255"),
    ]
    for options, message in csv_errors:
        code, text = error_of(server.raw_client().import_table, S3BucketSource=source, InputFormat="CSV",
                              InputFormatOptions=options, TableCreationParameters=dict(PARAMETERS, TableName="csv"))
        assert code == "ValidationException" and message in text, (options, text)
    export_token = server.raw_client().list_exports(MaxResults=1)  # no exports: no token
    assert "NextToken" not in export_token
