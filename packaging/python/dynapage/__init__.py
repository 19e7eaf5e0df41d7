"""dynapage, a local DynamoDB, for Python tests.

    import dynapage
    with dynapage.start(max_page_bytes=4096) as db:      # flags as keyword arguments
        db.client().create_table(...)                     # boto3, pointed at db.endpoint

start() runs the static binary packaged with this module (or $DYNAPAGE_BIN) on a free loopback port and returns
once the server is ready. Every way it can fail (no binary, a port taken, a server that exits or stays silent)
raises DynapageError with what happened and what the server printed. The pytest plugin (dynapage.pytest_plugin,
loaded automatically) gives each test a `dynapage` fixture.
"""

import atexit
import os
import re
import select
import signal
import stat
import subprocess
import tempfile
import time

__all__ = ["start", "Dynapage", "DynapageError", "binary_path", "command_line"]

_READY = re.compile(r"listening on http://([^:\s]+):(\d+)")
DEFAULT_CREDENTIALS = {"aws_access_key_id": "dynapage", "aws_secret_access_key": "dynapage"}
DEFAULT_REGION = "us-east-1"


class DynapageError(RuntimeError):
    """dynapage could not be started (the message says why)."""


def binary_path():
    """The binary start() runs: $DYNAPAGE_BIN, else the one packaged in this module."""
    return os.environ.get("DYNAPAGE_BIN") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "dynapage")


def command_line(flags):
    """{"port": 0, "db_path": "/d", "metrics": True} -> ["--port", "0", "--db-path", "/d", "--metrics"].

    True gives a bare flag; False and None give nothing.
    """
    args = []
    for name, value in flags.items():
        if value is None or value is False:
            continue
        flag = "--" + name.replace("_", "-")
        args += [flag] if value is True else [flag, str(value)]
    return args


def _ensure_executable(binary):
    if not os.path.isfile(binary):
        raise DynapageError(
            f"dynapage: no binary at {binary} (the wheel ships one for Linux x86-64; elsewhere set DYNAPAGE_BIN "
            "to a dynapage binary)")
    if not os.access(binary, os.X_OK):
        os.chmod(binary, os.stat(binary).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


class Dynapage:
    """A running dynapage server. Use start(); stop() (or leaving the with block) ends it."""

    def __init__(self, binary, args, timeout):
        self.binary = binary
        self.args = args
        # The server's stderr goes to a file, so that a chatty server never blocks on a full pipe.
        self._log = tempfile.TemporaryFile()
        try:
            self._proc = subprocess.Popen([binary, *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                          stderr=self._log)
        except OSError as e:
            self._log.close()
            raise DynapageError(f"dynapage: cannot run {binary}: {e}") from e
        line = self._read_ready_line(timeout)
        self.port = int(_READY.search(line).group(2))
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self.ready_line = line.strip()
        # A server left running (a test that failed before stop()) must not outlive Python.
        atexit.register(self.stop)

    @property
    def pid(self):
        return self._proc.pid

    def _read_ready_line(self, timeout):
        deadline = time.monotonic() + timeout
        out = b""
        fd = self._proc.stdout.fileno()
        while not (b"\n" in out and _READY.search(out.decode(errors="replace"))):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self._fail(f"not ready within {timeout:g} s ({self.binary})", out)
            ready, _, _ = select.select([fd], [], [], remaining)
            if not ready:
                continue
            chunk = os.read(fd, 4096)
            if not chunk:  # stdout closed: the server has exited
                code = self._proc.wait()
                how = f"was killed by signal {-code}" if code < 0 else f"exited with code {code}"
                hint = " (the port is taken: pass port=0 for a free one)" if b"cannot listen" in self._stderr() else ""
                self._fail(f"{how} before it was ready{hint}", out)
            out += chunk
        return out.decode(errors="replace")

    def _stderr(self):
        self._log.seek(0)
        return self._log.read()

    def _fail(self, message, out):
        said = self._stderr().decode(errors="replace").strip() or out.decode(errors="replace").strip()
        self.stop(timeout=2)
        raise DynapageError(f"dynapage: {message}" + (f"; it said: {said}" if said else ""))

    def client(self, access_key=None, region=DEFAULT_REGION, **kwargs):
        """A boto3 DynamoDB client for this server. Each access key (and region) has its own tables."""
        import boto3
        return boto3.client("dynamodb", **self._session_args(access_key, region), **kwargs)

    def resource(self, access_key=None, region=DEFAULT_REGION, **kwargs):
        """A boto3 DynamoDB resource for this server."""
        import boto3
        return boto3.resource("dynamodb", **self._session_args(access_key, region), **kwargs)

    def _session_args(self, access_key, region):
        credentials = dict(DEFAULT_CREDENTIALS)
        if access_key:
            credentials["aws_access_key_id"] = access_key
        return {"endpoint_url": self.endpoint, "region_name": region, **credentials}

    def stop(self, timeout=5):
        """SIGTERM (a clean shut-down), SIGKILL after timeout seconds. Returns the exit code."""
        atexit.unregister(self.stop)
        if self._proc.poll() is None:
            self._proc.send_signal(signal.SIGTERM)
            try:
                self._proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        self._proc.stdout.close()
        self._log.close()
        return self._proc.returncode

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def start(binary=None, timeout=10, args=(), **flags):
    """Starts dynapage with these flags (db_path="/d" is --db-path /d; port defaults to 0, a free port).

    args: more command-line arguments, passed as they are; binary: the binary to run; timeout: seconds to wait
    for the server to be ready. Raises DynapageError if it cannot start.
    """
    flags.setdefault("port", 0)
    binary = binary or binary_path()
    _ensure_executable(binary)
    return Dynapage(binary, command_line(flags) + list(args), timeout)
