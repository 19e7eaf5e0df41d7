"""Two tests on two pytest-xdist workers meet at named points (files in $DYNAPAGE_RENDEZVOUS), so that their steps
interleave as they would in a real parallel run, whatever the scheduler does."""

import os
import time


def _path(name):
    return os.path.join(os.environ["DYNAPAGE_RENDEZVOUS"], name)


def arrive(name, text="yes"):
    with open(_path(name) + ".tmp", "w") as f:
        f.write(text)
    os.replace(_path(name) + ".tmp", _path(name))


def wait_for(name, timeout=30):
    deadline = time.monotonic() + timeout
    while not os.path.exists(_path(name)):
        assert time.monotonic() < deadline, f"the other worker never reached {name!r}"
        time.sleep(0.05)
    with open(_path(name)) as f:
        return f.read()


TABLE = {
    "TableName": "Orders",  # the same name in both workers: only their namespaces keep them apart
    "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
    "BillingMode": "PAY_PER_REQUEST",
}


def create_and_check(dynapage, me, other):
    """Both workers: the same table name, one item each; each sees only its own."""
    client = dynapage.client()
    assert client.list_tables()["TableNames"] == []
    client.create_table(**TABLE)
    client.put_item(TableName="Orders", Item={"pk": {"S": me}})
    arrive(f"created-{me}")
    wait_for(f"created-{other}")
    items = client.scan(TableName="Orders", ConsistentRead=True)["Items"]
    assert items == [{"pk": {"S": me}}], f"{me} sees another worker's items: {items}"
    assert client.list_tables()["TableNames"] == ["Orders"]
    arrive(f"checked-{me}")
    wait_for(f"checked-{other}")
