"""Namespaces through boto3 (docs/dynamodb-local.md): two access keys and two regions against one server.

By default each access key and region has its own tables, and ARNs name the request's region and the account of
the access key; DynamoDB Local's -sharedDb (or --namespace shared) gives everybody one set; --namespace region
keeps regions apart whatever the key.
"""

import boto3
import pytest
from botocore.exceptions import ClientError

TABLE = {
    "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
    "BillingMode": "PAY_PER_REQUEST",
}


def client(server, access_key, region):
    return boto3.client("dynamodb", endpoint_url=server.endpoint, region_name=region,
                        aws_access_key_id=access_key, aws_secret_access_key="secret")


def test_each_access_key_and_region_has_its_own_tables(start_dynapage):
    server = start_dynapage()
    alice_west = client(server, "AKIDALICE", "us-west-2")
    alice_east = client(server, "AKIDALICE", "us-east-1")
    bob_west = client(server, "123456789012", "us-west-2")

    arn = alice_west.create_table(TableName="orders", **TABLE)["TableDescription"]["TableArn"]
    assert arn == "arn:aws:dynamodb:us-west-2:000000000000:table/orders"
    alice_west.put_item(TableName="orders", Item={"pk": {"S": "west"}})
    assert alice_east.list_tables()["TableNames"] == []
    assert bob_west.list_tables()["TableNames"] == []
    with pytest.raises(ClientError) as error:
        alice_east.get_item(TableName="orders", Key={"pk": {"S": "west"}})
    assert error.value.response["Error"]["Code"] == "ResourceNotFoundException"

    # The same name elsewhere is another table; a 12-digit access key is the account of the ARN.
    arn = bob_west.create_table(TableName="orders", **TABLE)["TableDescription"]["TableArn"]
    assert arn == "arn:aws:dynamodb:us-west-2:123456789012:table/orders"
    assert "Item" not in bob_west.get_item(TableName="orders", Key={"pk": {"S": "west"}})
    assert alice_west.get_item(TableName="orders", Key={"pk": {"S": "west"}})["Item"] == {"pk": {"S": "west"}}
    described = bob_west.describe_table(TableName="orders")["Table"]
    assert described["TableArn"] == arn

    # Tags follow the table's namespace.
    bob_west.tag_resource(ResourceArn=arn, Tags=[{"Key": "owner", "Value": "bob"}])
    assert bob_west.list_tags_of_resource(ResourceArn=arn)["Tags"] == [{"Key": "owner", "Value": "bob"}]
    with pytest.raises(ClientError) as error:
        alice_west.list_tags_of_resource(ResourceArn=arn)
    # DynamoDB answers a well-formed ARN of a table the caller does not have with AccessDeniedException (issue #29).
    assert error.value.response["Error"]["Code"] == "AccessDeniedException"


@pytest.mark.parametrize("flags", [("-sharedDb", "-inMemory"), ("--namespace", "shared")])
def test_shared_namespace_gives_everybody_one_set_of_tables(start_dynapage, flags):
    server = start_dynapage(*flags)
    first = client(server, "AKIDALICE", "us-west-2")
    first.create_table(TableName="shared", **TABLE)
    first.put_item(TableName="shared", Item={"pk": {"S": "a"}})
    other = client(server, "AKIDBOB", "eu-west-1")
    assert other.list_tables()["TableNames"] == ["shared"]
    assert other.get_item(TableName="shared", Key={"pk": {"S": "a"}})["Item"] == {"pk": {"S": "a"}}
    # The ARN names the region of the request that created the table.
    assert other.describe_table(TableName="shared")["Table"]["TableArn"].startswith("arn:aws:dynamodb:us-west-2:")


def test_region_namespace_shares_tables_across_access_keys(start_dynapage):
    server = start_dynapage("--namespace", "region")
    client(server, "AKIDALICE", "us-west-2").create_table(TableName="regional", **TABLE)
    assert client(server, "AKIDBOB", "us-west-2").list_tables()["TableNames"] == ["regional"]
    assert client(server, "AKIDALICE", "us-east-1").list_tables()["TableNames"] == []


def test_namespaces_persist_in_the_folders_one_store(start_dynapage, tmp_path):
    data = tmp_path / "data"
    server = start_dynapage("-dbPath", str(data))
    callers = [("AKIDALICE", "us-west-2"), ("AKIDALICE", "eu-west-1"), ("AKIDBOB", "us-west-2")]
    for n, (key, region) in enumerate(callers):
        caller = client(server, key, region)
        caller.create_table(TableName="kept", **TABLE)
        caller.put_item(TableName="kept", Item={"pk": {"S": f"{key}-{region}"}, "n": {"N": str(n)}})
    code, _ = server.stop()
    assert code == 0
    # One store in the folder for every namespace (docs/dynamodb-local.md, "The data folder").
    assert not [p for p in data.iterdir() if p.is_dir()]
    again = start_dynapage("-dbPath", str(data))
    for n, (key, region) in enumerate(callers):
        caller = client(again, key, region)
        assert caller.list_tables()["TableNames"] == ["kept"]
        items = caller.scan(TableName="kept")["Items"]
        assert items == [{"pk": {"S": f"{key}-{region}"}, "n": {"N": str(n)}}]
    assert client(again, "AKIDCAROL", "us-west-2").list_tables()["TableNames"] == []
