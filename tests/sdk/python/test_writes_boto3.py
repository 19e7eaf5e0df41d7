"""Writes with expressions through boto3: Table.update_item, conditional put_item, transactions, and concurrent
counters. Uses the fixtures of conftest.py (a fresh in-memory dynapage per test).

Written for the boto3 of Debian 12 (1.26), which predates ReturnValuesOnConditionCheckFailure on single-item
writes; that member is tested at the HTTP level (tests/http/write_condition_test.cc).
"""

import threading
from decimal import Decimal

import pytest
from boto3.dynamodb.conditions import Attr
from botocore.exceptions import ClientError


def make_table(dynapage, name="writes"):
    ddb = dynapage.client()
    ddb.create_table(
        TableName=name,
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        BillingMode="PAY_PER_REQUEST",
    )
    ddb.get_waiter("table_exists").wait(TableName=name, WaiterConfig={"Delay": 1, "MaxAttempts": 5})
    return dynapage.resource().Table(name)


def test_table_update_item_clauses_and_return_values(dynapage):
    table = make_table(dynapage)
    table.put_item(Item={"pk": "a", "price": Decimal("10.10"), "tags": {"x", "y"}, "labels": {"x", "y"}, "log": ["start"], "gone": 1})
    result = table.update_item(
        Key={"pk": "a"},
        UpdateExpression=(
            "SET price = price + :delta, #log = list_append(#log, :entry), visits = if_not_exists(visits, :zero) + :one "
            "REMOVE gone ADD tags :more DELETE labels :less"
        ),
        ExpressionAttributeNames={"#log": "log"},
        ExpressionAttributeValues={
            ":delta": Decimal("0.20"),
            ":entry": ["updated"],
            ":zero": 0,
            ":one": 1,
            ":more": {"z"},
            ":less": {"x"},
        },
        ReturnValues="UPDATED_NEW",
    )
    assert result["Attributes"] == {
        "price": Decimal("10.3"),  # exact decimal arithmetic
        "log": ["start", "updated"],
        "visits": Decimal(1),
        "tags": {"x", "y", "z"},
        "labels": {"y"},
    }
    item = table.get_item(Key={"pk": "a"}, ConsistentRead=True)["Item"]
    assert "gone" not in item
    assert item["price"] == Decimal("10.3")

    old = table.update_item(
        Key={"pk": "a"}, UpdateExpression="SET price = :p", ExpressionAttributeValues={":p": 1}, ReturnValues="ALL_OLD"
    )
    assert old["Attributes"]["price"] == Decimal("10.3")
    new = table.update_item(Key={"pk": "b"}, UpdateExpression="ADD n :one", ExpressionAttributeValues={":one": 5},
                            ReturnValues="ALL_NEW")
    assert new["Attributes"] == {"pk": "b", "n": Decimal(5)}  # created by the update


def test_update_item_errors(dynapage):
    table = make_table(dynapage)
    table.put_item(Item={"pk": "a", "s": "text"})
    cases = [
        ("SET pk = :v", {":v": "b"},
         "One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key"),
        ("ADD s :v", {":v": 1}, "An operand in the update expression has an incorrect data type"),
        ("SET s.x = :v", {":v": 1}, "The document path provided in the update expression is invalid for update"),
        ("ADD s :v", {":v": "x"},
         "1 validation error detected: Invalid UpdateExpression: Incorrect operand type for operator or function; "
         "operator: ADD, operand type: STRING"),
    ]
    for expression, values, message in cases:
        with pytest.raises(ClientError) as error:
            table.update_item(Key={"pk": "a"}, UpdateExpression=expression, ExpressionAttributeValues=values)
        assert error.value.response["Error"] == {"Code": "ValidationException", "Message": message}, expression
    assert table.get_item(Key={"pk": "a"}, ConsistentRead=True)["Item"] == {"pk": "a", "s": "text"}


def test_put_item_with_condition_expression(dynapage):
    table = make_table(dynapage)
    table.put_item(Item={"pk": "a", "v": 1}, ConditionExpression=Attr("pk").not_exists())
    with pytest.raises(ClientError) as error:
        table.put_item(Item={"pk": "a", "v": 2}, ConditionExpression=Attr("pk").not_exists())
    assert error.value.response["Error"] == {
        "Code": "ConditionalCheckFailedException",
        "Message": "The conditional request failed",
    }
    table.put_item(Item={"pk": "a", "v": 3}, ConditionExpression=Attr("v").eq(1))
    assert table.get_item(Key={"pk": "a"}, ConsistentRead=True)["Item"] == {"pk": "a", "v": Decimal(3)}
    with pytest.raises(table.meta.client.exceptions.ConditionalCheckFailedException):
        table.delete_item(Key={"pk": "a"}, ConditionExpression=Attr("v").lt(3))
    assert "Item" in table.get_item(Key={"pk": "a"}, ConsistentRead=True)


def test_transact_write_items_commits_all(dynapage):
    table = make_table(dynapage)
    client = table.meta.client
    table.put_item(Item={"pk": "from", "balance": 100})
    table.put_item(Item={"pk": "to", "balance": 0})
    client.transact_write_items(
        TransactItems=[
            {"Update": {"TableName": "writes", "Key": {"pk": "from"}, "UpdateExpression": "SET balance = balance - :x",
                        "ConditionExpression": "balance >= :x", "ExpressionAttributeValues": {":x": 30}}},
            {"Update": {"TableName": "writes", "Key": {"pk": "to"}, "UpdateExpression": "SET balance = balance + :x",
                        "ExpressionAttributeValues": {":x": 30}}},
            {"Put": {"TableName": "writes", "Item": {"pk": "log#1", "amount": 30}}},
        ]
    )
    got = client.transact_get_items(
        TransactItems=[{"Get": {"TableName": "writes", "Key": {"pk": k}}} for k in ("from", "to", "log#1", "none")]
    )
    assert [r.get("Item") for r in got["Responses"]] == [
        {"pk": "from", "balance": Decimal(70)},
        {"pk": "to", "balance": Decimal(30)},
        {"pk": "log#1", "amount": Decimal(30)},
        None,
    ]


def test_cancelled_transaction_leaves_data_unchanged(dynapage):
    table = make_table(dynapage)
    client = table.meta.client
    table.put_item(Item={"pk": "from", "balance": 10})
    table.put_item(Item={"pk": "to", "balance": 0})
    with pytest.raises(ClientError) as error:
        client.transact_write_items(
            TransactItems=[
                {"Update": {"TableName": "writes", "Key": {"pk": "to"}, "UpdateExpression": "SET balance = balance + :x",
                            "ExpressionAttributeValues": {":x": 30}}},
                {"Update": {"TableName": "writes", "Key": {"pk": "from"},
                            "UpdateExpression": "SET balance = balance - :x", "ConditionExpression": "balance >= :x",
                            "ExpressionAttributeValues": {":x": 30}, "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}},
                {"Put": {"TableName": "writes", "Item": {"pk": "log#1", "amount": 30}}},
            ]
        )
    response = error.value.response
    assert response["Error"]["Code"] == "TransactionCanceledException"
    assert response["Error"]["Message"] == (
        "Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed, None]"
    )
    reasons = response["CancellationReasons"]
    assert [r["Code"] for r in reasons] == ["None", "ConditionalCheckFailed", "None"]
    assert reasons[1]["Message"] == "The conditional request failed"
    assert reasons[1]["Item"] == {"pk": {"S": "from"}, "balance": {"N": "10"}}
    assert table.get_item(Key={"pk": "from"}, ConsistentRead=True)["Item"]["balance"] == 10
    assert table.get_item(Key={"pk": "to"}, ConsistentRead=True)["Item"]["balance"] == 0
    assert "Item" not in table.get_item(Key={"pk": "log#1"}, ConsistentRead=True)


def test_transaction_client_request_token_is_idempotent(dynapage):
    table = make_table(dynapage)
    client = table.meta.client
    items = [{"Update": {"TableName": "writes", "Key": {"pk": "c"}, "UpdateExpression": "ADD n :one",
                         "ExpressionAttributeValues": {":one": 1}}}]
    client.transact_write_items(TransactItems=items, ClientRequestToken="same-token")
    client.transact_write_items(TransactItems=items, ClientRequestToken="same-token")
    assert table.get_item(Key={"pk": "c"}, ConsistentRead=True)["Item"]["n"] == 1
    with pytest.raises(client.exceptions.IdempotentParameterMismatchException):
        client.transact_write_items(
            TransactItems=[{"Put": {"TableName": "writes", "Item": {"pk": "other"}}}], ClientRequestToken="same-token"
        )


def test_concurrent_add_loses_no_increment(dynapage):
    make_table(dynapage)
    threads, adds = 8, 40
    errors = []

    def worker():
        client = dynapage.client()
        try:
            for _ in range(adds):
                client.update_item(
                    TableName="writes",
                    Key={"pk": {"S": "counter"}},
                    UpdateExpression="ADD hits :one",
                    ExpressionAttributeValues={":one": {"N": "1"}},
                )
        except Exception as e:  # reported below: an exception in a thread would otherwise be lost
            errors.append(e)

    running = [threading.Thread(target=worker) for _ in range(threads)]
    for t in running:
        t.start()
    for t in running:
        t.join(timeout=120)
    assert not errors
    item = dynapage.client().get_item(TableName="writes", Key={"pk": {"S": "counter"}}, ConsistentRead=True)["Item"]
    assert item["hits"] == {"N": str(threads * adds)}


def test_startup_calls(dynapage):
    table = make_table(dynapage)
    client = table.meta.client
    assert client.describe_time_to_live(TableName="writes")["TimeToLiveDescription"] == {"TimeToLiveStatus": "DISABLED"}
    client.update_time_to_live(TableName="writes", TimeToLiveSpecification={"Enabled": True, "AttributeName": "ttl"})
    assert client.describe_time_to_live(TableName="writes")["TimeToLiveDescription"] == {
        "TimeToLiveStatus": "ENABLED",
        "AttributeName": "ttl",
    }
    arn = client.describe_table(TableName="writes")["Table"]["TableArn"]
    client.tag_resource(ResourceArn=arn, Tags=[{"Key": "team", "Value": "core"}])
    assert client.list_tags_of_resource(ResourceArn=arn)["Tags"] == [{"Key": "team", "Value": "core"}]
    client.untag_resource(ResourceArn=arn, TagKeys=["team"])
    assert client.list_tags_of_resource(ResourceArn=arn)["Tags"] == []
    limits = client.describe_limits()
    assert limits["TableMaxReadCapacityUnits"] == 40000
    assert client.describe_endpoints()["Endpoints"][0]["CachePeriodInMinutes"] == 1440
