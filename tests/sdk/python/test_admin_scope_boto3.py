"""The admin API acts on the namespace of the caller's credentials (docs/testing-pagination.md, "Scope").

Parallel test workers isolate themselves by access key: one worker's reset, fault rules, page chaos, pagination audit
and request log view must never touch another's. Each worker here is a boto3 client of its own (access key, region);
its admin calls are signed with the same credentials (Dynapage.admin, botocore's SigV4 signer).
"""

import json
import urllib.request

import boto3
import pytest
from botocore.config import Config
from botocore.exceptions import ClientError

# Two access keys in one region, and the first key in a second region: three namespaces.
WORKERS = [("AKIDWORKERA", "us-east-1"), ("AKIDWORKERB", "us-east-1"), ("AKIDWORKERA", "eu-west-1")]
ITEMS = 30


def client(server, worker):
    key, region = worker
    return boto3.client("dynamodb", endpoint_url=server.endpoint, aws_access_key_id=key,
                        aws_secret_access_key="secret", region_name=region,
                        config=Config(retries={"mode": "legacy", "max_attempts": 1}))


def admin(server, worker, method, path, body=None):
    return server.admin_json(method, path, body, access_key=worker[0], region=worker[1])


def load(server):
    """Every worker: tables "tab" (pk S, sk S) with ITEMS items and "uno"; returns their clients."""
    clients = {}
    for worker in WORKERS:
        ddb = clients[worker] = client(server, worker)
        for name in ("tab", "uno"):
            ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                             AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                                   {"AttributeName": "sk", "AttributeType": "S"}],
                             KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                                        {"AttributeName": "sk", "KeyType": "RANGE"}])
        for i in range(ITEMS):
            ddb.put_item(TableName="tab", Item={"pk": {"S": "p"}, "sk": {"S": f"{i:03d}"}})
    return clients


def count(ddb, table="tab"):
    return ddb.scan(TableName=table, Select="COUNT")["Count"]


def query(ddb, limit=None):
    args = {"TableName": "tab", "KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": {"S": "p"}}}
    if limit:
        args["Limit"] = limit
    return ddb.query(**args)


def test_reset_of_one_worker_never_touches_another(dynapage):
    clients = load(dynapage)
    a, b, a_eu = WORKERS
    # reset?table= empties the caller's table only.
    assert admin(dynapage, b, "POST", "/_dynapage/reset?table=tab")["emptied"] == ["tab"]
    assert [count(clients[w]) for w in WORKERS] == [ITEMS, 0, ITEMS]
    # reset deletes the caller's tables only: the same key in another region keeps its own.
    assert sorted(admin(dynapage, a, "POST", "/_dynapage/reset")["deleted"]) == ["tab", "uno"]
    assert clients[a].list_tables()["TableNames"] == []
    assert clients[b].list_tables()["TableNames"] == ["tab", "uno"]
    assert count(clients[a_eu]) == ITEMS
    # ?scope=all asks for every namespace.
    admin(dynapage, a, "POST", "/_dynapage/reset?scope=all")
    assert all(clients[w].list_tables()["TableNames"] == [] for w in WORKERS)


def test_fault_rules_of_one_worker_never_fire_for_another(dynapage):
    clients = load(dynapage)
    a, b, a_eu = WORKERS
    rules = admin(dynapage, a, "POST", "/_dynapage/faults",
                  {"operation": "Query", "error": "ProvisionedThroughputExceededException"})["rules"]
    assert len(rules) == 1 and rules[0]["scope"] == "AKIDWORKERA_us-east-1.db"
    with pytest.raises(ClientError) as raised:
        query(clients[a])
    assert raised.value.response["Error"]["Code"] == "ProvisionedThroughputExceededException"
    assert query(clients[b])["Count"] == ITEMS
    assert query(clients[a_eu])["Count"] == ITEMS
    # Another worker neither sees nor clears the rule.
    assert admin(dynapage, b, "GET", "/_dynapage/faults")["rules"] == []
    admin(dynapage, b, "DELETE", "/_dynapage/faults")
    assert len(admin(dynapage, a, "GET", "/_dynapage/faults")["rules"]) == 1
    rule = admin(dynapage, a, "GET", "/_dynapage/faults?scope=all")["rules"][0]
    assert rule["matched"] == rule["fired"] >= 1  # A's attempts only
    admin(dynapage, a, "DELETE", "/_dynapage/faults")
    assert query(clients[a])["Count"] == ITEMS


def test_page_chaos_of_one_worker_never_cuts_anothers_pages(dynapage):
    clients = load(dynapage)
    a, b, a_eu = WORKERS
    admin(dynapage, a, "POST", "/_dynapage/chaos", {"seed": 7})
    assert admin(dynapage, b, "GET", "/_dynapage/chaos")["seed"] is None
    cut = [("LastEvaluatedKey" in query(clients[a])) for _ in range(10)]
    assert any(cut)
    for worker in (b, a_eu):
        assert all("LastEvaluatedKey" not in query(clients[worker]) for _ in range(10))
    admin(dynapage, a, "DELETE", "/_dynapage/chaos")
    assert "LastEvaluatedKey" not in query(clients[a])


def test_audit_of_one_worker_is_its_own(start_dynapage):
    server = start_dynapage("--audit-pagination")
    clients = load(server)
    a, b, a_eu = WORKERS
    query(clients[a], limit=5)  # the bug: the rest is never read
    report = admin(server, a, "GET", "/_dynapage/pagination")
    assert [(x["operation"], x["access_key"]) for x in report["abandoned"]] == [("Query", "AKIDWORKERA")]
    for worker in (b, a_eu):
        assert admin(server, worker, "GET", "/_dynapage/pagination") == {
            "issued": 0, "followed": 0, "not_kept": 0, "abandoned": []}
    # Another worker's reset forgets its own requests only.
    admin(server, b, "POST", "/_dynapage/reset")
    assert len(admin(server, a, "GET", "/_dynapage/pagination")["abandoned"]) == 1
    assert len(admin(server, b, "GET", "/_dynapage/pagination?scope=all")["abandoned"]) == 1
    admin(server, a, "POST", "/_dynapage/reset?table=tab")
    assert admin(server, a, "GET", "/_dynapage/pagination")["abandoned"] == []


def test_request_log_view_shows_the_callers_requests(start_dynapage, tmp_path):
    server = start_dynapage("--request-log", str(tmp_path / "requests.jsonl"))
    clients = load(server)
    for worker in WORKERS:
        query(clients[worker])
        lines = admin(server, worker, "GET", "/_dynapage/requests")["requests"]
        assert lines and {(x["access_key"], x["region"]) for x in lines} == {worker}
    everything = admin(server, WORKERS[0], "GET", "/_dynapage/requests?scope=all&limit=1000")["requests"]
    assert {(x["access_key"], x["region"]) for x in everything} == set(WORKERS)


def test_the_clock_is_every_namespaces_and_needs_scope_all(dynapage):
    status, text = dynapage.admin("POST", "/_dynapage/clock", {"advance_ms": 1000})
    assert status == 400 and "?scope=all" in json.loads(text)["message"]
    now = dynapage.admin_json("POST", "/_dynapage/clock", {})["epoch_ms"]
    later = dynapage.admin_json("POST", "/_dynapage/clock?scope=all", {"advance_ms": 3600000})["epoch_ms"]
    assert later >= now + 3600000


def test_unsigned_admin_calls_act_on_the_default_namespace(start_dynapage):
    """curl without credentials: the namespace of an unsigned request (no access key, the default region)."""
    server = start_dynapage("--namespace", "region")
    ddb = client(server, WORKERS[0])  # us-east-1, the default region: the same namespace under --namespace region
    ddb.create_table(TableName="tab", BillingMode="PAY_PER_REQUEST",
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
    eu = client(server, WORKERS[2])
    eu.create_table(TableName="tab", BillingMode="PAY_PER_REQUEST",
                    AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                    KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
    request = urllib.request.Request(server.endpoint + "/_dynapage/reset", data=b"{}", method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        assert json.loads(answer.read())["deleted"] == ["tab"]
    assert ddb.list_tables()["TableNames"] == []
    assert eu.list_tables()["TableNames"] == ["tab"]
