"""Global tables through boto3 (docs/global-tables.md): clients of two regions against one dynapage.

A replica is the same table in another region's namespace of the same access key. Writes in one replica appear in
the others (asynchronously: the tests poll), conflicting writes converge on the later one, deleting a replica
removes it, and the links survive a restart with --db-path.
"""

import threading
import time

import boto3
import pytest
from botocore.exceptions import ClientError

KEY = "AKIDGLOBALTEST"
TABLE = {
    "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
    "BillingMode": "PAY_PER_REQUEST",
}


def client(server, region, access_key=KEY):
    return boto3.client("dynamodb", endpoint_url=server.endpoint, region_name=region,
                        aws_access_key_id=access_key, aws_secret_access_key="secret")


def eventually(check, timeout=30.0):
    """Polls check() until it returns a true value (returned) or the timeout passes (then asserts). Replication is
    prompt (milliseconds); the timeout is generous for the sanitizer build on a busy CI machine."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value or time.monotonic() > deadline:
            assert value, "not replicated in time"
            return value
        time.sleep(0.02)


def item(ddb, table, pk):
    return ddb.get_item(TableName=table, Key={"pk": {"S": pk}}).get("Item")


def add_replica(east, table, region="eu-west-1"):
    return east.update_table(TableName=table, ReplicaUpdates=[{"Create": {"RegionName": region}}])["TableDescription"]


def test_write_in_one_region_is_read_in_the_other(start_dynapage):
    server = start_dynapage()
    east, west = client(server, "us-east-1"), client(server, "eu-west-1")
    east.create_table(TableName="orders", **TABLE)
    east.put_item(TableName="orders", Item={"pk": {"S": "before"}, "n": {"N": "1"}})

    answer = add_replica(east, "orders")
    assert answer["TableStatus"] == "UPDATING"
    assert answer["Replicas"] == [{"RegionName": "eu-west-1", "ReplicaStatus": "CREATING"}]

    # The replica is a table of its own in eu-west-1, with the items the table had, and the stream it needs.
    described = west.describe_table(TableName="orders")["Table"]
    assert described["TableArn"] == "arn:aws:dynamodb:eu-west-1:000000000000:table/orders"
    assert described["GlobalTableVersion"] == "2019.11.21"
    assert described["Replicas"] == [{"RegionName": "us-east-1", "ReplicaStatus": "ACTIVE"}]
    assert described["StreamSpecification"] == {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"}
    assert item(west, "orders", "before") == {"pk": {"S": "before"}, "n": {"N": "1"}}
    source = east.describe_table(TableName="orders")["Table"]
    assert source["Replicas"] == [{"RegionName": "eu-west-1", "ReplicaStatus": "ACTIVE"}]
    assert "BillingModeSummary" not in source

    # Every kind of write goes both ways.
    east.put_item(TableName="orders", Item={"pk": {"S": "a"}, "v": {"S": "east"}})
    assert eventually(lambda: item(west, "orders", "a")) == {"pk": {"S": "a"}, "v": {"S": "east"}}
    west.update_item(TableName="orders", Key={"pk": {"S": "a"}}, UpdateExpression="SET w = :w",
                     ExpressionAttributeValues={":w": {"S": "west"}})
    assert eventually(lambda: (item(east, "orders", "a") or {}).get("w")) == {"S": "west"}
    west.batch_write_item(RequestItems={"orders": [{"PutRequest": {"Item": {"pk": {"S": f"b{i}"}}}} for i in range(5)]})
    east.transact_write_items(TransactItems=[{"Delete": {"TableName": "orders", "Key": {"pk": {"S": "before"}}}}])
    eventually(lambda: all(item(east, "orders", f"b{i}") for i in range(5)))
    eventually(lambda: item(west, "orders", "before") is None)
    assert east.scan(TableName="orders")["Count"] == west.scan(TableName="orders")["Count"] == 6


def test_replicas_have_stream_records_of_every_write(start_dynapage):
    server = start_dynapage()
    east, west = client(server, "us-east-1"), client(server, "eu-west-1")
    east.create_table(TableName="events", **TABLE)
    add_replica(east, "events")
    east.put_item(TableName="events", Item={"pk": {"S": "1"}})
    east.put_item(TableName="events", Item={"pk": {"S": "2"}})
    eventually(lambda: item(west, "events", "2"))

    def records(ddb, region):
        streams = boto3.client("dynamodbstreams", endpoint_url=server.endpoint, region_name=region,
                               aws_access_key_id=KEY, aws_secret_access_key="secret")
        arn = ddb.describe_table(TableName="events")["Table"]["LatestStreamArn"]
        assert f":{region}:" in arn
        shard = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]["ShardId"]
        iterator = streams.get_shard_iterator(StreamArn=arn, ShardId=shard,
                                              ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
        return streams.get_records(ShardIterator=iterator)["Records"]

    # Two writes in us-east-1: two records in each region.
    assert [r["dynamodb"]["Keys"]["pk"]["S"] for r in records(east, "us-east-1")] == ["1", "2"]
    assert [r["dynamodb"]["Keys"]["pk"]["S"] for r in records(west, "eu-west-1")] == ["1", "2"]


def test_conflicting_writes_converge_on_the_later(start_dynapage):
    server = start_dynapage()
    east, west = client(server, "us-east-1"), client(server, "eu-west-1")
    east.create_table(TableName="counters", **TABLE)
    add_replica(east, "counters")
    for round_ in range(20):
        # Both regions write one item as fast as they can; the later write must win in both.
        east.put_item(TableName="counters", Item={"pk": {"S": "x"}, "from": {"S": f"east{round_}"}})
        west.put_item(TableName="counters", Item={"pk": {"S": "x"}, "from": {"S": f"west{round_}"}})
    eventually(lambda: item(east, "counters", "x") == item(west, "counters", "x"))
    assert item(east, "counters", "x")["from"] == {"S": "west19"}
    # Truly concurrent writes: two threads write the same 20 items in both regions at once; each item must end the
    # same in both (the write with the later stamp), whatever order the replicated writes arrive in.
    def writer(ddb, region):
        for i in range(300):
            ddb.put_item(TableName="counters", Item={"pk": {"S": f"k{i % 20}"}, "v": {"S": f"{region}{i}"}})

    threads = [threading.Thread(target=writer, args=(client(server, r), r)) for r in ("us-east-1", "eu-west-1")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    eventually(lambda: all(item(east, "counters", f"k{k}") == item(west, "counters", f"k{k}") for k in range(20)))
    # A delete is a write too: it wins over an earlier put of the other region.
    east.put_item(TableName="counters", Item={"pk": {"S": "y"}})
    eventually(lambda: item(west, "counters", "y") is not None)
    west.delete_item(TableName="counters", Key={"pk": {"S": "y"}})
    eventually(lambda: item(east, "counters", "y") is None and item(west, "counters", "y") is None)


def test_delete_wins_over_an_earlier_put_still_on_its_way(start_dynapage):
    """A delete of an item its region does not hold yet leaves a tombstone and replicates: the other region's
    earlier put, arriving afterwards, loses in both regions (it used to come back)."""
    server = start_dynapage()
    east, west = client(server, "us-east-1"), client(server, "eu-west-1")
    east.create_table(TableName="race", **TABLE)
    add_replica(east, "race")
    # Writers in us-east-1 keep the replicator busy, so that eu-west-1's puts queue behind their items and reach
    # us-east-1 after its deletes.
    stop = threading.Event()

    def flood(n):
        ddb = client(server, "us-east-1")
        i = 0
        while not stop.is_set():
            batch = [{"PutRequest": {"Item": {"pk": {"S": f"flood{n}-{i}-{j}"}, "pad": {"S": "x" * 4000}}}}
                     for j in range(25)]
            ddb.batch_write_item(RequestItems={"race": batch})
            i += 1

    flooders = [threading.Thread(target=flood, args=(n,)) for n in range(3)]
    for t in flooders:
        t.start()
    try:
        time.sleep(0.3)
        for i in range(60):
            # The put is made first (an earlier stamp); us-east-1 deletes at once, most often before it arrives.
            west.put_item(TableName="race", Item={"pk": {"S": f"y{i}"}})
            east.delete_item(TableName="race", Key={"pk": {"S": f"y{i}"}})
    finally:
        stop.set()
        for t in flooders:
            t.join()
    for region_client in (east, west):
        eventually(lambda: all(item(region_client, "race", f"y{i}") is None for i in range(60)))
    time.sleep(0.5)  # nothing still on its way brings one back
    assert [i for i in range(60) if item(east, "race", f"y{i}") or item(west, "race", f"y{i}")] == []


def test_deleting_a_replica_removes_it(start_dynapage):
    server = start_dynapage()
    east, west = client(server, "us-east-1"), client(server, "eu-west-1")
    east.create_table(TableName="tab", **TABLE)
    add_replica(east, "tab")
    answer = east.update_table(TableName="tab", ReplicaUpdates=[{"Delete": {"RegionName": "eu-west-1"}}])
    assert answer["TableDescription"]["Replicas"] == [{"RegionName": "eu-west-1", "ReplicaStatus": "DELETING"}]
    assert west.list_tables()["TableNames"] == []
    described = east.describe_table(TableName="tab")["Table"]
    for member in ("Replicas", "GlobalTableVersion"):
        assert member not in described
    # The table is regional again: its writes stay where they are.
    east.put_item(TableName="tab", Item={"pk": {"S": "alone"}})
    west.create_table(TableName="tab", **TABLE)
    time.sleep(0.2)
    assert item(west, "tab", "alone") is None

    # DeleteTable in a replica's region removes only that replica.
    west.delete_table(TableName="tab")
    add_replica(east, "tab")
    west.delete_table(TableName="tab")
    assert "Replicas" not in east.describe_table(TableName="tab")["Table"]
    assert item(east, "tab", "alone") == {"pk": {"S": "alone"}}


def test_membership_changes_are_serialised_and_deleting_replicas_show(start_dynapage):
    """Under --transient-status-delay a new replica is CREATING and a deleted one DELETING for the delay; meanwhile
    another Create or Delete of the group is ResourceInUseException (one membership change at a time)."""
    server = start_dynapage("--transient-status-delay", "1500")
    east = client(server, "us-east-1")
    east.create_table(TableName="serial", **TABLE)
    eventually(lambda: east.describe_table(TableName="serial")["Table"]["TableStatus"] == "ACTIVE")
    in_use = "Attempt to change a resource which is still in use: Table is being updated: serial"

    def refused(update):
        with pytest.raises(ClientError) as e:
            east.update_table(TableName="serial", ReplicaUpdates=[update])
        assert e.value.response["Error"] == {"Code": "ResourceInUseException", "Message": in_use}

    add_replica(east, "serial")
    assert east.describe_table(TableName="serial")["Table"]["Replicas"] == [
        {"RegionName": "eu-west-1", "ReplicaStatus": "CREATING"}]
    refused({"Create": {"RegionName": "ap-south-1"}})
    refused({"Delete": {"RegionName": "eu-west-1"}})
    eventually(lambda: east.describe_table(TableName="serial")["Table"]["Replicas"] == [
        {"RegionName": "eu-west-1", "ReplicaStatus": "ACTIVE"}])

    add_replica(east, "serial", "ap-south-1")
    eventually(lambda: all(r["ReplicaStatus"] == "ACTIVE"
                           for r in east.describe_table(TableName="serial")["Table"]["Replicas"]))
    east.update_table(TableName="serial", ReplicaUpdates=[{"Delete": {"RegionName": "eu-west-1"}}])
    assert east.describe_table(TableName="serial")["Table"]["Replicas"] == [
        {"RegionName": "ap-south-1", "ReplicaStatus": "ACTIVE"}, {"RegionName": "eu-west-1", "ReplicaStatus": "DELETING"}]
    refused({"Create": {"RegionName": "eu-west-1"}})
    eventually(lambda: east.describe_table(TableName="serial")["Table"]["Replicas"] == [
        {"RegionName": "ap-south-1", "ReplicaStatus": "ACTIVE"}])

    # The last replica deleted: the table is regional, and shows it DELETING for the delay.
    east.update_table(TableName="serial", ReplicaUpdates=[{"Delete": {"RegionName": "ap-south-1"}}])
    described = east.describe_table(TableName="serial")["Table"]
    assert described["Replicas"] == [{"RegionName": "ap-south-1", "ReplicaStatus": "DELETING"}]
    assert "GlobalTableVersion" not in described
    eventually(lambda: "Replicas" not in east.describe_table(TableName="serial")["Table"])


def test_group_settings_apply_to_every_replica(start_dynapage):
    """UpdateTable and UpdateTimeToLive on one replica change the group-wide settings of all (version 2019.11.21):
    a GSI created in us-east-1 is queried in eu-west-1, one deleted there goes in us-east-1 too, TTL and encryption
    follow; regional settings (table class) stay."""
    server = start_dynapage()
    east, west = client(server, "us-east-1"), client(server, "eu-west-1")
    east.create_table(TableName="shared", **TABLE)
    add_replica(east, "shared")
    east.put_item(TableName="shared", Item={"pk": {"S": "a"}, "color": {"S": "red"}})
    east.update_table(
        TableName="shared",
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "color", "AttributeType": "S"}],
        GlobalSecondaryIndexUpdates=[{"Create": {
            "IndexName": "by_color", "KeySchema": [{"AttributeName": "color", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "ALL"}}}])

    def west_index_active():
        indexes = west.describe_table(TableName="shared")["Table"].get("GlobalSecondaryIndexes", [])
        return [i["IndexName"] for i in indexes if i["IndexStatus"] == "ACTIVE"] == ["by_color"]

    eventually(west_index_active)
    found = west.query(TableName="shared", IndexName="by_color", KeyConditionExpression="color = :c",
                       ExpressionAttributeValues={":c": {"S": "red"}})["Items"]
    assert found == [{"pk": {"S": "a"}, "color": {"S": "red"}}]
    # A write made afterwards is in the other region's index too.
    east.put_item(TableName="shared", Item={"pk": {"S": "b"}, "color": {"S": "red"}})
    eventually(lambda: west.query(TableName="shared", IndexName="by_color", KeyConditionExpression="color = :c",
                                  ExpressionAttributeValues={":c": {"S": "red"}})["Count"] == 2)

    west.update_time_to_live(TableName="shared",
                             TimeToLiveSpecification={"Enabled": True, "AttributeName": "expires"})
    assert east.describe_time_to_live(TableName="shared")["TimeToLiveDescription"] == {
        "TimeToLiveStatus": "ENABLED", "AttributeName": "expires"}
    east.update_table(TableName="shared", SSESpecification={"Enabled": True, "SSEType": "KMS"})
    sse = west.describe_table(TableName="shared")["Table"]["SSEDescription"]
    assert (sse["SSEType"], sse["KMSMasterKeyArn"].split(":")[3]) == ("KMS", "eu-west-1")  # the key in its region
    east.update_table(TableName="shared", TableClass="STANDARD_INFREQUENT_ACCESS")  # regional
    assert "TableClassSummary" not in west.describe_table(TableName="shared")["Table"]

    west.update_table(TableName="shared", GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": "by_color"}}])
    eventually(lambda: "GlobalSecondaryIndexes" not in east.describe_table(TableName="shared")["Table"])


def test_replica_errors(start_dynapage):
    server = start_dynapage()
    east, west = client(server, "us-east-1"), client(server, "eu-west-1")
    east.create_table(TableName="tab", **TABLE)

    def error(call, **kwargs):
        with pytest.raises(ClientError) as raised:
            call(**kwargs)
        return raised.value.response["Error"]["Code"], raised.value.response["Error"]["Message"]

    assert error(east.update_table, TableName="tab", ReplicaUpdates=[{"Create": {"RegionName": "us-east-1"}}]) == (
        "ValidationException", "Cannot add or delete the local region through ReplicaUpdates")
    assert error(east.update_table, TableName="tab", ReplicaUpdates=[{"Delete": {"RegionName": "eu-west-1"}}]) == (
        "ValidationException",
        "Update global table operation failed because one or more replicas were not part of the global table.")
    assert error(east.update_table, TableName="nope", ReplicaUpdates=[{"Create": {"RegionName": "eu-west-1"}}])[0] == (
        "ResourceNotFoundException")
    west.create_table(TableName="tab", **TABLE)
    assert error(east.update_table, TableName="tab", ReplicaUpdates=[{"Create": {"RegionName": "eu-west-1"}}]) == (
        "ValidationException",
        "Failed to create a the new replica of table with name: 'tab' because one or more replicas already existed "
        "as tables.")
    east.create_table(TableName="provisioned", AttributeDefinitions=TABLE["AttributeDefinitions"],
                      KeySchema=TABLE["KeySchema"], ProvisionedThroughput={"ReadCapacityUnits": 1,
                                                                           "WriteCapacityUnits": 1})
    assert error(east.update_table, TableName="provisioned",
                 ReplicaUpdates=[{"Create": {"RegionName": "eu-west-1"}}]) == (
        "ValidationException", "Table write capacity should either be Pay-Per-Request or AutoScaled.")
    assert error(east.update_table, TableName="tab", BillingMode="PAY_PER_REQUEST",
                 ReplicaUpdates=[{"Create": {"RegionName": "eu-west-2"}}]) == (
        "ValidationException",
        "One or more parameter values were invalid: Replica modification must be the only operation in the request")
    east.update_table(TableName="tab", ReplicaUpdates=[{"Create": {"RegionName": "eu-west-2"}}])
    assert error(east.update_table, TableName="tab",
                 StreamSpecification={"StreamEnabled": False}) == (
        "ValidationException", "Disabling Stream is not allowed for a Global Table replica")


def test_restart_keeps_replicas_linked_and_replicating(start_dynapage, tmp_path):
    data = str(tmp_path / "data")
    server = start_dynapage("--db-path", data)
    east = client(server, "us-east-1")
    east.create_table(TableName="kept", **TABLE)
    add_replica(east, "kept")
    east.put_item(TableName="kept", Item={"pk": {"S": "old"}})
    eventually(lambda: item(client(server, "eu-west-1"), "kept", "old"))
    assert server.stop()[0] == 0

    server = start_dynapage("--db-path", data)
    east, west = client(server, "us-east-1"), client(server, "eu-west-1")
    assert west.describe_table(TableName="kept")["Table"]["Replicas"] == [
        {"RegionName": "us-east-1", "ReplicaStatus": "ACTIVE"}]
    # The first request after the restart is in eu-west-1: its write still reaches us-east-1.
    west.put_item(TableName="kept", Item={"pk": {"S": "new"}})
    assert eventually(lambda: item(east, "kept", "new")) == {"pk": {"S": "new"}}
    assert item(west, "kept", "old") == {"pk": {"S": "old"}}


def test_legacy_global_tables(start_dynapage):
    server = start_dynapage()
    east, west = client(server, "us-east-1"), client(server, "eu-west-1")
    stream = {"StreamSpecification": {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"}}
    for ddb in (east, west):
        ddb.create_table(TableName="legacy", **TABLE, **stream)
    created = east.create_global_table(GlobalTableName="legacy", ReplicationGroup=[
        {"RegionName": "us-east-1"}, {"RegionName": "eu-west-1"}])["GlobalTableDescription"]
    assert created["GlobalTableStatus"] == "CREATING"
    assert created["GlobalTableArn"] == "arn:aws:dynamodb::000000000000:global-table/legacy"
    described = west.describe_global_table(GlobalTableName="legacy")["GlobalTableDescription"]
    assert described["GlobalTableStatus"] == "ACTIVE"
    assert [r["RegionName"] for r in described["ReplicationGroup"]] == ["us-east-1", "eu-west-1"]
    assert east.list_global_tables()["GlobalTables"] == [
        {"GlobalTableName": "legacy", "ReplicationGroup": [{"RegionName": "us-east-1"}, {"RegionName": "eu-west-1"}]}]
    assert east.list_global_tables(RegionName="ap-south-1")["GlobalTables"] == []

    # Items carry the aws:rep:* attributes, set where they were written.
    east.put_item(TableName="legacy", Item={"pk": {"S": "a"}})
    replicated = eventually(lambda: item(west, "legacy", "a"))
    assert replicated["aws:rep:updateregion"] == {"S": "us-east-1"}
    assert replicated["aws:rep:deleting"] == {"BOOL": False}
    assert "." in replicated["aws:rep:updatetime"]["N"]
    assert "GlobalTableVersion" not in east.describe_table(TableName="legacy")["Table"]

    def error(call, **kwargs):
        with pytest.raises(ClientError) as raised:
            call(**kwargs)
        return raised.value.response["Error"]["Code"]

    assert error(east.create_global_table, GlobalTableName="legacy",
                 ReplicationGroup=[{"RegionName": "us-east-1"}]) == "GlobalTableAlreadyExistsException"
    assert error(east.describe_global_table, GlobalTableName="nope") == "GlobalTableNotFoundException"
    assert error(east.update_global_table, GlobalTableName="legacy",
                 ReplicaUpdates=[{"Create": {"RegionName": "eu-west-1"}}]) == "ReplicaAlreadyExistsException"
    assert error(east.update_global_table, GlobalTableName="legacy",
                 ReplicaUpdates=[{"Delete": {"RegionName": "eu-west-2"}}]) == "ReplicaNotFoundException"
    assert error(east.update_global_table, GlobalTableName="legacy",
                 ReplicaUpdates=[{"Create": {"RegionName": "eu-west-2"}}]) == "TableNotFoundException"

    # A removed replica stays, as an independent table.
    east.update_global_table(GlobalTableName="legacy", ReplicaUpdates=[{"Delete": {"RegionName": "eu-west-1"}}])
    assert error(east.describe_global_table, GlobalTableName="legacy") == "GlobalTableNotFoundException"
    east.put_item(TableName="legacy", Item={"pk": {"S": "b"}})
    time.sleep(0.2)
    assert item(west, "legacy", "b") is None
    assert item(west, "legacy", "a") is not None


def test_global_table_settings(start_dynapage):
    server = start_dynapage()
    east, west = client(server, "us-east-1"), client(server, "eu-west-1")
    provisioned = {"AttributeDefinitions": TABLE["AttributeDefinitions"], "KeySchema": TABLE["KeySchema"],
                   "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5},
                   "StreamSpecification": {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"}}
    for ddb in (east, west):
        ddb.create_table(TableName="settings", **provisioned)
    east.create_global_table(GlobalTableName="settings",
                             ReplicationGroup=[{"RegionName": "us-east-1"}, {"RegionName": "eu-west-1"}])
    settings = east.describe_global_table_settings(GlobalTableName="settings")
    assert [r["RegionName"] for r in settings["ReplicaSettings"]] == ["us-east-1", "eu-west-1"]
    assert settings["ReplicaSettings"][0]["ReplicaProvisionedWriteCapacityUnits"] == 5

    updated = east.update_global_table_settings(
        GlobalTableName="settings", GlobalTableProvisionedWriteCapacityUnits=7,
        ReplicaSettingsUpdate=[{"RegionName": "eu-west-1", "ReplicaProvisionedReadCapacityUnits": 9}])
    by_region = {r["RegionName"]: r for r in updated["ReplicaSettings"]}
    assert by_region["us-east-1"]["ReplicaProvisionedWriteCapacityUnits"] == 7
    assert by_region["eu-west-1"]["ReplicaProvisionedWriteCapacityUnits"] == 7
    assert by_region["eu-west-1"]["ReplicaProvisionedReadCapacityUnits"] == 9
    assert by_region["us-east-1"]["ReplicaProvisionedReadCapacityUnits"] == 5
    assert west.describe_table(TableName="settings")["Table"]["ProvisionedThroughput"]["ReadCapacityUnits"] == 9

    with pytest.raises(ClientError) as raised:
        east.update_global_table_settings(GlobalTableName="settings",
                                          ReplicaSettingsUpdate=[{"RegionName": "ap-south-1",
                                                                  "ReplicaProvisionedReadCapacityUnits": 1}])
    assert raised.value.response["Error"]["Code"] == "ReplicaNotFoundException"
    with pytest.raises(ClientError) as raised:
        east.update_global_table_settings(GlobalTableName="settings", GlobalTableGlobalSecondaryIndexSettingsUpdate=[
            {"IndexName": "nope", "ProvisionedWriteCapacityUnits": 1}])
    assert raised.value.response["Error"]["Code"] == "IndexNotFoundException"
    with pytest.raises(ClientError) as raised:
        east.describe_global_table_settings(GlobalTableName="nope")
    assert raised.value.response["Error"]["Code"] == "GlobalTableNotFoundException"


def test_replica_auto_scaling(start_dynapage):
    server = start_dynapage()
    east = client(server, "us-east-1")
    east.create_table(TableName="scaled", **TABLE)
    with pytest.raises(ClientError) as raised:
        east.describe_table_replica_auto_scaling(TableName="scaled")
    assert raised.value.response["Error"]["Code"] == "ResourceNotFoundException"
    assert raised.value.response["Error"]["Message"] == "Global table with name: 'scaled' does not exist."

    add_replica(east, "scaled")
    described = east.describe_table_replica_auto_scaling(TableName="scaled")["TableAutoScalingDescription"]
    assert [r["RegionName"] for r in described["Replicas"]] == ["us-east-1", "eu-west-1"]
    assert described["Replicas"][0]["ReplicaProvisionedReadCapacityAutoScalingSettings"] == {
        "AutoScalingDisabled": True, "ScalingPolicies": []}

    # On-demand tables take only AutoScalingDisabled.
    east.update_table_replica_auto_scaling(
        TableName="scaled", ProvisionedWriteCapacityAutoScalingUpdate={"AutoScalingDisabled": True})
    with pytest.raises(ClientError) as raised:
        east.update_table_replica_auto_scaling(
            TableName="scaled", ReplicaUpdates=[{"RegionName": "eu-west-1",
                                                 "ReplicaProvisionedReadCapacityAutoScalingUpdate": {
                                                     "MinimumUnits": 1, "MaximumUnits": 10,
                                                     "ScalingPolicyUpdate": {"TargetTrackingScalingPolicyConfiguration":
                                                                             {"TargetValue": 70.0}}}}])
    assert raised.value.response["Error"]["Code"] == "ValidationException"

    # A provisioned global table keeps and reports its settings (nothing scales).
    east.update_table(TableName="scaled", ReplicaUpdates=[{"Delete": {"RegionName": "eu-west-1"}}])
    east.update_table(TableName="scaled", BillingMode="PROVISIONED",
                      ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 5})
    with pytest.raises(ClientError) as raised:
        add_replica(east, "scaled")
    assert raised.value.response["Error"]["Message"] == "Table write capacity should either be Pay-Per-Request or AutoScaled."
