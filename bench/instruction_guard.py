#!/usr/bin/env python3
"""CI guard on dynapage's per-request cost, in instructions (issue #36): it cannot flake on a busy machine.

Runs the server under `valgrind --tool=cachegrind --cache-sim=no` (instruction counts only) five times, each with a
fixed sequence of requests from one keep-alive connection on 127.0.0.1, and takes differences:

  setup  start-up, CreateTable, 100 items loaded, one ListTables of another (empty) namespace, then stop
  noop   setup + N ListTables of that empty namespace           -> instructions per no-op request
  query  setup + N Query pages (Limit 25, one partition)        -> instructions per Query page
  filter setup + N Query pages (Limit 25) with a FilterExpression -> instructions per filtered page (each item's
         "count" decoded and compared: the filtered reads' own path, engine/model/stored_members.h)
  load   setup + B BatchWriteItem of 25 new items               -> instructions per loaded item

Each figure is compared with bench/instruction_baseline.json: more than 5% above it fails. A change that improves a
figure by more than 5% should update the baseline in the same commit (--update writes it).

  python3 bench/instruction_guard.py --binary build/dynapage            # check
  python3 bench/instruction_guard.py --binary build/dynapage --update   # write the baseline
"""

import argparse
import http.client
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BASELINE = os.path.join(HERE, "instruction_baseline.json")
TOLERANCE = 0.05
NOOP_REQUESTS = 1000
QUERY_PAGES = 200
FILTER_PAGES = 200
LOAD_BATCHES = 40
SETUP_ITEMS = 100


def authorization(access_key):
    return ("AWS4-HMAC-SHA256 Credential=%s/20260101/us-east-1/dynamodb/aws4_request, "
            "SignedHeaders=host;x-amz-date, Signature=abc" % access_key)


class Client:
    def __init__(self, port):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def call(self, operation, body, access_key="GUARD"):
        payload = json.dumps(body, separators=(",", ":")).encode()
        self.conn.request("POST", "/", payload, {
            "Content-Type": "application/x-amz-json-1.0",
            "X-Amz-Target": "DynamoDB_20120810." + operation,
            "X-Amz-Date": "20260101T000000Z",
            "Authorization": authorization(access_key),
        })
        response = self.conn.getresponse()
        data = response.read()
        if response.status != 200:
            raise RuntimeError("%s answered %d: %s" % (operation, response.status, data[:300]))
        return json.loads(data)


def item(pk, sk):
    return {"pk": {"S": pk}, "sk": {"N": str(sk)}, "name": {"S": "item-%06d" % sk}, "count": {"N": str(sk * 7)},
            "note": {"S": "x" * 120}}


def batch(pk, first):
    return {"RequestItems": {"bench": [{"PutRequest": {"Item": item(pk, sk)}} for sk in range(first, first + 25)]}}


def setup(client):
    client.call("CreateTable", {
        "TableName": "bench", "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                 {"AttributeName": "sk", "AttributeType": "N"}],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}]})
    for first in range(0, SETUP_ITEMS, 25):
        client.call("BatchWriteItem", batch("p0", first))
    client.call("ListTables", {}, access_key="EMPTY")


def noop(client):
    for _ in range(NOOP_REQUESTS):
        client.call("ListTables", {}, access_key="EMPTY")


def query(client):
    request = {"TableName": "bench", "KeyConditionExpression": "pk = :p", "Limit": 25,
               "ExpressionAttributeValues": {":p": {"S": "p0"}}}
    for _ in range(QUERY_PAGES):
        if len(client.call("Query", request)["Items"]) != 25:
            raise RuntimeError("a Query page without 25 items")


def filtered(client):
    request = {"TableName": "bench", "KeyConditionExpression": "pk = :p", "Limit": 25,
               "FilterExpression": "#c >= :z", "ExpressionAttributeNames": {"#c": "count"},
               "ExpressionAttributeValues": {":p": {"S": "p0"}, ":z": {"N": "0"}}}
    for _ in range(FILTER_PAGES):
        if len(client.call("Query", request)["Items"]) != 25:
            raise RuntimeError("a filtered Query page without 25 items")


def load(client):
    for b in range(LOAD_BATCHES):
        client.call("BatchWriteItem", batch("p%d" % (b // 4 + 1), (b % 4) * 25))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_under_valgrind(valgrind_args, binary, workloads, server_args=()):
    """Runs binary under valgrind with valgrind_args, serves workloads from one keep-alive connection, stops it
    (SIGTERM); returns valgrind's stderr."""
    port = free_port()
    server = subprocess.Popen(
        ["valgrind"] + list(valgrind_args) + [binary, "--host", "127.0.0.1", "--port", str(port),
                                              "--ttl-interval", "0"] + list(server_args),
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.time() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.time() > deadline or server.poll() is not None:
                    raise RuntimeError("dynapage did not start under valgrind")
                time.sleep(0.1)
        client = Client(port)
        for workload in workloads:
            workload(client)
        client.conn.close()
    finally:
        server.terminate()
        _, stderr = server.communicate(timeout=120)
    return stderr


def measure(binary, workloads):
    """The server's instructions, start to exit, running the workloads."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cachegrind.out")
        stderr = serve_under_valgrind(["--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=" + out],
                                      binary, workloads, ["--no-client-cpu-affinity"])
        match = re.search(r"I\s+refs:\s+([\d,]+)", stderr)
        if not match:
            raise RuntimeError("no instruction count from valgrind:\n" + stderr[-2000:])
        return int(match.group(1).replace(",", ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default="build/dynapage")
    parser.add_argument("--update", action="store_true", help="write the figures as the new baseline")
    args = parser.parse_args()
    base = measure(args.binary, [setup])
    figures = {
        "noop_request": (measure(args.binary, [setup, noop]) - base) / NOOP_REQUESTS,
        "query_page": (measure(args.binary, [setup, query]) - base) / QUERY_PAGES,
        "filter_page": (measure(args.binary, [setup, filtered]) - base) / FILTER_PAGES,
        "load_item": (measure(args.binary, [setup, load]) - base) / (LOAD_BATCHES * 25),
    }
    figures = {name: round(value) for name, value in figures.items()}
    if args.update:
        with open(BASELINE, "w") as f:
            json.dump(figures, f, indent=2, sort_keys=True)
            f.write("\n")
        print("instruction guard: baseline written: %s" % figures)
        return 0
    with open(BASELINE) as f:
        baseline = json.load(f)
    passed = failed = 0
    for name, value in figures.items():
        limit = baseline[name] * (1 + TOLERANCE)
        change = value / baseline[name] - 1
        verdict = "ok" if value <= limit else "FAILED"
        if value > limit:
            failed += 1
        else:
            passed += 1
        note = " (more than 5% better: update the baseline with --update)" if change < -TOLERANCE else ""
        print("instruction guard: %-13s %9d instructions, baseline %9d (%+.1f%%): %s%s" %
              (name, value, baseline[name], change * 100, verdict, note))
    print("instructions: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
