"""The control plane through boto3 (docs/control-plane.md): table settings that round-trip (TableClass, SSE, warm and
on-demand throughput, deletion protection), UpdateTable's members that must be alone, resource policies, Contributor
Insights and Kinesis streaming destinations, with DynamoDB's statuses and messages.

Debian's python3-botocore (1.29) predates deletion protection, warm and on-demand throughput, resource policies and
UpdateKinesisStreamingDestination, and drops the members it does not know from answers: those go through the
conftest's RawClient (the same calls, signed, without botocore's model); the rest through boto3's client."""

import json
import re

import pytest
from botocore.exceptions import ClientError

KEYS = {
    "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                             {"AttributeName": "g", "AttributeType": "S"}],
    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
}
GSI = {"IndexName": "by_g", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
       "Projection": {"ProjectionType": "ALL"}}
STREAM_ARN = "arn:aws:kinesis:us-east-1:000000000000:stream/orders-changes"


ONE_KEY = dict(KEYS, AttributeDefinitions=KEYS["AttributeDefinitions"][:1])


@pytest.fixture
def raw(dynapage):
    return dynapage.raw_client()


def error_of(call, *args, **kwargs):
    with pytest.raises(ClientError) as caught:
        call(*args, **kwargs)
    return caught.value.response["Error"]["Code"], caught.value.response["Error"]["Message"]


def create_settings_table(ddb, name="settings"):
    return ddb.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST", TableClass="STANDARD_INFREQUENT_ACCESS",
        SSESpecification={"Enabled": True}, DeletionProtectionEnabled=True,
        OnDemandThroughput={"MaxReadRequestUnits": 100, "MaxWriteRequestUnits": 50},
        WarmThroughput={"ReadUnitsPerSecond": 13000, "WriteUnitsPerSecond": 5000},
        GlobalSecondaryIndexes=[dict(GSI, OnDemandThroughput={"MaxReadRequestUnits": 10})], **KEYS)


def test_settings_set_at_creation_are_described_and_survive_a_restart(start_dynapage, tmp_path):
    server = start_dynapage("--db-path", str(tmp_path / "db"))
    ddb = server.raw_client()
    created = create_settings_table(ddb)["TableDescription"]
    assert created["WarmThroughput"] == {"ReadUnitsPerSecond": 13000, "WriteUnitsPerSecond": 5000,
                                         "Status": "UPDATING"}
    assert "WarmThroughput" not in created["GlobalSecondaryIndexes"][0]  # not sent for the index: not shown

    def check(table):
        assert table["TableClassSummary"]["TableClass"] == "STANDARD_INFREQUENT_ACCESS"
        sse = table["SSEDescription"]
        assert sse["Status"] == "ENABLED" and sse["SSEType"] == "KMS"
        assert re.fullmatch(r"arn:aws:kms:us-east-1:\d{12}:key/[0-9a-f-]{36}", sse["KMSMasterKeyArn"])
        assert table["DeletionProtectionEnabled"] is True
        assert table["OnDemandThroughput"] == {"MaxReadRequestUnits": 100, "MaxWriteRequestUnits": 50}
        assert table["WarmThroughput"] == {"ReadUnitsPerSecond": 13000, "WriteUnitsPerSecond": 5000,
                                           "Status": "ACTIVE"}
        index = table["GlobalSecondaryIndexes"][0]
        assert index["OnDemandThroughput"] == {"MaxReadRequestUnits": 10, "MaxWriteRequestUnits": -1}
        assert index["WarmThroughput"] == {"ReadUnitsPerSecond": 12000, "WriteUnitsPerSecond": 4000,
                                           "Status": "ACTIVE"}
        return sse["KMSMasterKeyArn"]

    key = check(ddb.describe_table(TableName="settings")["Table"])
    server.stop()
    again = start_dynapage("--db-path", str(tmp_path / "db")).raw_client()
    assert check(again.describe_table(TableName="settings")["Table"]) == key  # the same local key after a restart


def test_defaults_warm_throughput_floors_and_the_account_key(raw):
    raw.create_table(TableName="plain", ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 7},
                     **ONE_KEY)
    plain = raw.describe_table(TableName="plain")["Table"]
    for absent in ("TableClassSummary", "SSEDescription", "OnDemandThroughput"):
        assert absent not in plain
    assert plain["DeletionProtectionEnabled"] is False
    assert plain["WarmThroughput"] == {"ReadUnitsPerSecond": 5, "WriteUnitsPerSecond": 7, "Status": "ACTIVE"}
    raw.update_table(TableName="plain", BillingMode="PAY_PER_REQUEST")
    assert raw.describe_table(TableName="plain")["Table"]["WarmThroughput"]["ReadUnitsPerSecond"] == 12000
    raw.update_table(TableName="plain", BillingMode="PROVISIONED",
                     ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1})
    assert raw.describe_table(TableName="plain")["Table"]["WarmThroughput"]["WriteUnitsPerSecond"] == 4000  # kept

    # Every KMS table of the account and region gets the same aws/dynamodb key; a key id becomes its ARN.
    arns = []
    for name, sse in (("key1", {"Enabled": True}), ("key2", {"SSEType": "KMS"}),
                      ("key3", {"Enabled": True, "SSEType": "KMS", "KMSMasterKeyId": "1234abcd-12ab-34cd-56ef-1234567890ab"})):
        table = raw.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", SSESpecification=sse,
                                 **ONE_KEY)
        arns.append(table["TableDescription"]["SSEDescription"]["KMSMasterKeyArn"])
    assert arns[0] == arns[1] and arns[2].endswith(":key/1234abcd-12ab-34cd-56ef-1234567890ab")
    off = raw.create_table(TableName="key4", BillingMode="PAY_PER_REQUEST", SSESpecification={"Enabled": False},
                           **ONE_KEY)
    assert "SSEDescription" not in off["TableDescription"]  # the AWS owned key: no description, never DISABLED
    assert error_of(raw.create_table, TableName="key5", BillingMode="PAY_PER_REQUEST",
                    SSESpecification={"Enabled": True, "SSEType": "AES256"},
                    **ONE_KEY)[0] == "ValidationException"


def test_update_table_changes_each_setting_alone(raw):
    create_settings_table(raw)
    code, message = error_of(raw.update_table, TableName="settings")
    assert (code, message) == ("ValidationException",
                               "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, "
                               "GlobalSecondaryIndexUpdates or SSESpecification or ReplicaUpdates is required")

    updated = raw.update_table(TableName="settings", TableClass="STANDARD")["TableDescription"]
    assert updated["TableClassSummary"]["TableClass"] == "STANDARD"
    updated = raw.update_table(TableName="settings", SSESpecification={"Enabled": False})["TableDescription"]
    assert updated["SSEDescription"] == {"Status": "UPDATING"}
    assert "SSEDescription" not in raw.describe_table(TableName="settings")["Table"]
    updated = raw.update_table(TableName="settings", WarmThroughput={"ReadUnitsPerSecond": 14000})["TableDescription"]
    assert updated["TableStatus"] == "ACTIVE"
    assert updated["WarmThroughput"] == {"ReadUnitsPerSecond": 14000, "WriteUnitsPerSecond": 5000, "Status": "UPDATING"}
    raw.update_table(TableName="settings", OnDemandThroughput={"MaxReadRequestUnits": -1})
    assert raw.describe_table(TableName="settings")["Table"]["OnDemandThroughput"] == {
        "MaxReadRequestUnits": -1, "MaxWriteRequestUnits": 50}
    raw.update_table(TableName="settings", OnDemandThroughput={"MaxWriteRequestUnits": -1})
    assert "OnDemandThroughput" not in raw.describe_table(TableName="settings")["Table"]
    raw.update_table(TableName="settings", GlobalSecondaryIndexUpdates=[
        {"Update": {"IndexName": "by_g", "WarmThroughput": {"ReadUnitsPerSecond": 20000}}}])
    index = raw.describe_table(TableName="settings")["Table"]["GlobalSecondaryIndexes"][0]
    assert index["WarmThroughput"]["ReadUnitsPerSecond"] == 20000

    assert error_of(raw.update_table, TableName="settings", WarmThroughput={"WriteUnitsPerSecond": 4999}) == (
        "ValidationException",
        "One or more parameter values were invalid: Requested WriteUnitsPerSecond for WarmThroughput for table is "
        "lower than current WarmThroughput, decreasing WarmThroughput is not supported")
    assert error_of(raw.update_table, TableName="settings", OnDemandThroughput={"MaxReadRequestUnits": 0})[1] == (
        "Requested MaxReadRequestUnits for OnDemandThroughput is outside of valid range")

    # Deletion protection refuses DeleteTable until it is turned off.
    assert error_of(raw.delete_table, TableName="settings") == (
        "ValidationException",
        "Resource cannot be deleted as it is currently protected against deletion. Disable deletion protection first.")
    raw.update_table(TableName="settings", DeletionProtectionEnabled=False)
    raw.delete_table(TableName="settings")


@pytest.mark.parametrize("members, message", [
    ({"DeletionProtectionEnabled": True, "SSESpecification": {"Enabled": True}},
     "One or more parameter values were invalid: Server-Side Encryption modification must be the only operation in "
     "the request"),
    ({"TableClass": "STANDARD", "DeletionProtectionEnabled": True},
     "One or more parameter values were invalid: TableClass modification must be the only operation in the request"),
    ({"DeletionProtectionEnabled": True, "BillingMode": "PAY_PER_REQUEST"},
     "One or more parameter values were invalid: DeletionProtection modification must be the only operation in the "
     "request"),
    ({"WarmThroughput": {"ReadUnitsPerSecond": 20000}, "BillingMode": "PAY_PER_REQUEST"},
     "One or more parameter values were invalid: WarmThroughput must be the only operation in the request"),
    ({"ReplicaUpdates": [{"Create": {"RegionName": "eu-west-1"}}], "BillingMode": "PAY_PER_REQUEST"},
     "One or more parameter values were invalid: Replica modification must be the only operation in the request"),
    ({"OnDemandThroughput": {"MaxReadRequestUnits": 5}, "StreamSpecification": {"StreamEnabled": False}},
     "OnDemandThroughput can only be combined with BillingMode in an UpdateTable request"),
])
def test_update_table_members_that_must_be_alone(raw, members, message):
    raw.create_table(TableName="alone", BillingMode="PAY_PER_REQUEST", **ONE_KEY)
    before = raw.describe_table(TableName="alone")["Table"]
    assert error_of(raw.update_table, TableName="alone", **members) == ("ValidationException", message)
    assert raw.describe_table(TableName="alone")["Table"] == before  # nothing applied


def test_on_demand_throughput_needs_pay_per_request(raw):
    assert error_of(raw.create_table, TableName="prov", ProvisionedThroughput={"ReadCapacityUnits": 1,
                                                                            "WriteCapacityUnits": 1},
                    OnDemandThroughput={"MaxWriteRequestUnits": 5},
                    **ONE_KEY) == (
        "ValidationException",
        "One or more parameter values were invalid: MaxWriteRequestUnits for OnDemandThroughput cannot be specified "
        "when table BillingMode is PROVISIONED.")
    raw.create_table(TableName="prov", ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1},
                     **ONE_KEY)
    raw.update_table(TableName="prov", BillingMode="PAY_PER_REQUEST", OnDemandThroughput={"MaxReadRequestUnits": 7})
    assert raw.describe_table(TableName="prov")["Table"]["OnDemandThroughput"]["MaxReadRequestUnits"] == 7


def test_resource_policies(raw):
    table_arn = raw.create_table(TableName="pol", BillingMode="PAY_PER_REQUEST",
                                 StreamSpecification={"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"},
                                 **ONE_KEY)[
        "TableDescription"]["TableArn"]
    stream_arn = raw.describe_table(TableName="pol")["Table"]["LatestStreamArn"]
    policy = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": {"AWS": "arn:aws:iam::111122223333:root"},
                                                      "Action": "dynamodb:GetItem", "Resource": table_arn}]}
    document = json.dumps(policy)

    assert error_of(raw.get_resource_policy, ResourceArn=table_arn) == (
        "PolicyNotFoundException", f"Resource-based policy not found for the provided ResourceArn: {table_arn}")
    assert raw.delete_resource_policy(ResourceArn=table_arn).get("RevisionId") is None  # none there: 200
    revision = raw.put_resource_policy(ResourceArn=table_arn, Policy=document, ExpectedRevisionId="NO_POLICY")[
        "RevisionId"]
    assert revision.isdigit()
    got = raw.get_resource_policy(ResourceArn=table_arn)
    assert (json.loads(got["Policy"]), got["RevisionId"]) == (policy, revision)
    # The same document with other whitespace and member order keeps its revision.
    reordered = json.dumps(dict(reversed(list(policy.items()))), indent=2)
    assert raw.put_resource_policy(ResourceArn=table_arn, Policy=reordered)["RevisionId"] == revision

    assert error_of(raw.put_resource_policy, ResourceArn=table_arn, Policy=document, ExpectedRevisionId="NO_POLICY") == (
        "PolicyNotFoundException",
        "Resource-based policy not found for the provided ResourceArn: Requested policy update expecting none to be "
        f"present for table pol, but a policy exists with revision id {revision}.")
    assert error_of(raw.delete_resource_policy, ResourceArn=table_arn, ExpectedRevisionId="123") == (
        "PolicyNotFoundException",
        "Resource-based policy not found for the provided ResourceArn: Requested update for policy with revision id "
        f"123, but the policy associated to target table pol has revision id {revision}.")
    assert error_of(raw.get_resource_policy, ResourceArn=table_arn.replace("/pol", "/missing")) == (
        "ResourceNotFoundException", "Requested resource not found: Table: missing not found")
    assert error_of(raw.put_resource_policy, ResourceArn=table_arn, Policy="{not json")[0] == "ValidationException"
    assert error_of(raw.put_resource_policy, ResourceArn=table_arn,
                    Policy=json.dumps(dict(policy, Padding="x" * 20480)))[0] == "ValidationException"
    deny = {"Version": "2012-10-17", "Statement": [{"Effect": "Deny", "Principal": "*", "Action": "dynamodb:*",
                                                    "Resource": table_arn}]}
    assert error_of(raw.put_resource_policy, ResourceArn=table_arn, Policy=json.dumps(deny))[0] == "ValidationException"
    raw.put_resource_policy(ResourceArn=table_arn, Policy=json.dumps(deny), ConfirmRemoveSelfResourceAccess=True)
    # The document's statements: unique Sids, no public access, Resources of this account and region, no index.
    def refused(*statements):
        code, message = error_of(raw.put_resource_policy, ResourceArn=table_arn,
                                 Policy=json.dumps({"Version": "2012-10-17", "Statement": list(statements)}))
        assert code == "ValidationException"
        return message

    reader = {"Effect": "Allow", "Principal": {"AWS": "arn:aws:iam::111122223333:root"}, "Action": "dynamodb:GetItem",
              "Resource": table_arn}
    assert refused(dict(reader, Sid="a"), dict(reader, Sid="a")) == (
        "Invalid policy document: Statement IDs (SID) in a single policy must be unique: a")
    assert refused(dict(reader, Principal="*")) == (
        'Invalid policy document: a statement allows access to every principal ("*"): public access is blocked')
    assert refused(dict(reader, Principal={"AWS": ["*"]})).startswith("Invalid policy document: a statement allows")
    other_account = table_arn.replace(":000000000000:", ":999999999999:")
    assert refused(dict(reader, Resource=[table_arn, other_account])) == (
        f"Invalid policy document: Resource {other_account} is not in the account and region of the policy's resource")
    other_region = table_arn.replace(":us-east-1:", ":eu-west-1:")
    assert refused(dict(reader, Resource=other_region)).startswith(f"Invalid policy document: Resource {other_region}")
    assert refused(dict(reader, Resource=table_arn + "/index/gsi")) == (
        f"Invalid policy document: Resource {table_arn}/index/gsi is an index: policies apply to tables and streams")
    assert refused("not a statement") == "Invalid policy document: each Statement must be a JSON object"
    # Denying everyone, and Sids that differ, are fine.
    raw.put_resource_policy(ResourceArn=table_arn, ConfirmRemoveSelfResourceAccess=True, Policy=json.dumps(
        {"Version": "2012-10-17", "Statement": [dict(reader, Sid="a"), dict(deny["Statement"][0], Sid="b")]}))

    # A stream has a policy of its own; deleting answers the removed revision.
    stream_revision = raw.put_resource_policy(ResourceArn=stream_arn, Policy=document)["RevisionId"]
    assert raw.get_resource_policy(ResourceArn=stream_arn)["RevisionId"] == stream_revision
    assert raw.delete_resource_policy(ResourceArn=stream_arn)["RevisionId"] == stream_revision
    assert error_of(raw.get_resource_policy, ResourceArn=stream_arn)[0] == "PolicyNotFoundException"
    assert error_of(raw.get_resource_policy, ResourceArn=table_arn + "/index/x")[0] == "ValidationException"

    # CreateTable attaches one; DeleteTable drops it with the table.
    arn = raw.create_table(TableName="pol2", BillingMode="PAY_PER_REQUEST", ResourcePolicy=document,
                           **ONE_KEY)[
        "TableDescription"]["TableArn"]
    assert json.loads(raw.get_resource_policy(ResourceArn=arn)["Policy"]) == policy


def test_contributor_insights(ddb, raw):
    ddb.create_table(TableName="cin", BillingMode="PAY_PER_REQUEST", GlobalSecondaryIndexes=[GSI], **KEYS)
    fresh = ddb.describe_contributor_insights(TableName="cin")
    fresh.pop("ResponseMetadata")
    assert fresh == {"TableName": "cin", "ContributorInsightsStatus": "DISABLED"}
    assert ddb.list_contributor_insights()["ContributorInsightsSummaries"] == []

    answer = raw.update_contributor_insights(TableName="cin", ContributorInsightsAction="ENABLE")  # with its mode
    assert (answer["ContributorInsightsStatus"], answer["ContributorInsightsMode"]) == (
        "ENABLING", "ACCESSED_AND_THROTTLED_KEYS")
    described = ddb.describe_contributor_insights(TableName="cin")
    assert described["ContributorInsightsStatus"] == "ENABLED"
    assert [r.split("-")[1] for r in described["ContributorInsightsRuleList"]] == ["PKC", "PKT"]
    assert "LastUpdateDateTime" in described
    # Repeating the settled action changes nothing and echoes it.
    assert ddb.update_contributor_insights(TableName="cin", ContributorInsightsAction="ENABLE")[
        "ContributorInsightsStatus"] == "ENABLED"
    raw.update_contributor_insights(TableName="cin", IndexName="by_g", ContributorInsightsAction="ENABLE",
                                    ContributorInsightsMode="THROTTLED_KEYS")
    listed = ddb.list_contributor_insights()["ContributorInsightsSummaries"]
    assert [(s["TableName"], s.get("IndexName"), s["ContributorInsightsStatus"]) for s in listed] == [
        ("cin", None, "ENABLED"), ("cin", "by_g", "ENABLED")]
    assert ddb.update_contributor_insights(TableName="cin", ContributorInsightsAction="DISABLE")[
        "ContributorInsightsStatus"] == "DISABLING"
    assert [s.get("IndexName") for s in ddb.list_contributor_insights(TableName="cin")[
        "ContributorInsightsSummaries"]] == ["by_g"]

    assert error_of(ddb.describe_contributor_insights, TableName="nope") == (
        "ResourceNotFoundException", "Requested resource not found: Table: nope not found")
    assert error_of(ddb.update_contributor_insights, TableName="cin", IndexName="nope",
                    ContributorInsightsAction="ENABLE") == (
        "ResourceNotFoundException", "Requested resource not found: Index: nope not found for table: cin")
    code, message = error_of(ddb.update_contributor_insights, TableName="cin", ContributorInsightsAction="START")
    assert code == "ValidationException" and "Member must satisfy enum value set: [ENABLE, DISABLE]" in message


def test_kinesis_streaming_destinations(ddb, raw):
    ddb.create_table(TableName="kin", BillingMode="PAY_PER_REQUEST",
                     **ONE_KEY)
    assert ddb.describe_kinesis_streaming_destination(TableName="kin")["KinesisDataStreamDestinations"] == []
    enabled = ddb.enable_kinesis_streaming_destination(TableName="kin", StreamArn=STREAM_ARN)
    assert (enabled["DestinationStatus"], enabled["StreamArn"]) == ("ENABLING", STREAM_ARN)
    assert ddb.describe_kinesis_streaming_destination(TableName="kin")["KinesisDataStreamDestinations"] == [
        {"StreamArn": STREAM_ARN, "DestinationStatus": "ACTIVE"}]

    updated = raw.update_kinesis_streaming_destination(
        TableName="kin", StreamArn=STREAM_ARN,
        UpdateKinesisStreamingConfiguration={"ApproximateCreationDateTimePrecision": "MICROSECOND"})
    assert updated["DestinationStatus"] == "UPDATING"
    table_id = raw.describe_table(TableName="kin")["Table"]["TableId"]
    assert error_of(raw.update_kinesis_streaming_destination, TableName="kin", StreamArn=STREAM_ARN,
                    UpdateKinesisStreamingConfiguration={"ApproximateCreationDateTimePrecision": "MICROSECOND"}) == (
        "ValidationException",
        "Invalid Request: Precision is already set to the desired value of MICROSECOND for tableId: "
        f"{table_id}, kdsArn: {STREAM_ARN}")
    assert error_of(raw.update_kinesis_streaming_destination, TableName="kin", StreamArn=STREAM_ARN) == (
        "ValidationException",
        "Streaming destination cannot be updated with given parameters: UpdateKinesisStreamingConfiguration cannot "
        "be null or contain only null values")
    other = STREAM_ARN + "-2"
    assert error_of(raw.update_kinesis_streaming_destination, TableName="kin", StreamArn=other,
                    UpdateKinesisStreamingConfiguration={"ApproximateCreationDateTimePrecision": "MILLISECOND"}) == (
        "ValidationException",
        "Table is not in a valid state to enable Kinesis Streaming Destination: No streaming destination with "
        f"streamArn: {other} found for table with tableName: kin")
    assert error_of(ddb.enable_kinesis_streaming_destination, TableName="kin", StreamArn=other)[0] == \
        "ValidationException"  # one live destination per table

    assert ddb.disable_kinesis_streaming_destination(TableName="kin", StreamArn=STREAM_ARN)[
        "DestinationStatus"] == "DISABLING"
    assert raw.describe_kinesis_streaming_destination(TableName="kin")["KinesisDataStreamDestinations"] == [
        {"StreamArn": STREAM_ARN, "DestinationStatus": "DISABLED", "ApproximateCreationDateTimePrecision": "MICROSECOND"}]
    assert error_of(ddb.disable_kinesis_streaming_destination, TableName="kin", StreamArn=STREAM_ARN) == (
        "ValidationException",
        "Table is not in a valid state to enable Kinesis Streaming Destination: KinesisStreamingDestination must be "
        "ACTIVE to perform DISABLE operation.")
    assert error_of(ddb.enable_kinesis_streaming_destination, TableName="kin",
                    StreamArn="arn:aws:sqs:us-east-1:000000000000:queue/not-a-stream")[0] == "ValidationException"
    assert error_of(ddb.describe_kinesis_streaming_destination, TableName="gone") == (
        "ResourceNotFoundException", "Requested resource not found: Table: gone not found")


def test_transitional_statuses_last_for_the_transient_status_delay(start_dynapage):
    ddb = start_dynapage("--transient-status-delay", "60000").client()
    ddb.create_table(TableName="slow", BillingMode="PAY_PER_REQUEST",
                     **ONE_KEY)
    ddb.update_contributor_insights(TableName="slow", ContributorInsightsAction="ENABLE")
    assert ddb.describe_contributor_insights(TableName="slow")["ContributorInsightsStatus"] == "ENABLING"
    ddb.enable_kinesis_streaming_destination(TableName="slow", StreamArn=STREAM_ARN)
    assert ddb.describe_kinesis_streaming_destination(TableName="slow")["KinesisDataStreamDestinations"][0][
        "DestinationStatus"] == "ENABLING"
