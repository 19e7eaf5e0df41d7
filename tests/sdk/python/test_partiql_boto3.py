"""PartiQL through boto3 (docs/partiql.md): execute_statement with parameters and NextToken pages,
batch_execute_statement and execute_transaction (boto3 sends a ClientRequestToken of its own on every call).
Uses the fixtures of conftest.py (a fresh in-memory dynapage per test).
"""

import pytest
from botocore.exceptions import ClientError


def make_table(ddb, name="music"):
    ddb.create_table(
        TableName=name,
        AttributeDefinitions=[
            {"AttributeName": "Artist", "AttributeType": "S"},
            {"AttributeName": "Song", "AttributeType": "N"},
        ],
        KeySchema=[{"AttributeName": "Artist", "KeyType": "HASH"}, {"AttributeName": "Song", "KeyType": "RANGE"}],
        BillingMode="PAY_PER_REQUEST",
    )


def read_all(ddb, statement, **kwargs):
    items, pages = [], 0
    while True:
        response = ddb.execute_statement(Statement=statement, **kwargs)
        pages += 1
        items += response["Items"]
        if "NextToken" not in response:
            return items, pages
        kwargs["NextToken"] = response["NextToken"]


def test_execute_statement_insert_select_update_delete(ddb):
    make_table(ddb)
    for artist in ("Acme", "Band"):
        for song in range(12):
            ddb.execute_statement(
                Statement="INSERT INTO music VALUE {'Artist': ?, 'Song': ?, 'plays': 0, 'tags': <<'new'>>}",
                Parameters=[{"S": artist}, {"N": str(song)}],
            )
    with pytest.raises(ClientError) as error:
        ddb.execute_statement(Statement="INSERT INTO music VALUE {'Artist': 'Acme', 'Song': 0}")
    assert error.value.response["Error"]["Code"] == "DuplicateItemException"

    items, pages = read_all(ddb, 'SELECT * FROM "music" WHERE Artist = ?', Parameters=[{"S": "Acme"}], Limit=5)
    assert [int(i["Song"]["N"]) for i in items] == list(range(12))
    assert pages == 3
    items, _ = read_all(ddb, "SELECT Song FROM music WHERE Artist IN ['Acme', 'Band'] AND Song >= 10", Limit=4)
    assert sorted(int(i["Song"]["N"]) for i in items) == [10, 10, 11, 11]

    response = ddb.execute_statement(
        Statement="UPDATE music SET plays = plays + 1 SET tags = set_add(tags, <<'hit'>>) "
        "WHERE Artist = 'Acme' AND Song = 3 RETURNING ALL NEW *"
    )
    assert response["Items"][0]["plays"] == {"N": "1"}
    assert sorted(response["Items"][0]["tags"]["SS"]) == ["hit", "new"]
    with pytest.raises(ClientError) as error:
        ddb.execute_statement(Statement="UPDATE music SET plays = 1 WHERE Artist = 'Nobody' AND Song = 1")
    assert error.value.response["Error"]["Code"] == "ConditionalCheckFailedException"

    response = ddb.execute_statement(Statement="DELETE FROM music WHERE Artist = 'Acme' AND Song = 3 RETURNING ALL OLD *")
    assert response["Items"][0]["Song"] == {"N": "3"}
    assert ddb.execute_statement(Statement="DELETE FROM music WHERE Artist = 'Acme' AND Song = 3")["Items"] == []

    with pytest.raises(ClientError) as error:
        ddb.execute_statement(Statement="SELECT COUNT(*) FROM music")
    assert error.value.response["Error"]["Message"] == "Unexpected path component at 1:8:5"


def test_batch_execute_statement(ddb):
    make_table(ddb)
    response = ddb.batch_execute_statement(
        Statements=[
            {"Statement": "INSERT INTO music VALUE {'Artist': 'A', 'Song': 1}"},
            {"Statement": "INSERT INTO music VALUE {'Artist': 'A', 'Song': 2}"},
            {"Statement": "UPDATE music SET x = 1 WHERE Artist = 'A' AND Song = 9"},
        ]
    )["Responses"]
    assert "Error" not in response[0] and "Error" not in response[1]
    assert response[2]["Error"]["Code"] == "ConditionalCheckFailed"
    response = ddb.batch_execute_statement(
        Statements=[
            {"Statement": "SELECT * FROM music WHERE Artist = ? AND Song = ?", "Parameters": [{"S": "A"}, {"N": "2"}]},
            {"Statement": "SELECT * FROM music WHERE Artist = 'A' AND Song = 7"},
        ]
    )["Responses"]
    assert response[0]["Item"] == {"Artist": {"S": "A"}, "Song": {"N": "2"}}
    assert "Item" not in response[1]


def test_execute_transaction(ddb):
    make_table(ddb)
    ddb.execute_statement(Statement="INSERT INTO music VALUE {'Artist': 'A', 'Song': 1, 'n': 1}")
    with pytest.raises(ClientError) as error:
        ddb.execute_transaction(
            TransactStatements=[
                {"Statement": "INSERT INTO music VALUE {'Artist': 'B', 'Song': 1}"},
                {"Statement": "EXISTS(SELECT * FROM music WHERE Artist = 'A' AND Song = 1 AND n = 2)"},
            ]
        )
    assert error.value.response["Error"]["Code"] == "TransactionCanceledException"
    reasons = error.value.response["CancellationReasons"]
    assert [r["Code"] for r in reasons] == ["None", "ConditionalCheckFailed"]

    ddb.execute_transaction(
        TransactStatements=[
            {"Statement": "INSERT INTO music VALUE {'Artist': 'B', 'Song': 1}"},
            {"Statement": "EXISTS(SELECT * FROM music WHERE Artist = 'A' AND Song = 1 AND n = 1)"},
        ],
        ClientRequestToken="same-token",
    )
    # The same call again (an SDK retry) is answered without running it again.
    ddb.execute_transaction(
        TransactStatements=[
            {"Statement": "INSERT INTO music VALUE {'Artist': 'B', 'Song': 1}"},
            {"Statement": "EXISTS(SELECT * FROM music WHERE Artist = 'A' AND Song = 1 AND n = 1)"},
        ],
        ClientRequestToken="same-token",
    )
    response = ddb.execute_transaction(
        TransactStatements=[
            {"Statement": "SELECT * FROM music WHERE Artist = 'B' AND Song = 1"},
            {"Statement": "SELECT n FROM music WHERE Artist = 'A' AND Song = 1"},
            {"Statement": "SELECT * FROM music WHERE Artist = 'C' AND Song = 1"},
        ]
    )["Responses"]
    assert response == [{"Item": {"Artist": {"S": "B"}, "Song": {"N": "1"}}}, {"Item": {"n": {"N": "1"}}}, {}]
