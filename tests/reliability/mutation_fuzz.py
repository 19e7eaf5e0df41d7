#!/usr/bin/env python3
"""A bounded mutation fuzzer against a live dynapage on 127.0.0.1 (standard library only).

    python3 tests/reliability/mutation_fuzz.py --binary build/dynapage --requests 3000 --seed 1
    python3 tests/reliability/mutation_fuzz.py --endpoint http://127.0.0.1:8000 --requests 100000

It sends N requests made from valid DynamoDB requests by mutations: bytes flipped, inserted, deleted or repeated;
JSON values replaced by other types, by text that is not UTF-8 (raw or as escaped lone surrogates), or by values
nested deep (JSON arrays and objects, L and M values: up to millions of levels); expressions with NOT chains,
parentheses, nested functions and long paths; operations swapped. Checks, failing at the first broken one:
  - the server never dies (when started here) and never hangs (each answer within --timeout seconds);
  - every answer is a JSON object in valid UTF-8 with an x-amzn-RequestId header;
  - a refused request (any status but 200) changes no stored data: every table is scanned after it and compared
    with what was stored before.
Prints the figures at the end (requests, answers by status and error, deepest nesting sent, time). Exit status 0
when every check held.
"""

import argparse
import http.client
import json
import os
import random
import re
import select
import subprocess
import sys
import time

AUTH = ("AWS4-HMAC-SHA256 Credential=AKIDFUZZ/20260101/us-east-1/dynamodb/aws4_request, "
        "SignedHeaders=host;x-amz-date, Signature=abc")
BASE_TABLES = {
    "ft1": {"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
          "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]},
    "fr2": {"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                   {"AttributeName": "sk", "AttributeType": "N"},
                                   {"AttributeName": "g", "AttributeType": "S"}],
          "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
          "GlobalSecondaryIndexes": [{"IndexName": "gsi", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                      "Projection": {"ProjectionType": "ALL"}}]},
}
ITEM = {"pk": {"S": "k"}, "sk": {"N": "1"}, "g": {"S": "x"}, "a": {"L": [{"N": "1.5"}, {"M": {"b": {"BOOL": True}}}]},
        "s": {"SS": ["a", "b"]}, "n": {"NS": ["1", "2"]}, "b": {"B": "AQID"}, "z": {"NULL": True}}
VALUES = {":n": {"N": "1"}, ":s": {"S": "x"}, ":l": {"L": [{"S": "v"}]}, ":ss": {"SS": ["a"]}}
TEMPLATES = [
    ("PutItem", {"TableName": "ft1", "Item": {k: v for k, v in ITEM.items() if k not in ("sk",)}}),
    ("PutItem", {"TableName": "fr2", "Item": ITEM, "ConditionExpression": "attribute_not_exists(pk) OR a[0] < :n",
                 "ExpressionAttributeValues": {":n": {"N": "1"}}}),
    ("GetItem", {"TableName": "ft1", "Key": {"pk": {"S": "k"}}, "ProjectionExpression": "a[1].b, #p",
                 "ExpressionAttributeNames": {"#p": "pk"}}),
    ("UpdateItem", {"TableName": "ft1", "Key": {"pk": {"S": "k"}},
                    "UpdateExpression": "SET a[0] = a[0] + :n, c = list_append(if_not_exists(c, :l), :l) ADD n :n",
                    "ExpressionAttributeValues": {":n": {"N": "1"}, ":l": {"L": [{"S": "v"}]}},
                    "ReturnValues": "ALL_NEW"}),
    ("DeleteItem", {"TableName": "ft1", "Key": {"pk": {"S": "k"}},
                    "ConditionExpression": "size(a) > :n AND NOT contains(s, :s)", "ExpressionAttributeValues":
                    {":n": {"N": "100"}, ":s": {"S": "a"}}}),
    ("Query", {"TableName": "fr2", "KeyConditionExpression": "pk = :s AND sk BETWEEN :n AND :m",
               "FilterExpression": "g IN (:s, :t)", "ExpressionAttributeValues":
               {":s": {"S": "k"}, ":n": {"N": "0"}, ":m": {"N": "9"}, ":t": {"S": "x"}}, "Limit": 2}),
    ("Scan", {"TableName": "fr2", "ExclusiveStartKey": {"pk": {"S": "k"}, "sk": {"N": "1"}}, "Segment": 0,
              "TotalSegments": 2}),
    ("BatchWriteItem", {"RequestItems": {"ft1": [{"PutRequest": {"Item": {"pk": {"S": "b"}}}},
                                               {"DeleteRequest": {"Key": {"pk": {"S": "c"}}}}]}}),
    ("BatchGetItem", {"RequestItems": {"ft1": {"Keys": [{"pk": {"S": "k"}}]}}}),
    ("TransactWriteItems", {"TransactItems": [{"Put": {"TableName": "ft1", "Item": {"pk": {"S": "x"}}}},
                                              {"ConditionCheck": {"TableName": "fr2", "Key": {"pk": {"S": "k"},
                                                                                            "sk": {"N": "1"}},
                                                                  "ConditionExpression": "attribute_exists(pk)"}}]}),
    ("TransactGetItems", {"TransactItems": [{"Get": {"TableName": "ft1", "Key": {"pk": {"S": "k"}}}}]}),
    ("UpdateItem", {"TableName": "ft1", "Key": {"pk": {"S": "k"}}, "AttributeUpdates":
                    {"v": {"Action": "ADD", "Value": {"N": "1"}}}}),
    ("DescribeTable", {"TableName": "ft1"}),
    ("ListTables", {}),
]
OPERATIONS = sorted({t[0] for t in TEMPLATES} | {"CreateTable", "DeleteTable", "UpdateTable", "Bogus"})
BAD_TEXT = [b"\xff", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80", b"\xe2\x82", b"\\udc00", b"\\ud800"]


class Failure(Exception):
    pass


class Server:
    """The dynapage under test: started here (--binary) or already running (--endpoint)."""

    def __init__(self, args):
        self.proc = None
        if args.binary:
            self.proc = subprocess.Popen([args.binary, "--port", "0"], stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
            line = b""
            deadline = time.monotonic() + 20
            while not line.endswith(b"\n"):
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    raise Failure(f"dynapage did not start: {line!r}")
                if select.select([self.proc.stdout], [], [], 1)[0]:
                    line += os.read(self.proc.stdout.fileno(), 1)
            self.port = int(re.search(rb":(\d+)", line).group(1))
        else:
            match = re.fullmatch(r"http://127\.0\.0\.1:(\d+)/?", args.endpoint)
            if not match:
                raise Failure("--endpoint must be http://127.0.0.1:PORT (this tool talks to loopback only)")
            self.port = int(match.group(1))
        self.timeout = args.timeout
        self.conn = None

    def alive(self):
        return self.proc is None or self.proc.poll() is None

    def call(self, operation, body):
        """(status, headers, body bytes) of one request; raises Failure on no answer or a hang."""
        for attempt in range(2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
            try:
                self.conn.request("POST", "/", body=body, headers={
                    "Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "DynamoDB_20120810." + operation,
                    "Authorization": AUTH, "X-Amz-Date": "20260101T000000Z"})
                response = self.conn.getresponse()
                data = response.read()
                headers = {k.lower(): v for k, v in response.getheaders()}
                if headers.get("connection", "").lower() == "close":
                    self.conn.close()
                    self.conn = None
                return response.status, headers, data
            except TimeoutError:
                raise Failure(f"no answer within {self.timeout}s to {operation} ({len(body)} bytes)")
            except (ConnectionError, http.client.HTTPException, OSError) as e:
                self.conn.close()
                self.conn = None
                if not self.alive():
                    raise Failure(f"dynapage died on {operation} ({len(body)} bytes): {e!r}")
                if attempt == 1:
                    raise Failure(f"connection failed twice on {operation}: {e!r}")

    def stop(self):
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(10)


def checked_call(server, operation, body):
    status, headers, data = server.call(operation, body)
    if not headers.get("x-amzn-requestid"):
        raise Failure(f"no x-amzn-RequestId on {operation}: {status} {data[:200]!r}")
    try:
        parsed = json.loads(data.decode("utf-8", errors="strict"))
    except (UnicodeDecodeError, ValueError) as e:
        raise Failure(f"answer is not JSON in UTF-8 ({e}): {status} {data[:300]!r}")
    if not isinstance(parsed, dict):
        raise Failure(f"answer is not a JSON object: {data[:300]!r}")
    return status, parsed


def call_ok(server, operation, request):
    status, parsed = checked_call(server, operation, json.dumps(request).encode())
    if status != 200:
        raise Failure(f"{operation} failed: {parsed}")
    return parsed


def snapshot(server):
    """Every table's name and items, for the no-change check."""
    tables = {}
    for name in sorted(call_ok(server, "ListTables", {}).get("TableNames", [])):
        items, start = [], None
        while True:
            request = {"TableName": name}
            if start:
                request["ExclusiveStartKey"] = start
            page = call_ok(server, "Scan", request)
            items.extend(json.dumps(i, sort_keys=True) for i in page["Items"])
            start = page.get("LastEvaluatedKey")
            if not start:
                break
        tables[name] = sorted(items)
    return tables


def reset(server):
    for name in call_ok(server, "ListTables", {}).get("TableNames", []):
        call_ok(server, "DeleteTable", {"TableName": name})
    for name, schema in BASE_TABLES.items():
        call_ok(server, "CreateTable", dict(schema, TableName=name, BillingMode="PAY_PER_REQUEST"))
    call_ok(server, "PutItem", {"TableName": "ft1", "Item": {k: v for k, v in ITEM.items() if k != "sk"}})
    call_ok(server, "PutItem", {"TableName": "fr2", "Item": ITEM})


class Mutator:
    def __init__(self, rng, max_depth):
        self.rng = rng
        self.max_depth = max_depth
        self.deepest = 0

    def depth(self):
        """A nesting depth: mostly small, sometimes around the limits, rarely huge (up to max_depth)."""
        r = self.rng.random()
        if r < 0.6:
            d = self.rng.randint(1, 40)
        elif r < 0.9:
            d = self.rng.randint(40, 5000)
        elif r < 0.99:
            d = self.rng.randint(5000, 200000)
        else:
            d = self.rng.randint(200000, self.max_depth)
        return d

    def deep_json(self):
        kind = self.rng.randrange(5)
        # Within the 16 MB body limit (a bigger body is refused before it is read).
        d = min(self.depth(), (16_000_000 - 1000) // [2, 6, 8, 12, 1][kind])
        self.deepest = max(self.deepest, d)
        if kind == 0:
            return "[" * d + "]" * d
        if kind == 1:
            return '{"a":' * d + "1" + "}" * d
        if kind == 2:
            return '{"L":[' * d + '{"S":"x"}' + "]}" * d
        if kind == 3:
            return '{"M":{"a":' * d + '{"N":"1"}' + "}}" * d
        return "[" * d  # unclosed

    def expression(self):
        d = min(self.depth(), 3000)
        self.deepest = max(self.deepest, d)
        kind = self.rng.randrange(5)
        if kind == 0:
            return "NOT " * d + "a = :n"
        if kind == 1:
            return "(" * d + "a = :n" + ")" * d
        if kind == 2:
            return "size(" * d + "a" + ")" * d + " > :n"
        if kind == 3:
            return "a" + ".b" * d + " = :n"
        return " AND ".join(["a = :n"] * d)

    def value(self, old):
        r = self.rng.randrange(12)
        if r == 0:
            return self.rng.choice([None, True, 1, -1.5e300, "", [], {}])
        if r == 1:
            return {"S": "x" * self.rng.randint(0, 500000)}
        if r == 2:
            return {"N": self.rng.choice(["1e126", "-0", "1" * 39, "NaN", " 1", "0x1", "1e-131"])}
        if r == 3:
            return {self.rng.choice(["SS", "NS", "BS"]): []}
        if r == 4 and isinstance(old, str):
            return old + self.rng.choice(["#", ":", "(", ")", " OR ", "[0]", ".x", "\u0000"])
        if r == 5:
            return self.expression()
        return old

    def mutate_json(self, node):
        """node with one random sub-value replaced (returns the new node)."""
        if isinstance(node, dict) and node and self.rng.random() < 0.7:
            key = self.rng.choice(list(node))
            copy = dict(node)
            if self.rng.random() < 0.1:
                copy[key + self.rng.choice(["", "x", "\u00e9"])] = copy.pop(key)
            else:
                copy[key] = self.mutate_json(node[key])
            return copy
        if isinstance(node, list) and node and self.rng.random() < 0.7:
            i = self.rng.randrange(len(node))
            copy = list(node)
            copy[i] = self.mutate_json(node[i])
            return copy
        return self.value(node)

    def request(self):
        operation, template = self.rng.choice(TEMPLATES)
        if self.rng.random() < 0.05:
            operation = self.rng.choice(OPERATIONS)
        r = self.rng.random()
        if r < 0.45:
            body = json.dumps(self.mutate_json(template)).encode()
        elif r < 0.55:
            # A deep value where a value goes (Item, Key, ExpressionAttributeValues, ExclusiveStartKey, anywhere).
            text = json.dumps(template)
            spots = [m.end() for m in re.finditer(r'": ', text)]
            at = self.rng.choice(spots) if spots else 1
            end = self.value_end(text, at)
            body = (text[:at] + self.deep_json() + text[end:]).encode()
        elif r < 0.65:
            body = self.deep_json().encode()
        else:
            body = self.mutate_bytes(json.dumps(template).encode())
        return operation, body

    @staticmethod
    def value_end(text, at):
        """The end of the JSON value starting at text[at] (a scalar, or a balanced object or array)."""
        if at >= len(text):
            return at
        if text[at] in "{[":
            depth, i, in_string = 0, at, False
            while i < len(text):
                c = text[i]
                if in_string:
                    if c == "\\":
                        i += 1
                    elif c == '"':
                        in_string = False
                elif c == '"':
                    in_string = True
                elif c in "{[":
                    depth += 1
                elif c in "}]":
                    depth -= 1
                    if depth == 0:
                        return i + 1
                i += 1
            return len(text)
        match = re.compile(r'"(\\.|[^"\\])*"|[^,}\]]*').match(text, at)
        return match.end()

    def mutate_bytes(self, data):
        data = bytearray(data)
        for _ in range(self.rng.randint(1, 8)):
            if not data:
                break
            i = self.rng.randrange(len(data))
            op = self.rng.randrange(6)
            if op == 0:
                data[i] = self.rng.randrange(256)
            elif op == 1:
                data[i:i] = self.rng.choice(BAD_TEXT)
            elif op == 2:
                del data[i:i + self.rng.randint(1, 16)]
            elif op == 3:
                j = self.rng.randrange(len(data))
                data[i:i] = data[min(i, j):max(i, j)][:4096]
            elif op == 4:
                data[i:i] = self.rng.choice([b"{", b"}", b"[", b"]", b'"', b"\\", b",", b":", b"\x00", b"\\u"])
            else:
                data[i:i] = self.deep_json().encode()[:self.rng.choice([64, 4096, 1 << 20])]
        return bytes(data)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--binary", help="start this dynapage binary on a free loopback port")
    where.add_argument("--endpoint", help="a running dynapage, http://127.0.0.1:PORT (its tables are replaced)")
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for one answer")
    parser.add_argument("--max-depth", type=int, default=4000000, help="the deepest nesting sent")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    mutator = Mutator(rng, args.max_depth)
    server = Server(args)
    statuses, errors = {}, {}
    started = time.monotonic()
    sent_bytes = 0
    try:
        reset(server)
        before = snapshot(server)
        for n in range(1, args.requests + 1):
            operation, body = mutator.request()
            sent_bytes += len(body)
            status, parsed = checked_call(server, operation, body)
            statuses[status] = statuses.get(status, 0) + 1
            if status != 200:
                name = str(parsed.get("__type", "?")).split("#")[-1]
                errors[name] = errors.get(name, 0) + 1
            after = snapshot(server)
            if status != 200 and after != before:
                raise Failure(f"refused request {n} ({operation}, {status} {parsed}) changed stored data; "
                              f"body: {body[:300]!r}")
            before = after
            if sum(len(items) for items in after.values()) > 200 or len(after) > 10:
                reset(server)
                before = snapshot(server)
            if not server.alive():
                raise Failure(f"dynapage died after request {n}")
        elapsed = time.monotonic() - started
        print(f"mutation_fuzz: seed {args.seed}: {args.requests} requests ({sent_bytes / 1e6:.1f} MB) in "
              f"{elapsed:.0f} s; deepest nesting sent: {mutator.deepest:,} levels; no crash, no hang, every answer "
              f"JSON in UTF-8 with x-amzn-RequestId, no refused request changed stored data")
        print(f"  answers by status: {dict(sorted(statuses.items()))}")
        print(f"  errors: {dict(sorted(errors.items(), key=lambda e: -e[1]))}")
        return 0
    except Failure as e:
        print(f"mutation_fuzz: seed {args.seed}: FAILED: {e}", file=sys.stderr)
        return 1
    finally:
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
