"""The pytest plugin of the dynapage wheel (entry point pytest11, so installing the wheel is all the set-up):

    def test_orders(dynapage):
        ddb = dynapage.client()              # boto3, this test's own tables
        ddb.create_table(TableName="Orders", ...)

- One server per pytest process (session scope; each pytest-xdist worker is a process of its own), started from
  the packaged binary with the flags of --dynapage-flag (repeatable) or the ini option dynapage_flags. With
  $DYNAPAGE_ENDPOINT set (a server started by docker compose in CI, say) the tests use that one instead.
- `dynapage`: the test's namespace. Each test gets its own access key, made from the xdist worker and the test's
  id, and dynapage keeps one set of tables per access key (its default --namespace access-key-region), so tests
  never see each other's tables, even when several workers share one server. `.endpoint`, `.access_key`,
  `.region`, `.client()`, `.resource()`, `.reset()`.
- `dynapage_reset`: a function that resets the test's namespace (`dynapage_reset()` deletes its tables,
  `dynapage_reset("T")` empties table T), through POST /_dynapage/reset signed with the test's access key.
- `dynapage_server`: the session's server (`.endpoint`).
"""

import hashlib
import json
import os
import shlex
import urllib.error
import urllib.parse
import urllib.request

import pytest

import dynapage as _dynapage

REGION = _dynapage.DEFAULT_REGION


def pytest_addoption(parser):
    group = parser.getgroup("dynapage")
    group.addoption("--dynapage-flag", action="append", default=[], metavar="FLAG",
                    help="a flag for the session's dynapage server (repeatable), e.g. --dynapage-flag=--max-page-bytes=4096")
    parser.addini("dynapage_flags", "flags for the session's dynapage server", default="")


class _Endpoint:
    """A server started elsewhere ($DYNAPAGE_ENDPOINT)."""

    def __init__(self, endpoint):
        self.endpoint = endpoint.rstrip("/")


@pytest.fixture(scope="session")
def dynapage_server(request):
    endpoint = os.environ.get("DYNAPAGE_ENDPOINT")
    if endpoint:
        yield _Endpoint(endpoint)
        return
    args = shlex.split(request.config.getini("dynapage_flags")) + request.config.getoption("dynapage_flag")
    server = _dynapage.start(args=args)
    try:
        yield server
    finally:
        server.stop()


def namespace_access_key(worker, test_id):
    """The access key of a test: the same for the same worker and test, different for any other."""
    return "DP" + hashlib.sha256(f"{worker}\0{test_id}".encode()).hexdigest()[:18].upper()


class Namespace:
    """One test's tables on the session's server: its own access key."""

    def __init__(self, endpoint, access_key, region=REGION):
        self.endpoint = endpoint
        self.access_key = access_key
        self.region = region

    def _session_args(self):
        return {"endpoint_url": self.endpoint, "region_name": self.region, "aws_access_key_id": self.access_key,
                "aws_secret_access_key": "dynapage"}

    def client(self, **kwargs):
        import boto3
        return boto3.client("dynamodb", **self._session_args(), **kwargs)

    def resource(self, **kwargs):
        import boto3
        return boto3.resource("dynamodb", **self._session_args(), **kwargs)

    def reset(self, table=None):
        """POST /_dynapage/reset for this namespace (signed with its access key): deletes its tables, or empties
        `table`. Returns the server's answer ({"deleted": [...]} or {"emptied": [...]})."""
        from botocore.auth import SigV4Auth
        from botocore.awsrequest import AWSRequest
        from botocore.credentials import Credentials

        url = self.endpoint + "/_dynapage/reset"
        if table is not None:
            url += "?" + urllib.parse.urlencode({"table": table})
        aws_request = AWSRequest(method="POST", url=url, data=b"{}", headers={"Content-Type": "application/json"})
        SigV4Auth(Credentials(self.access_key, "dynapage"), "dynamodb", self.region).add_auth(aws_request)
        http_request = urllib.request.Request(url, data=b"{}", method="POST", headers=dict(aws_request.headers))
        try:
            with urllib.request.urlopen(http_request, timeout=30) as answer:
                return json.loads(answer.read() or b"{}")
        except urllib.error.HTTPError as e:
            raise _dynapage.DynapageError(f"dynapage: reset answered {e.code}: {e.read().decode(errors='replace')}")


def _worker_id(request):
    return getattr(request.config, "workerinput", {}).get("workerid", "main")


@pytest.fixture
def dynapage(dynapage_server, request):
    return Namespace(dynapage_server.endpoint, namespace_access_key(_worker_id(request), request.node.nodeid))


@pytest.fixture
def dynapage_reset(dynapage):
    return dynapage.reset
