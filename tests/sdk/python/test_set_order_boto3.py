"""Set order through boto3 (docs/behaviour.md §1): SS, NS and BS come back sorted (strings and binaries by their
bytes, numbers by value) after every write path. The low-level client is used: boto3's resource layer turns sets
into Python sets, which have no order to check."""

import pytest

SS = ["b", "a", "\u00e9", "B", ""]          # bytes: "" < "B" < "a" < "b" < "é" (0xC3 0xA9)
SORTED_SS = ["", "B", "a", "b", "\u00e9"]
NS = ["10", "-2.5", "3", "0", "1e2"]
SORTED_NS = ["-2.5", "0", "3", "10", "100"]
BS = [b"\x80", b"\x01\x02", b"\x01", b""]
SORTED_BS = [b"", b"\x01", b"\x01\x02", b"\x80"]


@pytest.fixture
def ddb(dynapage):
    client = dynapage.client()
    client.create_table(
        TableName="sets",
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        BillingMode="PAY_PER_REQUEST",
    )
    return client


def item(pk):
    return {"pk": {"S": pk}, "ss": {"SS": SS}, "ns": {"NS": NS}, "bs": {"BS": BS}}


def sets(ddb, pk):
    got = ddb.get_item(TableName="sets", Key={"pk": {"S": pk}}, ConsistentRead=True)["Item"]
    return got["ss"]["SS"], got["ns"]["NS"], got["bs"]["BS"]


def test_every_write_path_stores_sets_sorted(ddb):
    ddb.put_item(TableName="sets", Item=item("put"))
    ddb.batch_write_item(RequestItems={"sets": [{"PutRequest": {"Item": item("batch")}}]})
    ddb.transact_write_items(TransactItems=[{"Put": {"TableName": "sets", "Item": item("tx")}}])
    for pk in ("put", "batch", "tx"):
        assert sets(ddb, pk) == (SORTED_SS, SORTED_NS, SORTED_BS), pk


def test_add_and_delete_leave_sets_sorted(ddb):
    ddb.put_item(TableName="sets", Item={"pk": {"S": "upd"}, "ss": {"SS": ["m"]}, "ns": {"NS": ["5"]},
                                         "bs": {"BS": [b"\x40"]}})
    ddb.update_item(TableName="sets", Key={"pk": {"S": "upd"}}, UpdateExpression="ADD ss :ss, ns :ns, bs :bs",
                    ExpressionAttributeValues={":ss": {"SS": SS}, ":ns": {"NS": NS}, ":bs": {"BS": BS}})
    assert sets(ddb, "upd") == (["", "B", "a", "b", "m", "\u00e9"], ["-2.5", "0", "3", "5", "10", "100"],
                                [b"", b"\x01", b"\x01\x02", b"\x40", b"\x80"])
    ddb.update_item(TableName="sets", Key={"pk": {"S": "upd"}}, UpdateExpression="DELETE ss :ss",
                    ExpressionAttributeValues={":ss": {"SS": ["a"]}})
    assert sets(ddb, "upd")[0] == ["", "B", "b", "m", "\u00e9"]


def test_partiql_insert_stores_sets_sorted(ddb):
    ddb.execute_statement(Statement="INSERT INTO \"sets\" VALUE {'pk': 'pql', 'ss': <<'b', 'a', 'B'>>, "
                                    "'ns': <<10, -2.5, 3>>}")
    got = ddb.get_item(TableName="sets", Key={"pk": {"S": "pql"}}, ConsistentRead=True)["Item"]
    assert (got["ss"]["SS"], got["ns"]["NS"]) == (["B", "a", "b"], ["-2.5", "3", "10"])
