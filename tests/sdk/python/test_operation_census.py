"""The operation census (issue #31): every operation of the DynamoDB SDK model answers, none is unknown.

The operations are read from the npm package @aws-sdk/client-dynamodb (SDK_MODEL_VERSION): one
dist-types/commands/<Operation>Command.d.ts per operation. The package is fetched once with `npm pack` into
tests/sdk/.sdk-model-<version>/ (ignored by git; $DYNAPAGE_SDK_MODEL_DIR names an unpacked package instead), and
read as files: no SDK code runs, so no newer Node.js than Debian's is needed. Not under tests/sdk/js/node_modules:
the sdk_javascript test's `npm ci` empties that directory, and ctest runs it beside this one. Each operation is sent
with an empty body; none may answer UnknownOperationException except UNKNOWN_ALLOWED, and those must (so that the
list shrinks as they land)."""

import glob
import os
import shutil
import subprocess
import tarfile
import tempfile

import pytest

from conftest import REPO

SDK_MODEL_VERSION = "3.1169.0"

# Operations not implemented yet, each with its issue.
UNKNOWN_ALLOWED = set()


def sdk_model_dir():
    given = os.environ.get("DYNAPAGE_SDK_MODEL_DIR")
    if given:
        return given
    cache = os.path.join(REPO, "tests", "sdk", f".sdk-model-{SDK_MODEL_VERSION}")
    package = os.path.join(cache, "package")
    if os.path.isdir(os.path.join(package, "dist-types", "commands")):
        return package
    if not shutil.which("npm"):
        if os.environ.get("CI"):
            pytest.fail("npm not found: the operation census cannot read the SDK model")
        pytest.skip("npm not found: the operation census NOT run")
    os.makedirs(cache, exist_ok=True)
    # Unpacked beside the cache and renamed into place, so that a run stopped half-way leaves no half package.
    with tempfile.TemporaryDirectory(dir=cache) as unpacking:
        packed = subprocess.run(["npm", "pack", f"@aws-sdk/client-dynamodb@{SDK_MODEL_VERSION}", "--loglevel=error"],
                                cwd=unpacking, capture_output=True, text=True, timeout=300)
        assert packed.returncode == 0, packed.stderr
        with tarfile.open(os.path.join(unpacking, packed.stdout.strip().splitlines()[-1])) as tar:
            tar.extractall(unpacking,
                           members=[m for m in tar.getmembers() if m.name.startswith("package/dist-types/")])
        shutil.rmtree(package, ignore_errors=True)
        os.rename(os.path.join(unpacking, "package"), package)
    return package


def model_operations():
    commands = glob.glob(os.path.join(sdk_model_dir(), "dist-types", "commands", "*Command.d.ts"))
    return sorted(os.path.basename(c)[: -len("Command.d.ts")] for c in commands)


def test_every_model_operation_answers(dynapage):
    operations = model_operations()
    assert len(operations) >= 62, operations
    assert UNKNOWN_ALLOWED <= set(operations), UNKNOWN_ALLOWED - set(operations)
    raw = dynapage.raw_client()
    unknown, answered_but_allowed, failed = [], [], []
    for operation in operations:
        status, answer = raw.call(operation, {})
        kind = answer.get("__type", "").rsplit("#", 1)[-1]
        if status >= 500:
            failed.append((operation, status, answer))
        is_unknown = kind == "UnknownOperationException"
        if is_unknown and operation not in UNKNOWN_ALLOWED:
            unknown.append(operation)
        if not is_unknown and operation in UNKNOWN_ALLOWED:
            answered_but_allowed.append(operation)
    assert unknown == [], f"operations of the SDK model that dynapage calls unknown: {unknown}"
    assert failed == [], f"operations that failed with a server error on an empty request: {failed}"
    assert answered_but_allowed == [], f"implemented now: remove from UNKNOWN_ALLOWED: {answered_but_allowed}"
