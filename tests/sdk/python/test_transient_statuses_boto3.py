"""DynamoDB Local's -delayTransientStatuses through boto3's waiters (docs/dynamodb-local.md): a new table is CREATING,
a deleted one DELETING, a new global secondary index CREATING, each for the delay, so that the waiters poll."""

import time

import boto3
import pytest
from botocore.exceptions import ClientError

TABLE = {
    "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
    "BillingMode": "PAY_PER_REQUEST",
}
FAST = {"Delay": 0.2, "MaxAttempts": 50}


def test_waiters_see_creating_deleting_and_a_creating_index(start_dynapage):
    server = start_dynapage("--transient-status-delay", "1000")
    ddb = boto3.client("dynamodb", endpoint_url=server.endpoint, region_name="us-east-1",
                       aws_access_key_id="AKIDWAITER", aws_secret_access_key="secret")

    assert ddb.create_table(TableName="waited", **TABLE)["TableDescription"]["TableStatus"] == "CREATING"
    ddb.get_waiter("table_exists").wait(TableName="waited", WaiterConfig=FAST)
    assert ddb.describe_table(TableName="waited")["Table"]["TableStatus"] == "ACTIVE"

    created = ddb.update_table(
        TableName="waited",
        AttributeDefinitions=[{"AttributeName": "g", "AttributeType": "S"}],
        GlobalSecondaryIndexUpdates=[{"Create": {"IndexName": "by_g",
                                                 "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                                 "Projection": {"ProjectionType": "ALL"}}}],
    )["TableDescription"]
    assert [i["IndexStatus"] for i in created["GlobalSecondaryIndexes"]] == ["CREATING"]
    deadline = time.monotonic() + 10
    while ddb.describe_table(TableName="waited")["Table"]["GlobalSecondaryIndexes"][0]["IndexStatus"] != "ACTIVE":
        assert time.monotonic() < deadline, "the index stayed CREATING"
        time.sleep(0.1)

    assert ddb.delete_table(TableName="waited")["TableDescription"]["TableStatus"] == "DELETING"
    assert ddb.describe_table(TableName="waited")["Table"]["TableStatus"] == "DELETING"
    ddb.get_waiter("table_not_exists").wait(TableName="waited", WaiterConfig=FAST)
    with pytest.raises(ClientError) as error:
        ddb.describe_table(TableName="waited")
    assert error.value.response["Error"]["Code"] == "ResourceNotFoundException"
