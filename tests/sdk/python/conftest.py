"""pytest fixtures: start the built dynapage binary and talk to it through boto3 and the AWS CLI.

The binary is $DYNAPAGE_BIN, else build/dynapage in the repository. Each server listens on a free loopback port
(--port 0; the port is read from the ready line the server prints).
"""

import os
import re
import select
import shutil
import signal
import subprocess
import time

import json
import urllib.error
import urllib.request

import boto3
import pytest
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.config import Config
from botocore.credentials import Credentials
from botocore.exceptions import ClientError

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
READY = re.compile(r"listening on http://([^:\s]+):(\d+)")

# Dummy credentials: dynapage checks the shape of the Authorization header, not the signature.
CREDENTIALS = {
    "aws_access_key_id": "AKIDDYNAPAGETEST",
    "aws_secret_access_key": "dynapage-test-secret",
    "region_name": "us-east-1",
}


class RawClient:
    """Calls DynamoDB operations as boto3's client does (raw.describe_table(TableName="t") returns the answer as a
    dict, an error raises botocore's ClientError), but sends the members as given, without botocore's service model:
    for the operations and members newer than the model of Debian's python3-botocore."""

    def __init__(self, endpoint):
        self.endpoint = endpoint

    def call(self, operation, body):
        """(HTTP status, JSON answer) of one request, signed as CREDENTIALS."""
        request = AWSRequest(method="POST", url=self.endpoint + "/", data=json.dumps(body).encode(),
                             headers={"Content-Type": "application/x-amz-json-1.0",
                                      "X-Amz-Target": f"DynamoDB_20120810.{operation}"})
        credentials = Credentials(CREDENTIALS["aws_access_key_id"], CREDENTIALS["aws_secret_access_key"])
        SigV4Auth(credentials, "dynamodb", CREDENTIALS["region_name"]).add_auth(request)
        prepared = request.prepare()
        sent = urllib.request.Request(prepared.url, data=prepared.body, method="POST", headers=dict(prepared.headers))
        try:
            with urllib.request.urlopen(sent, timeout=30) as answer:
                return answer.status, json.loads(answer.read() or b"{}")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")

    def __getattr__(self, name):
        operation = "".join(part.capitalize() for part in name.split("_"))

        def api_call(**body):
            status, answer = self.call(operation, body)
            if status != 200:
                error = {"Code": answer.get("__type", "").rsplit("#", 1)[-1],
                         "Message": answer.get("message", answer.get("Message", ""))}
                raise ClientError({"Error": error, "ResponseMetadata": {"HTTPStatusCode": status}}, operation)
            return answer

        return api_call


def dynapage_binary():
    path = os.environ.get("DYNAPAGE_BIN") or os.path.join(REPO, "build", "dynapage")
    path = os.path.abspath(path)
    if not os.access(path, os.X_OK):
        pytest.fail(f"dynapage binary not found at {path} (build it, or set DYNAPAGE_BIN)")
    return path


class Dynapage:
    """One running dynapage process."""

    def __init__(self, args, log_path, timeout=20.0):
        self.args = [dynapage_binary(), "--port", "0", *args]
        self.log_path = log_path
        self.started_at = time.monotonic()
        self._stderr = open(log_path, "ab")
        self.proc = subprocess.Popen(self.args, stdout=subprocess.PIPE, stderr=self._stderr, stdin=subprocess.DEVNULL)
        self.ready_line = self._read_ready_line(timeout)
        match = READY.search(self.ready_line)
        assert match, f"unexpected ready line: {self.ready_line!r}"
        self.host, self.port = match.group(1), int(match.group(2))
        self.endpoint = f"http://127.0.0.1:{self.port}"

    def _read_ready_line(self, timeout):
        deadline = time.monotonic() + timeout
        line = b""
        fd = self.proc.stdout.fileno()
        while not line.endswith(b"\n"):
            remaining = deadline - time.monotonic()
            if remaining <= 0 or self.proc.poll() is not None:
                self.kill()
                raise AssertionError(f"dynapage did not become ready: {line!r}; stderr: {self.stderr()}") from None
            ready, _, _ = select.select([fd], [], [], remaining)
            if ready:
                chunk = os.read(fd, 1)
                if not chunk:
                    continue
                line += chunk
        return line.decode()

    def stderr(self):
        self._stderr.flush()
        with open(self.log_path, "rb") as f:
            return f.read().decode(errors="replace")

    def client(self, **config):
        # Legacy retry mode is the one that checks x-amz-crc32 (a mismatch fails the call once retries run out).
        settings = {"retries": {"mode": "legacy", "max_attempts": 2}, "connect_timeout": 5, "read_timeout": 60}
        settings.update(config)
        return boto3.client("dynamodb", endpoint_url=self.endpoint, config=Config(**settings), **CREDENTIALS)

    def admin(self, method, path, body=None, access_key=None, region=None):
        """Calls the admin API as the SDK's clients of (access_key, region) call DynamoDB (default: CREDENTIALS),
        signed with botocore's SigV4 signer so that it acts on their namespace; returns (status, answer text)."""
        data = None if body is None else json.dumps(body).encode()
        request = AWSRequest(method=method, url=self.endpoint + path, data=data,
                             headers={"Content-Type": "application/json"})
        credentials = Credentials(access_key or CREDENTIALS["aws_access_key_id"], CREDENTIALS["aws_secret_access_key"])
        SigV4Auth(credentials, "dynamodb", region or CREDENTIALS["region_name"]).add_auth(request)
        prepared = request.prepare()
        sent = urllib.request.Request(prepared.url, data=prepared.body, method=method, headers=dict(prepared.headers))
        try:
            with urllib.request.urlopen(sent, timeout=30) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def admin_json(self, method, path, body=None, access_key=None, region=None):
        """admin(), which must answer 200: its JSON answer."""
        status, text = self.admin(method, path, body, access_key, region)
        assert status == 200, text
        return json.loads(text)

    def raw_client(self):
        """A client of any operation and member, Debian's older botocore model or not (RawClient)."""
        return RawClient(self.endpoint)

    def resource(self):
        return boto3.resource("dynamodb", endpoint_url=self.endpoint, **CREDENTIALS)

    def stop(self, sig=signal.SIGTERM, timeout=10.0):
        """Sends sig and waits; returns (exit code, rest of stdout)."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            out, _ = self.proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f"dynapage did not exit within {timeout}s of signal {sig}") from None
        self._stderr.close()
        return self.proc.returncode, out.decode(errors="replace")

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        if not self._stderr.closed:
            self._stderr.close()


@pytest.fixture
def start_dynapage(tmp_path):
    """A factory: start_dynapage("--db-path", dir) starts a server; all are killed after the test."""
    started = []

    def start(*args):
        server = Dynapage(list(args), str(tmp_path / f"dynapage-{len(started)}.log"))
        started.append(server)
        return server

    yield start
    for server in started:
        server.kill()


@pytest.fixture
def dynapage(start_dynapage):
    """A fresh in-memory server."""
    return start_dynapage()


@pytest.fixture
def ddb(dynapage):
    """A boto3 DynamoDB client for a fresh in-memory server."""
    return dynapage.client()


def aws_cli_binary():
    path = os.environ.get("AWS_CLI") or shutil.which("aws")
    if not path:
        pytest.fail("the AWS CLI (aws) is not installed; scripts/test.sh installs Debian's awscli")
    return path


@pytest.fixture
def aws(dynapage, tmp_path):
    """Runs `aws dynamodb <args> --endpoint-url <server>`; returns the CompletedProcess (text)."""
    home = tmp_path / "aws-home"
    home.mkdir()
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "AWS_ACCESS_KEY_ID": CREDENTIALS["aws_access_key_id"],
        "AWS_SECRET_ACCESS_KEY": CREDENTIALS["aws_secret_access_key"],
        "AWS_DEFAULT_REGION": CREDENTIALS["region_name"],
        "AWS_CONFIG_FILE": str(home / "config"),
        "AWS_SHARED_CREDENTIALS_FILE": str(home / "credentials"),
        "AWS_PAGER": "",
        "AWS_EC2_METADATA_DISABLED": "true",
    }
    for name in ("PYENV_VERSION", "PYENV_ROOT", "LANG", "LC_ALL"):
        if name in os.environ:
            env[name] = os.environ[name]
    binary = aws_cli_binary()

    def run(*args, check=True):
        cmd = [binary, "dynamodb", *args, "--endpoint-url", dynapage.endpoint, "--output", "json"]
        result = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
        if check and result.returncode != 0:
            raise AssertionError(f"{' '.join(cmd)} failed ({result.returncode}): {result.stderr}")
        return result

    return run
