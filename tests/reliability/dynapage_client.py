"""A minimal DynamoDB JSON client over one keep-alive connection, and a dynapage process started for a test.

The reliability tests and scripts use it instead of boto3: they send tens of thousands of requests, and boto3's
per-call overhead would make them slow. Loopback only (127.0.0.1).
"""

import http.client
import json
import os
import re
import select
import subprocess
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
READY = re.compile(rb"listening on http://[^:\s]+:(\d+)")
AUTHORIZATION = ("AWS4-HMAC-SHA256 Credential=AKIDDYNAPAGETEST/20240101/us-east-1/dynamodb/aws4_request, "
                 "SignedHeaders=host;x-amz-date;x-amz-target, Signature=0")


def binary():
    path = os.path.abspath(os.environ.get("DYNAPAGE_BIN") or os.path.join(REPO, "build", "dynapage"))
    if not os.access(path, os.X_OK):
        raise RuntimeError(f"dynapage binary not found at {path} (build it, or set DYNAPAGE_BIN)")
    return path


class Server:
    """A dynapage process on a free port of 127.0.0.1."""

    def __init__(self, *args, timeout=20.0, stderr=subprocess.DEVNULL, preexec_fn=None):
        """stderr: where the server's stderr goes (a file object to read it); preexec_fn: run in the child (limits)."""
        self.proc = subprocess.Popen([binary(), "--host", "127.0.0.1", "--port", "0", *args], stdout=subprocess.PIPE,
                                     stderr=stderr, stdin=subprocess.DEVNULL, preexec_fn=preexec_fn)
        line = b""
        deadline = time.monotonic() + timeout
        while not line.endswith(b"\n"):
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self.kill()
                raise RuntimeError(f"dynapage did not become ready: {line!r}")
            if select.select([self.proc.stdout], [], [], 0.1)[0]:
                chunk = os.read(self.proc.stdout.fileno(), 1)
                line += chunk
        self.port = int(READY.search(line).group(1))

    def status_field(self, name):
        """A field of /proc/PID/status, as its first number ("VmRSS" in kB, "Threads")."""
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith(name + ":"):
                    return int(line.split()[1])
        raise RuntimeError(f"no {name}")

    def rss_bytes(self):
        return self.status_field("VmRSS") * 1024

    def threads(self):
        return self.status_field("Threads")

    def thread_names(self):
        """The names of the server's threads (/proc/PID/task/*/comm), sorted."""
        names = []
        for task in os.listdir(f"/proc/{self.proc.pid}/task"):
            with open(f"/proc/{self.proc.pid}/task/{task}/comm") as f:
                names.append(f.read().strip())
        return sorted(names)

    def open_files(self):
        return len(os.listdir(f"/proc/{self.proc.pid}/fd"))

    def stop(self):
        """A clean stop (SIGTERM: the store is flushed); returns the exit status."""
        if self.proc.poll() is None:
            self.proc.terminate()
        return self.proc.wait(timeout=30)

    def client(self):
        return Client(self.port)

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


class Client:
    authorization = AUTHORIZATION  # the caller: its access key and region choose the namespace

    def __init__(self, port, timeout=60):
        self.port = port
        self.timeout = timeout
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)

    def call(self, operation, body, service="DynamoDB_20120810"):
        """Returns (HTTP status, decoded JSON body). service: "DynamoDBStreams_20120810" for the streams API."""
        data = json.dumps(body).encode()
        headers = {"Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": f"{service}.{operation}",
                   "Authorization": self.authorization, "X-Amz-Date": "20240101T000000Z"}
        try:
            self.conn.request("POST", "/", data, headers)
            response = self.conn.getresponse()
            payload = response.read()
        except (OSError, http.client.HTTPException):
            self.conn.close()
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
            raise
        return response.status, json.loads(payload) if payload else {}

    def ok(self, operation, body, service="DynamoDB_20120810"):
        status, answer = self.call(operation, body, service)
        if status != 200:
            raise AssertionError(f"{operation}: {status} {answer}")
        return answer

    def create_table(self, name):
        self.ok("CreateTable", {"TableName": name, "BillingMode": "PAY_PER_REQUEST",
                                "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
                                "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}]})

    def write_batch(self, table, requests):
        """BatchWriteItem of up to 25 requests, resending unprocessed ones."""
        pending = {table: requests}
        while pending:
            pending = self.ok("BatchWriteItem", {"RequestItems": pending}).get("UnprocessedItems") or {}

    def close(self):
        self.conn.close()
