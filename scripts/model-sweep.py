#!/usr/bin/env python3
"""Sweeps a running dynapage with one constraint violation per constrained member of DynamoDB's service model.

    python3 scripts/model-sweep.py PORT        # against dynapage --port PORT (in memory: it creates tables)

It reads the model of the botocore that python3 imports: use a recent one (Debian 12's still has the old
TableName rules).

For every operation dynapage implements, starting from a valid request (BASE), it breaks one member at a time as
botocore's model constrains it (a length just outside min/max, a bad enum value, a bad pattern, a value out of
range, a list too short or too long, a required member left out) and checks that the answer is DynamoDB's
"N validation error(s) detected: Value '<v>' at '<path>' failed to satisfy constraint: <rule>" for that member
(enum value lists are compared without their order, which DynamoDB's messages do not keep). The cases where
DynamoDB is known to answer otherwise (KNOWN) are skipped. Prints each other mismatch; exits 1 if there is one.
This is how issue 20's "And the rest" was swept; a new botocore model, or a new operation in BASE, widens it.
"""

import copy
import json
import sys
import urllib.error
import urllib.request

import botocore.loaders

MODEL = botocore.loaders.Loader().load_service_model("dynamodb", "service-2")
SHAPES = MODEL["shapes"]

KS = [{"AttributeName": "pk", "KeyType": "HASH"}]
AD = [{"AttributeName": "pk", "AttributeType": "S"}]
ARN = "arn:aws:dynamodb:us-east-1:000000000000:table/tbl"
KEY = {"pk": {"S": "a"}}
NULL_CHECK = {"x": {"ComparisonOperator": "NULL"}}
INCLUDE = {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["z"]}
BASE = {
    "GetItem": {"TableName": "tbl", "Key": KEY},
    "PutItem": {"TableName": "tbl", "Item": KEY, "Expected": NULL_CHECK},
    "DeleteItem": {"TableName": "tbl", "Key": KEY, "Expected": NULL_CHECK},
    "UpdateItem": {"TableName": "tbl", "Key": KEY, "Expected": NULL_CHECK,
                   "AttributeUpdates": {"x": {"Action": "PUT", "Value": {"S": "v"}}}},
    "Query": {"TableName": "tbl", "QueryFilter": NULL_CHECK,
              "KeyConditions": {"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "a"}]}}},
    "Scan": {"TableName": "tbl", "ScanFilter": NULL_CHECK},
    "BatchGetItem": {"RequestItems": {"tbl": {"Keys": [KEY]}}},
    "BatchWriteItem": {"RequestItems": {"tbl": [{"PutRequest": {"Item": KEY}}]}},
    "CreateTable": {
        "TableName": "new", "KeySchema": KS + [{"AttributeName": "s", "KeyType": "RANGE"}],
        "AttributeDefinitions": AD + [{"AttributeName": n, "AttributeType": "S"} for n in ("g", "l", "s")],
        "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1},
        "GlobalSecondaryIndexes": [{"IndexName": "gsi", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                    "Projection": INCLUDE,
                                    "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}}],
        "LocalSecondaryIndexes": [{"IndexName": "lsi", "Projection": INCLUDE,
                                   "KeySchema": KS + [{"AttributeName": "l", "KeyType": "RANGE"}]}],
        "StreamSpecification": {"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"},
        "SSESpecification": {"SSEType": "KMS"}, "Tags": [{"Key": "k", "Value": "v"}], "TableClass": "STANDARD"},
    "DeleteTable": {"TableName": "tbl"},
    "DescribeTable": {"TableName": "tbl"},
    "DescribeTimeToLive": {"TableName": "tbl"},
    "DescribeContinuousBackups": {"TableName": "tbl"},
    "ListTables": {"ExclusiveStartTableName": "abc", "Limit": 5},
    "ListTagsOfResource": {"ResourceArn": ARN},
    "TagResource": {"ResourceArn": ARN, "Tags": [{"Key": "k", "Value": "v"}]},
    "UntagResource": {"ResourceArn": ARN, "TagKeys": ["k"]},
    "TransactGetItems": {"TransactItems": [{"Get": {"TableName": "tbl", "Key": KEY}}]},
    "TransactWriteItems": {"ClientRequestToken": "tok", "TransactItems": [
        {"ConditionCheck": {"TableName": "tbl", "Key": KEY, "ConditionExpression": "attribute_exists(x)",
                            "ReturnValuesOnConditionCheckFailure": "NONE"}},
        {"Put": {"TableName": "tbl", "Item": {"pk": {"S": "b"}}, "ReturnValuesOnConditionCheckFailure": "NONE"}},
        {"Delete": {"TableName": "tbl", "Key": {"pk": {"S": "c"}}, "ReturnValuesOnConditionCheckFailure": "NONE"}},
        {"Update": {"TableName": "tbl", "Key": {"pk": {"S": "d"}}, "UpdateExpression": "SET a = :v",
                    "ExpressionAttributeValues": {":v": {"S": "x"}}, "ReturnValuesOnConditionCheckFailure": "NONE"}}]},
    "UpdateContinuousBackups": {"TableName": "tbl", "PointInTimeRecoverySpecification": {
        "PointInTimeRecoveryEnabled": True, "RecoveryPeriodInDays": 5}},
    "UpdateTimeToLive": {"TableName": "tbl", "TimeToLiveSpecification": {"Enabled": True, "AttributeName": "ttl"}},
    "UpdateTable": {
        "TableName": "tbl", "BillingMode": "PAY_PER_REQUEST", "TableClass": "STANDARD",
        "AttributeDefinitions": [{"AttributeName": "g2", "AttributeType": "S"}],
        "GlobalSecondaryIndexUpdates": [{"Create": {"IndexName": "gsi2", "Projection": INCLUDE,
                                                    "KeySchema": [{"AttributeName": "g2", "KeyType": "HASH"}]}}],
        "StreamSpecification": {"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"},
        "SSESpecification": {"SSEType": "KMS"}},
}
ANY = object()
# (operation or "*", message path or "*.<its end>", violation or ANY) where DynamoDB's answer is known to differ from the plain model
# rule; docs/behaviour.md gives each answer.
KNOWN = [
    ("*", "tableName", None),  # "The parameter 'TableName' is required but was not present in the request"
    ("*", "limit", 0),  # "Value at 'Limit' failed to satisfy constraint: …", the value not echoed
    ("*", "resourceArn", None),  # "Invalid TableArn"
    ("CreateTable", "tableName", ""),  # CreateTable keeps the 3-255, [a-zA-Z0-9_.-]+ rule (issue 20, item 13)
    ("CreateTable", "tableName", "x"),
    ("BatchWriteItem", "requestItems.tbl.member.1.member.putRequest.item", None),  # no ".1.member" there
    ("*", "*.comparisonOperator", ANY),  # legacy conditions' path is 'comparisonOperator' alone
]


def camel(name):
    return name[0].lower() + name[1:]


def call(port, op, body):
    request = urllib.request.Request(f"http://127.0.0.1:{port}/", data=json.dumps(body).encode(), headers={
        "Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "DynamoDB_20120810." + op,
        "X-Amz-Date": "20260101T000000Z",
        "Authorization": "AWS4-HMAC-SHA256 Credential=AKIDSWEEP/20260101/us-east-1/dynamodb/aws4_request, "
                         "SignedHeaders=host, Signature=x"})
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def violations(shape):
    """(bad value, rule text) for each constraint of a shape."""
    kind, out = shape["type"], []
    if kind == "string":
        if "enum" in shape:
            out.append(("BOGUS", "Member must satisfy enum value set: ["))
        if shape.get("min", 0) >= 1:
            out.append(("" if shape["min"] == 1 else "x" * (shape["min"] - 1),
                        f"Member must have length greater than or equal to {shape['min']}"))
        if "max" in shape:
            out.append(("x" * (shape["max"] + 1), f"Member must have length less than or equal to {shape['max']}"))
        if "pattern" in shape:
            out.append(("a b", f"Member must satisfy regular expression pattern: {shape['pattern']}"))
    elif kind in ("integer", "long"):
        if "min" in shape:
            out.append((shape["min"] - 1, f"Member must have value greater than or equal to {shape['min']}"))
        if "max" in shape:
            out.append((shape["max"] + 1, f"Member must have value less than or equal to {shape['max']}"))
    elif kind == "list":
        if shape.get("min", 0) >= 1:
            out.append(([], f"Member must have length greater than or equal to {shape['min']}"))
        if "max" in shape and shape["max"] <= 25 and SHAPES[shape["member"]["shape"]]["type"] == "string":
            out.append(([f"n{i}" for i in range(shape["max"] + 1)],
                        f"Member must have length less than or equal to {shape['max']}"))
    return out


def at(body, path):
    for step in path:
        body = body[step]
    return body


def cases(op, body, node, shape_name, path, message_path, out):
    """Appends (message path, value, rule, request) for each member of node that the shape constrains."""
    shape = SHAPES[shape_name]
    if shape["type"] == "structure" and isinstance(node, dict):
        for member, ref in shape["members"].items():
            sub = SHAPES[ref["shape"]]
            if member not in node:
                if not path:  # a top-level member the base leaves out: set it badly
                    for value, rule in violations(sub):
                        if sub["type"] != "list":
                            bad = copy.deepcopy(body)
                            bad[member] = value
                            out.append((message_path + [camel(member)], value, rule, bad))
                continue
            for value, rule in violations(sub):
                bad = copy.deepcopy(body)
                at(bad, path)[member] = value
                out.append((message_path + [camel(member)], value, rule, bad))
            if member in shape.get("required", []):
                bad = copy.deepcopy(body)
                del at(bad, path)[member]
                out.append((message_path + [camel(member)], None, "Member must not be null", bad))
            cases(op, body, node[member], ref["shape"], path + [member], message_path + [camel(member)], out)
    elif shape["type"] == "list" and isinstance(node, list) and node:
        cases(op, body, node[0], shape["member"]["shape"], path + [0], message_path + ["1", "member"], out)
    elif shape["type"] == "map" and isinstance(node, dict) and node:
        key = next(iter(node))
        cases(op, body, node[key], shape["value"]["shape"], path + [key], message_path + [key, "member"], out)


def known(op, path, value):
    for known_op, known_path, known_value in KNOWN:
        same_path = known_path == path or (known_path.startswith("*.") and path.endswith(known_path[1:]))
        same_value = known_value is ANY or known_value == value or (
            isinstance(value, str) and known_value == "x" and value.startswith("x"))
        if known_op in ("*", op) and same_path and same_value:
            return True
    return False


def main():
    port = int(sys.argv[1])
    call(port, "CreateTable", {"TableName": "tbl", "AttributeDefinitions": AD, "KeySchema": KS,
                               "BillingMode": "PAY_PER_REQUEST"})
    checked, mismatches = 0, 0
    for op, base in BASE.items():
        found = []
        cases(op, base, base, MODEL["operations"][op]["input"]["shape"], [], [], found)
        for n, (message_path, value, rule, request) in enumerate(found):
            path = ".".join(message_path)
            if known(op, path, value):
                continue
            if op == "CreateTable" and request.get("TableName") == "new":
                request["TableName"] = f"new{n}"  # a request that passes creates its table
            if op == "UpdateTable":
                for update in request.get("GlobalSecondaryIndexUpdates") or []:
                    if isinstance(update, dict) and (update.get("Create") or {}).get("IndexName") == "gsi2":
                        update["Create"]["IndexName"] = f"gsi{n}"
            shown = "null" if value is None else (
                "'[" + ", ".join(value) + "]'" if isinstance(value, list) else f"'{value}'")
            want = f"Value {shown} at '{path}' failed to satisfy constraint: {rule}"
            status, answer = call(port, op, request)
            message = answer.get("message") or answer.get("Message") or ""
            checked += 1
            if "validation error" not in message or want not in message:
                mismatches += 1
                print(f"[{op}] {path} = {str(value)[:30]!r}\n  want: {want[:200]}\n  got:  {status} {message[:200]}")
    print(f"{checked} violations sent, {mismatches} answered otherwise")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
