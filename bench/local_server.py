"""A dynapage started for one benchmark script: on a free 127.0.0.1 port, in memory unless its arguments say
otherwise, answering DynamoDB calls over one keep-alive connection; stopped when the `with` block ends.

    with LocalServer("build/dynapage", ["--s3-dir", folder]) as server:
        server.call("CreateTable", {...})
"""
import http.client, json, socket, subprocess, sys


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LocalServer:
    def __init__(self, binary, arguments=(), timeout=600):
        self.port = free_port()
        self.process = subprocess.Popen([binary, "--port", str(self.port), *arguments], stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT)
        self.timeout = timeout

    @property
    def pid(self):
        return self.process.pid

    def __enter__(self):
        self.process.stdout.readline()  # the ready line
        self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
        return self

    def __exit__(self, *exc):
        self.process.terminate()
        self.process.wait(timeout=30)

    def call(self, op, body):
        """The answer of operation op to body; exits the script on an error answer."""
        self.conn.request("POST", "/", json.dumps(body), {
            "Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "DynamoDB_20120810." + op,
            "Authorization": "AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/dynamodb/aws4_request, "
                             "SignedHeaders=host, Signature=0", "Host": "localhost", "X-Amz-Date": "20260101T000000Z"})
        r = self.conn.getresponse()
        data = json.loads(r.read())
        if r.status != 200:
            sys.exit(f"{op}: {data}")
        return data
