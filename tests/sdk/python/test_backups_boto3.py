"""On-demand backups, restores and point-in-time recovery through boto3 and the AWS CLI (docs/backups.md)."""

import http.client
import json
import threading
import time

import pytest
from botocore.exceptions import ClientError


def error_of(call, **kwargs):
    with pytest.raises(ClientError) as info:
        call(**kwargs)
    return info.value.response["Error"]["Code"], info.value.response["Error"]["Message"]


def make_table(ddb, name, gsi=True):
    spec = dict(TableName=name, BillingMode="PAY_PER_REQUEST",
                AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                      {"AttributeName": "sk", "AttributeType": "N"},
                                      {"AttributeName": "g", "AttributeType": "S"}],
                KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}])
    if gsi:
        spec["GlobalSecondaryIndexes"] = [{"IndexName": "by_g", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                           "Projection": {"ProjectionType": "ALL"}}]
    else:
        spec["AttributeDefinitions"] = spec["AttributeDefinitions"][:2]
    ddb.create_table(**spec)


def put_items(ddb, table, count, tag="v1"):
    for start in range(0, count, 25):
        requests = [{"PutRequest": {"Item": {"pk": {"S": f"p{i % 7}"}, "sk": {"N": str(i)}, "g": {"S": f"g{i % 3}"},
                                              "v": {"S": tag}}}} for i in range(start, min(count, start + 25))]
        ddb.batch_write_item(RequestItems={table: requests})


def scan_all(ddb, table, **extra):
    items, kwargs = [], dict(TableName=table, **extra)
    while True:
        page = ddb.scan(**kwargs)
        items += page["Items"]
        if "LastEvaluatedKey" not in page:
            return sorted(items, key=lambda i: (i["pk"]["S"], int(i["sk"]["N"])))
        kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]


def query_index(ddb, table, g):
    items, kwargs = [], dict(TableName=table, IndexName="by_g", KeyConditionExpression="g = :g",
                             ExpressionAttributeValues={":g": {"S": g}})
    while True:
        page = ddb.query(**kwargs)
        items += page["Items"]
        if "LastEvaluatedKey" not in page:
            return sorted(items, key=lambda i: (i["pk"]["S"], int(i["sk"]["N"])))
        kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]


def set_clock(dynapage, **body):
    return dynapage.admin_json("POST", "/_dynapage/clock?scope=all", body)["epoch_ms"]


def test_backup_states_describe_list_and_delete(ddb):
    make_table(ddb, "src")
    put_items(ddb, "src", 40)
    created = ddb.create_backup(TableName="src", BackupName="bk1")["BackupDetails"]
    assert created["BackupStatus"] == "CREATING"
    assert created["BackupType"] == "USER"
    assert "BackupExpiryDateTime" not in created
    arn = created["BackupArn"]
    assert arn.startswith("arn:aws:dynamodb:us-east-1:") and ":table/src/backup/" in arn
    backup_id = arn.rsplit("/", 1)[1]
    assert len(backup_id) == 23 and backup_id[14] == "-"
    assert int(backup_id[:14]) == int(created["BackupCreationDateTime"].timestamp() * 1000 + 0.5)

    described = ddb.describe_backup(BackupArn=arn)["BackupDescription"]
    assert described["BackupDetails"]["BackupStatus"] == "AVAILABLE"
    assert described["BackupDetails"]["BackupCreationDateTime"] == created["BackupCreationDateTime"]
    source = described["SourceTableDetails"]
    assert source["TableName"] == "src" and source["ItemCount"] == 40 and source["BillingMode"] == "PAY_PER_REQUEST"
    assert source["ProvisionedThroughput"] == {"ReadCapacityUnits": 0, "WriteCapacityUnits": 0}
    features = described["SourceTableFeatureDetails"]
    assert [i["IndexName"] for i in features["GlobalSecondaryIndexes"]] == ["by_g"]

    # Names are not unique; the list is in creation order and pages.
    arns = [arn] + [ddb.create_backup(TableName="src", BackupName="bk1")["BackupDetails"]["BackupArn"] for _ in range(4)]
    assert len(set(arns)) == 5
    listed, kwargs = [], {"Limit": 2}
    pages = 0
    while True:
        page = ddb.list_backups(**kwargs)
        pages += 1
        listed += [s["BackupArn"] for s in page["BackupSummaries"]]
        if "LastEvaluatedBackupArn" not in page:
            break
        kwargs["ExclusiveStartBackupArn"] = page["LastEvaluatedBackupArn"]
    assert listed == arns and pages == 3
    assert ddb.list_backups(TableName="nope")["BackupSummaries"] == []
    assert ddb.list_backups(BackupType="SYSTEM")["BackupSummaries"] == []
    assert ddb.list_backups(BackupType="AWS_BACKUP")["BackupSummaries"] == []

    deleted = ddb.delete_backup(BackupArn=arn)["BackupDescription"]
    assert deleted["BackupDetails"]["BackupStatus"] == "DELETED"
    assert error_of(ddb.describe_backup, BackupArn=arn) == ("BackupNotFoundException", f"Backup not found: {arn}")
    assert error_of(ddb.delete_backup, BackupArn=arn) == ("BackupNotFoundException", f"Backup not found: {arn}")
    assert [s["BackupArn"] for s in ddb.list_backups()["BackupSummaries"]] == arns[1:]


def test_list_backups_time_range_is_lower_inclusive_upper_exclusive(dynapage):
    ddb = dynapage.client()
    make_table(ddb, "src", gsi=False)
    start = set_clock(dynapage, set_epoch_ms=1_800_000_000_000)
    times = []
    for i in range(3):
        details = ddb.create_backup(TableName="src", BackupName=f"bk{i}")["BackupDetails"]
        times.append(details["BackupCreationDateTime"])
        set_clock(dynapage, advance_ms=10_000)
    assert start <= int(times[0].timestamp() * 1000) < start + 5000
    # The exact creation times (ms), from the ids: botocore would send whole seconds.
    raw = dynapage.raw_client()
    arns = [s["BackupArn"] for s in ddb.list_backups()["BackupSummaries"]]
    times = [int(arn.rsplit("/", 1)[1][:14]) / 1000 for arn in arns]
    names = lambda **kw: [s["BackupName"] for s in raw.list_backups(**kw)["BackupSummaries"]]
    assert names(TimeRangeLowerBound=times[1]) == ["bk1", "bk2"]
    assert names(TimeRangeUpperBound=times[1]) == ["bk0"]
    assert names(TimeRangeLowerBound=times[0], TimeRangeUpperBound=times[2]) == ["bk0", "bk1"]
    assert error_of(raw.list_backups, TimeRangeLowerBound=times[2], TimeRangeUpperBound=times[0]) == (
        "ValidationException", "Time range lower bound must be less than or equal to upper bound")


def test_backup_errors(ddb):
    assert error_of(ddb.create_backup, TableName="missing", BackupName="bkp") == (
        "TableNotFoundException", "Table not found: missing")
    arn = "arn:aws:dynamodb:us-east-1:000000000000:table/src/backup/01489602797149-73d8d5bc"
    assert error_of(ddb.describe_backup, BackupArn=arn)[0] == "BackupNotFoundException"
    assert error_of(ddb.describe_backup, BackupArn="arn:aws:dynamodb:us-east-1:000000000000:table/src/stream/x" + "yyy" * 20) == (
        "ValidationException", "Invalid Backup ARN")
    other = "arn:aws:dynamodb:us-east-1:123456789012:table/src/backup/01489602797149-73d8d5bc"
    assert error_of(ddb.describe_backup, BackupArn=other) == ("AccessDeniedException", "Access is denied")
    assert error_of(ddb.restore_table_from_backup, TargetTableName="xxx", BackupArn=arn) == (
        "BackupNotFoundException", f"Backup not found: {arn}")


def test_restore_from_backup_equals_the_table_at_the_backup_and_its_index_answers(ddb):
    make_table(ddb, "src")
    ddb.update_time_to_live(TableName="src", TimeToLiveSpecification={"Enabled": True, "AttributeName": "ttl"})
    ddb.tag_resource(ResourceArn=ddb.describe_table(TableName="src")["Table"]["TableArn"],
                     Tags=[{"Key": "k", "Value": "v"}])
    put_items(ddb, "src", 300)
    expected = scan_all(ddb, "src")
    expected_index = query_index(ddb, "src", "g1")
    arn = ddb.create_backup(TableName="src", BackupName="snap")["BackupDetails"]["BackupArn"]
    put_items(ddb, "src", 20, tag="after")  # not in the backup
    ddb.delete_item(TableName="src", Key={"pk": {"S": "p0"}, "sk": {"N": "0"}})

    restored = ddb.restore_table_from_backup(TargetTableName="res", BackupArn=arn)["TableDescription"]
    assert restored["TableStatus"] == "CREATING"
    summary = restored["RestoreSummary"]
    assert summary["SourceBackupArn"] == arn and summary["RestoreInProgress"] is True
    assert summary["SourceTableArn"].endswith(":table/src")
    described = ddb.describe_table(TableName="res")["Table"]
    assert described["TableStatus"] == "ACTIVE" and "RestoreSummary" not in described
    assert described["ItemCount"] == 300
    assert scan_all(ddb, "res") == expected
    assert query_index(ddb, "res", "g1") == expected_index
    # Dropped on restore: TTL and tags.
    assert ddb.describe_time_to_live(TableName="res")["TimeToLiveDescription"]["TimeToLiveStatus"] == "DISABLED"
    assert ddb.list_tags_of_resource(ResourceArn=described["TableArn"])["Tags"] == []
    # The backup outlives its table.
    ddb.delete_table(TableName="src")
    assert ddb.describe_backup(BackupArn=arn)["BackupDescription"]["BackupDetails"]["BackupStatus"] == "AVAILABLE"
    ddb.restore_table_from_backup(TargetTableName="res2", BackupArn=arn)
    assert scan_all(ddb, "res2") == expected
    assert error_of(ddb.restore_table_from_backup, TargetTableName="res2", BackupArn=arn) == (
        "TableAlreadyExistsException", "Table already exists: res2")


def test_restore_overrides(ddb):
    make_table(ddb, "src")
    put_items(ddb, "src", 30)
    arn = ddb.create_backup(TableName="src", BackupName="snap")["BackupDetails"]["BackupArn"]
    table = ddb.restore_table_from_backup(TargetTableName="no_gsi", BackupArn=arn,
                                          GlobalSecondaryIndexOverride=[])["TableDescription"]
    assert "GlobalSecondaryIndexes" not in table
    assert len(scan_all(ddb, "no_gsi")) == 30
    renamed = ddb.restore_table_from_backup(
        TargetTableName="renamed", BackupArn=arn,
        GlobalSecondaryIndexOverride=[{"IndexName": "other", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                       "Projection": {"ProjectionType": "ALL"}}])["TableDescription"]
    assert [i["IndexName"] for i in renamed["GlobalSecondaryIndexes"]] == ["other"]
    code, message = error_of(
        ddb.restore_table_from_backup, TargetTableName="xxx", BackupArn=arn,
        GlobalSecondaryIndexOverride=[{"IndexName": "bad", "KeySchema": [{"AttributeName": "v", "KeyType": "HASH"}],
                                       "Projection": {"ProjectionType": "ALL"}}])
    assert (code, message) == ("ValidationException", "Index bad does not match a secondary index that existed in the "
                               "source table and cannot be created during the restore operation")
    assert error_of(ddb.restore_table_from_backup, TargetTableName="xxx", BackupArn=arn,
                    ProvisionedThroughputOverride={"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}) == (
        "ValidationException", "Cannot override ProvisionedThroughput unless BillingMode is PROVISIONED")
    assert error_of(ddb.restore_table_from_backup, TargetTableName="xxx", BackupArn=arn,
                    BillingModeOverride="PROVISIONED") == (
        "ValidationException", "Must override ProvisionedThroughput if BillingMode is overridden to PROVISIONED")
    provisioned = ddb.restore_table_from_backup(
        TargetTableName="prov", BackupArn=arn, BillingModeOverride="PROVISIONED",
        ProvisionedThroughputOverride={"ReadCapacityUnits": 7, "WriteCapacityUnits": 3})["TableDescription"]
    assert provisioned["ProvisionedThroughput"]["ReadCapacityUnits"] == 7
    with_kms = ddb.restore_table_from_backup(TargetTableName="kms", BackupArn=arn,
                                             SSESpecificationOverride={"Enabled": True, "SSEType": "KMS"})
    assert with_kms["TableDescription"]["SSEDescription"]["SSEType"] == "KMS"
    assert ddb.list_tables()["TableNames"] == ["kms", "no_gsi", "prov", "renamed", "src"]


def test_backups_survive_a_restart(start_dynapage, tmp_path):
    path = str(tmp_path / "db")
    server = start_dynapage("--db-path", path)
    ddb = server.client()
    make_table(ddb, "src")
    put_items(ddb, "src", 100)
    expected = scan_all(ddb, "src")
    arn = ddb.create_backup(TableName="src", BackupName="snap")["BackupDetails"]["BackupArn"]
    ddb.delete_table(TableName="src")
    server.stop()
    ddb = start_dynapage("--db-path", path).client()
    assert [s["BackupArn"] for s in ddb.list_backups()["BackupSummaries"]] == [arn]
    ddb.restore_table_from_backup(TargetTableName="src", BackupArn=arn)
    assert scan_all(ddb, "src") == expected


def test_kill_during_a_backup_leaves_it_absent_or_complete(start_dynapage, tmp_path):
    path = str(tmp_path / "db")
    server = start_dynapage("--db-path", path)
    ddb = server.client()
    make_table(ddb, "big", gsi=False)
    filler = "xxx" * 1000
    for start in range(0, 20000, 25):
        ddb.batch_write_item(RequestItems={"big": [
            {"PutRequest": {"Item": {"pk": {"S": f"p{i}"}, "sk": {"N": str(i)}, "f": {"S": filler}}}}
            for i in range(start, start + 25)]})
    raw = server.raw_client()

    def create_backup_cut_short():
        try:
            raw.call("CreateBackup", {"TableName": "big", "BackupName": "bkp"})
        except (OSError, http.client.HTTPException):
            pass  # the server was killed under it: the point of the test

    thread = threading.Thread(target=create_backup_cut_short)
    thread.start()
    time.sleep(0.05)
    server.kill()
    thread.join()
    ddb = start_dynapage("--db-path", path).client()
    summaries = ddb.list_backups()["BackupSummaries"]
    assert len(summaries) <= 1
    for summary in summaries:  # a backup that is listed is whole
        ddb.restore_table_from_backup(TargetTableName="res", BackupArn=summary["BackupArn"])
        assert ddb.describe_table(TableName="res")["Table"]["ItemCount"] == 20000
    assert ddb.describe_table(TableName="big")["Table"]["ItemCount"] == 20000


def test_backup_shows_creating_under_a_transient_status_delay(start_dynapage):
    ddb = start_dynapage("--transient-status-delay", "1500").client()
    make_table(ddb, "src", gsi=False)
    time.sleep(1.6)
    arn = ddb.create_backup(TableName="src", BackupName="bkp")["BackupDetails"]["BackupArn"]
    assert ddb.describe_backup(BackupArn=arn)["BackupDescription"]["BackupDetails"]["BackupStatus"] == "CREATING"
    restored = ddb.restore_table_from_backup(TargetTableName="res", BackupArn=arn)["TableDescription"]
    described = ddb.describe_table(TableName="res")["Table"]
    assert described["TableStatus"] == "CREATING" and described["RestoreSummary"]["SourceBackupArn"] == arn
    assert error_of(ddb.delete_backup, BackupArn=arn)[0] == "BackupInUseException"
    time.sleep(1.6)
    assert ddb.describe_backup(BackupArn=arn)["BackupDescription"]["BackupDetails"]["BackupStatus"] == "AVAILABLE"
    assert "RestoreSummary" not in ddb.describe_table(TableName="res")["Table"]
    assert restored["TableName"] == "res"


# --- Point-in-time recovery


def enable_pitr(ddb, table, **spec):
    return ddb.update_continuous_backups(
        TableName=table, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True, **spec})


def window(ddb, table):
    d = ddb.describe_continuous_backups(TableName=table)["ContinuousBackupsDescription"]
    return d["PointInTimeRecoveryDescription"]


def test_restore_to_several_instants_item_for_item(start_dynapage):
    server = start_dynapage("--pitr-latest-lag-seconds", "0")
    ddb = server.client()
    set_clock(server, set_epoch_ms=1_800_000_000_000)
    make_table(ddb, "src")
    put_items(ddb, "src", 20, tag="before")
    enable_pitr(ddb, "src")
    states = []  # (instant, items, items of index g1)

    def snapshot():
        set_clock(server, advance_ms=2000)
        states.append((window(ddb, "src")["LatestRestorableDateTime"], scan_all(ddb, "src"), query_index(ddb, "src", "g1")))
        set_clock(server, advance_ms=2000)

    snapshot()
    put_items(ddb, "src", 30, tag="second")  # overwrites 20, adds 10
    snapshot()
    ddb.update_item(TableName="src", Key={"pk": {"S": "p1"}, "sk": {"N": "1"}}, UpdateExpression="SET v = :v, g = :g",
                    ExpressionAttributeValues={":v": {"S": "updated"}, ":g": {"S": "g2"}})
    for i in range(0, 30, 3):
        ddb.delete_item(TableName="src", Key={"pk": {"S": f"p{i % 7}"}, "sk": {"N": str(i)}})
    snapshot()
    put_items(ddb, "src", 5, tag="last")
    assert len(states[0][1]) == 20 and len(states[1][1]) == 30 and len(states[2][1]) == 20
    for n, (instant, items, index_items) in enumerate(states):
        target = f"res{n}"
        answer = ddb.restore_table_to_point_in_time(SourceTableName="src", TargetTableName=target,
                                                    RestoreDateTime=instant)["TableDescription"]
        assert answer["TableStatus"] == "CREATING"
        # botocore sends whole seconds
        assert answer["RestoreSummary"]["RestoreDateTime"] == instant.replace(microsecond=0)
        assert "SourceBackupArn" not in answer["RestoreSummary"]
        assert scan_all(ddb, target) == items, f"state {n}"
        assert query_index(ddb, target, "g1") == index_items, f"index of state {n}"
        assert ddb.describe_table(TableName=target)["Table"]["ItemCount"] == len(items)
    latest = ddb.restore_table_to_point_in_time(SourceTableName="src", TargetTableName="latest",
                                                UseLatestRestorableTime=True)
    assert scan_all(ddb, "latest") == scan_all(ddb, "src")
    assert window(ddb, "latest")["PointInTimeRecoveryStatus"] == "DISABLED"
    assert latest["TableDescription"]["TableName"] == "latest"


def test_pitr_window_and_retention(start_dynapage):
    server = start_dynapage("--pitr-latest-lag-seconds", "0", "--ttl-interval", "0")
    ddb = server.client()
    now = set_clock(server, set_epoch_ms=1_800_000_000_000)
    make_table(ddb, "src", gsi=False)
    server.raw_client().update_continuous_backups(  # a member newer than Debian's botocore
        TableName="src", PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True, "RecoveryPeriodInDays": 1})
    w = window(ddb, "src")
    assert w["LatestRestorableDateTime"].timestamp() == pytest.approx(now / 1000, abs=2)  # lag 0: now
    assert w["EarliestRestorableDateTime"].timestamp() == pytest.approx(now / 1000, abs=2)
    put_items(ddb, "src", 10, tag="day0")
    set_clock(server, advance_ms=2 * 86400 * 1000)
    w = window(ddb, "src")
    later = w["LatestRestorableDateTime"].timestamp()
    assert w["EarliestRestorableDateTime"].timestamp() == later - 86400
    assert later == pytest.approx(now / 1000 + 2 * 86400, abs=2)
    code, message = error_of(ddb.restore_table_to_point_in_time, SourceTableName="src", TargetTableName="xxx",
                             RestoreDateTime=now / 1000 + 10)
    assert code == "InvalidRestoreTimeException"
    assert message.startswith("RestoreDateTime '") and "must be within EarliestRestorableDateTime '" in message
    # A sweep trims the journal to the window; a restore within it still sees every item.
    assert server.admin("POST", "/_dynapage/ttl/sweep", {})[0] == 200
    ddb.restore_table_to_point_in_time(SourceTableName="src", TargetTableName="res",
                                       RestoreDateTime=w["EarliestRestorableDateTime"].timestamp() + 2)
    assert len(scan_all(ddb, "res")) == 10


def test_pitr_errors_in_order(start_dynapage):
    server = start_dynapage("--pitr-latest-lag-seconds", "0")
    ddb = server.client()
    make_table(ddb, "src", gsi=False)
    make_table(ddb, "other", gsi=False)
    restore = ddb.restore_table_to_point_in_time
    arn = ddb.describe_table(TableName="src")["Table"]["TableArn"]
    # WarmThroughput in an index override: the shared index shape allows it, DynamoDB refuses it (raw client: Debian's
    # botocore model predates WarmThroughput).
    override = [{"IndexName": "by_g", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                 "Projection": {"ProjectionType": "ALL"}, "WarmThroughput": {"ReadUnitsPerSecond": 12000}}]
    code, message = error_of(server.raw_client().restore_table_to_point_in_time, SourceTableName="src",
                             TargetTableName="xxx", UseLatestRestorableTime=True, GlobalSecondaryIndexOverride=override)
    assert code == "ValidationException" and "WarmThroughput is not supported in GlobalSecondaryIndexOverride" in message
    assert error_of(restore, SourceTableName="src", SourceTableArn=arn, TargetTableName="xxx",
                    UseLatestRestorableTime=True) == (
        "ValidationException", "Must provide exactly one of: sourceTableArn, sourceTableName")
    assert error_of(restore, SourceTableName="src", TargetTableName="xxx")[1] == (
        "Invalid Request: Either one of RestoreDateTime or UseLatestRestorableTime must be specified, but not both")
    assert error_of(restore, SourceTableName="src", TargetTableName="xxx", UseLatestRestorableTime=False)[1] == (
        "Invalid Request: Either one of RestoreDateTime or UseLatestRestorableTime must be specified, but not both")
    code, message = error_of(restore, SourceTableName="src", TargetTableName="xxx", UseLatestRestorableTime=True,
                             RestoreDateTime=time.time())
    assert code == "ValidationException" and message.startswith(
        "Invalid Request: Both RestoreDateTime and UseLatestRestorableTime cannot be set")
    assert error_of(restore, SourceTableArn="not-an-arn", TargetTableName="xxx", UseLatestRestorableTime=True) == (
        "ValidationException", "sourceTableArn is not a valid ARN")
    assert error_of(restore, SourceTableName="missing", TargetTableName="xxx", UseLatestRestorableTime=True) == (
        "TableNotFoundException", "Table not found: missing")
    assert error_of(restore, SourceTableName="src", TargetTableName="xxx", UseLatestRestorableTime=True) == (
        "PointInTimeRecoveryUnavailableException", "Point in time recovery is not enabled for table 'src'")
    enable_pitr(ddb, "src")
    assert error_of(restore, SourceTableName="src", TargetTableName="other", UseLatestRestorableTime=True) == (
        "TableAlreadyExistsException", "Table already exists: other")
    assert error_of(restore, SourceTableName="src", TargetTableName="src", UseLatestRestorableTime=True) == (
        "TableAlreadyExistsException", "Table already exists: src")
    # Through its ARN; disabling forgets the history, enabling starts a new window.
    ddb.restore_table_to_point_in_time(SourceTableArn=arn, TargetTableName="xxx", UseLatestRestorableTime=True)
    ddb.update_continuous_backups(TableName="src", PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": False})
    assert error_of(restore, SourceTableName="src", TargetTableName="yyy", UseLatestRestorableTime=True)[0] == (
        "PointInTimeRecoveryUnavailableException")


def test_delete_table_with_pitr_leaves_an_undeletable_system_backup(ddb):
    make_table(ddb, "src", gsi=False)
    put_items(ddb, "src", 12)
    expected = scan_all(ddb, "src")
    enable_pitr(ddb, "src")
    ddb.delete_table(TableName="src")
    assert ddb.list_backups()["BackupSummaries"] == []
    summaries = ddb.list_backups(BackupType="SYSTEM")["BackupSummaries"]
    assert [s["BackupName"] for s in summaries] == ["src$DeletedTableBackup"]
    system = summaries[0]
    assert system["BackupType"] == "SYSTEM" and system["BackupArn"].endswith("-00000000")
    assert (system["BackupExpiryDateTime"] - system["BackupCreationDateTime"]).total_seconds() == 35 * 86400
    assert ddb.list_backups(BackupType="ALL")["BackupSummaries"] == summaries
    described = ddb.describe_backup(BackupArn=system["BackupArn"])["BackupDescription"]
    assert described["SourceTableFeatureDetails"] == {}
    code, message = error_of(ddb.delete_backup, BackupArn=system["BackupArn"])
    assert code == "ValidationException"
    assert message.startswith(f"User is not allowed to delete the system backup with arn {system['BackupArn']}. "
                              "It will automatically expire on ")
    ddb.restore_table_from_backup(TargetTableName="back", BackupArn=system["BackupArn"])
    assert scan_all(ddb, "back") == expected


def test_aws_cli_backups_and_point_in_time_restore(aws, ddb, dynapage):
    """Every backup and restore operation through the AWS CLI: its paging of list-backups included."""
    make_table(ddb, "cli")
    put_items(ddb, "cli", 30)

    def cli(*args):
        return json.loads(aws(*args).stdout or "{}")

    arns = [cli("create-backup", "--table-name", "cli", "--backup-name", f"backup{i}")["BackupDetails"]["BackupArn"]
            for i in range(3)]
    described = cli("describe-backup", "--backup-arn", arns[0])["BackupDescription"]
    assert described["BackupDetails"]["BackupStatus"] == "AVAILABLE"
    assert described["SourceTableDetails"]["ItemCount"] == 30
    # The CLI pages ListBackups itself (LastEvaluatedBackupArn → ExclusiveStartBackupArn) with a small page size.
    listed = cli("list-backups", "--table-name", "cli", "--page-size", "1")["BackupSummaries"]
    assert sorted(b["BackupArn"] for b in listed) == sorted(arns)
    restored = cli("restore-table-from-backup", "--target-table-name", "cli_restored", "--backup-arn", arns[1])
    assert restored["TableDescription"]["RestoreSummary"]["SourceBackupArn"] == arns[1]
    assert scan_all(ddb, "cli_restored") == scan_all(ddb, "cli")
    assert cli("delete-backup", "--backup-arn", arns[2])["BackupDescription"]["BackupDetails"]["BackupStatus"] == (
        "DELETED")
    cli("update-continuous-backups", "--table-name", "cli",
        "--point-in-time-recovery-specification", "PointInTimeRecoveryEnabled=true")
    set_clock(dynapage, advance_ms=600_000)  # past LatestRestorableDateTime's 300 s lag
    window = cli("describe-continuous-backups", "--table-name", "cli")["ContinuousBackupsDescription"]
    assert window["PointInTimeRecoveryDescription"]["PointInTimeRecoveryStatus"] == "ENABLED"
    cli("restore-table-to-point-in-time", "--source-table-name", "cli", "--target-table-name", "cli_pitr",
        "--use-latest-restorable-time")
    assert scan_all(ddb, "cli_pitr") == scan_all(ddb, "cli")
