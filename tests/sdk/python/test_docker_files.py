"""The Dockerfile, .dockerignore and docker-compose.yml, checked without a Docker engine.

What can be checked natively is: the build stage runs the same scripts CI runs (scripts/deps.sh's package list in a
layer before the sources, scripts/build.sh, scripts/docker-rootfs.sh); the runtime is DynamoDB Local's layout
(/home/dynamodblocal, port 8000, in memory by default) on an empty base as a non-root user; the root file system
holds the binary and the libraries it links; and the ENTRYPOINT with the default command and with compose's command,
run natively with the built binary, listen on 0.0.0.0 and (compose's) keep data across a restart in ./data.
scripts/docker-test.sh runs the image itself (tests/sdk/python/test_container.py).
"""

import json
import os
import re
import shutil
import signal
import subprocess

import pytest
import yaml

from conftest import REPO, Dynapage, dynapage_binary


def instructions(path):
    """The Dockerfile's instructions as (KEYWORD, arguments) pairs, continuation lines joined, comments dropped."""
    result, current = [], ""
    with open(path) as f:
        for raw in f:
            line = raw.rstrip("\n")
            if not current and (not line.strip() or line.lstrip().startswith("#")):
                continue
            if current and line.lstrip().startswith("#"):
                continue  # a comment inside a continued instruction
            if line.endswith("\\"):
                current += line[:-1] + " "
                continue
            current += line
            keyword, _, args = current.strip().partition(" ")
            result.append((keyword.upper(), args.strip()))
            current = ""
    assert not current, "the Dockerfile ends inside a continued line"
    return result


def stages(path):
    """[(FROM arguments, [(KEYWORD, arguments), ...]), ...] per stage."""
    result = []
    for keyword, args in instructions(path):
        if keyword == "FROM":
            result.append((args, []))
        else:
            assert result, f"{keyword} before the first FROM"
            result[-1][1].append((keyword, args))
    return result


DOCKERFILE = os.path.join(REPO, "Dockerfile")
STAGES = stages(DOCKERFILE)
BUILD_FROM, BUILD = STAGES[0]
RUNTIME_FROM, RUNTIME = STAGES[-1]


def only(stage, keyword):
    found = [args for kw, args in stage if kw == keyword]
    assert len(found) == 1, f"expected one {keyword} in the stage, found {found}"
    return found[0]


def script_commands(path):
    """The non-comment lines of a shell script, stripped."""
    with open(os.path.join(REPO, path)) as f:
        return [line.strip() for line in f if line.strip() and not line.strip().startswith("#")]


# --- the build stage is CI's build ------------------------------------------------------------------------------


def test_a_build_stage_on_debian_12_and_a_runtime_on_an_empty_base():
    assert len(STAGES) == 2
    assert BUILD_FROM == "debian:12 AS build"
    assert RUNTIME_FROM == "scratch"


def test_build_stage_runs_the_same_commands_as_ci_with_dependencies_in_layers_of_their_own():
    keywords = [kw for kw, _ in BUILD]
    runs = [args for kw, args in BUILD if kw == "RUN"]
    # The packages: scripts/deps.sh's build list, through its installer, before the sources are copied in, so that
    # a source change does not invalidate that layer.
    packages = next(i for i, (kw, args) in enumerate(BUILD) if kw == "RUN" and "DYNAPAGE_BUILD_PACKAGES" in args)
    copy_all = BUILD.index(("COPY", ". ."))
    assert packages < copy_all, keywords
    assert [args for kw, args in BUILD[:packages] if kw == "COPY"] == ["scripts/deps.sh scripts/"]
    assert "install_packages ccache" in BUILD[packages][1] and "fetch_httplib_source" in BUILD[packages][1]
    rocksdb = next(i for i, (kw, args) in enumerate(BUILD) if kw == "RUN" and "build_rocksdb" in args)
    assert packages < rocksdb < copy_all, "RocksDB is built before the sources are copied"
    # The build: scripts/build.sh, which is what scripts/test.sh (CI's command) and scripts/run.sh run, with the
    # compiler cache in a cache mount; then the runtime's files, laid out by scripts/docker-rootfs.sh.
    build = runs[-1]
    assert build.startswith("--mount=type=cache,target=/root/.ccache "), build
    assert "DYNAPAGE_ROCKSDB=release" in build and "bash scripts/build.sh dynapage" in build
    assert "bash scripts/docker-rootfs.sh build/dynapage /rootfs" in build
    test_sh = script_commands("scripts/test.sh")
    assert any(re.fullmatch(r'(\w+="\$\w+" )*bash scripts/build\.sh', line) for line in test_sh), test_sh
    assert any(line.startswith("bash scripts/docker-test.sh") for line in test_sh), test_sh
    run_sh = script_commands("scripts/run.sh")
    assert any(re.fullmatch(r'(\w+="\$\w+" )*bash scripts/build\.sh dynapage', line) for line in run_sh), run_sh
    build_sh = script_commands("scripts/build.sh")
    assert 'BUILD_DIR="${BUILD_DIR:-build}"' in build_sh


# --- the runtime stage ------------------------------------------------------------------------------------------


def entrypoint_and_command():
    return json.loads(only(RUNTIME, "ENTRYPOINT")), json.loads(only(RUNTIME, "CMD"))


def test_runtime_is_dynamodb_locals_layout_as_a_non_root_user():
    assert [args for kw, args in RUNTIME if kw == "COPY"] == [
        "--from=build /rootfs/ /",
        "--from=build --chown=1000:1000 /rootfs/home/dynamodblocal /home/dynamodblocal",
    ]
    assert only(RUNTIME, "USER") == "1000:1000"
    assert only(RUNTIME, "WORKDIR") == "/home/dynamodblocal"
    assert only(RUNTIME, "VOLUME") == "/home/dynamodblocal/data"
    assert only(RUNTIME, "EXPOSE") == "8000"
    entry, command = entrypoint_and_command()
    assert entry == ["/usr/local/bin/dynapage", "--host", "0.0.0.0"]
    # amazon/dynamodb-local's default: in memory (its CMD is "-jar DynamoDBLocal.jar -inMemory").
    assert command == ["-jar", "DynamoDBLocal.jar", "-inMemory"]


def test_rootfs_holds_the_binary_its_libraries_and_the_user(tmp_path):
    if not shutil.which("ldd") or not shutil.which("strip"):
        pytest.skip("needs ldd and strip")
    root = tmp_path / "rootfs"
    subprocess.run(["bash", os.path.join(REPO, "scripts/docker-rootfs.sh"), dynapage_binary(), str(root)], check=True)
    assert os.access(root / "usr/local/bin/dynapage", os.X_OK)
    # ldd fails ("not a dynamic executable") for the static binary of the default build: then no library is copied.
    out = subprocess.run(["ldd", dynapage_binary()], capture_output=True, text=True).stdout
    for library in re.findall(r"(/\S+) \(0x", out):
        assert (root / library.lstrip("/")).is_file(), library
    passwd = (root / "etc/passwd").read_text()
    assert "dynamodblocal:x:1000:1000:" in passwd
    assert (root / "home/dynamodblocal/data").is_dir()


def test_healthcheck_runs_the_binary_which_probes_get_slash(tmp_path):
    """The image has no shell: its HEALTHCHECK runs dynapage --health-check, exit 0 while it answers, 1 after."""
    healthcheck = only(RUNTIME, "HEALTHCHECK")
    options, _, command = healthcheck.partition("CMD ")
    assert "--interval=" in options and "--timeout=" in options
    probe = json.loads(command)
    assert probe == ["/usr/local/bin/dynapage", "--health-check"]
    entry, default_command = entrypoint_and_command()
    assert probe[0] == entry[0]
    server = run_image_command(default_command, tmp_path, 0)
    try:
        # Natively the server is on a free port, not 8000: the probe is told which.
        ran = subprocess.run([dynapage_binary(), *probe[1:], "--port", str(server.port)], capture_output=True,
                             text=True, timeout=10)
        assert ran.returncode == 0, ran.stderr
        assert ran.stdout.startswith("healthy"), ran.stdout
    finally:
        server.kill()
    ran = subprocess.run([dynapage_binary(), *probe[1:], "--port", str(server.port)], capture_output=True, text=True,
                         timeout=10)
    assert ran.returncode == 1
    assert "unhealthy" in ran.stderr


def run_image_command(args, cwd, n):
    """The ENTRYPOINT and args, run natively in cwd (the image's working directory) on a free port."""
    entry, _ = entrypoint_and_command()
    command = [dynapage_binary(), *entry[1:], *args, "--port", "0"]
    previous, previous_bin = os.getcwd(), os.environ.get("DYNAPAGE_BIN")
    os.environ["DYNAPAGE_BIN"] = command[0]  # absolute: a relative DYNAPAGE_BIN would not survive the chdir
    os.chdir(cwd)
    try:
        return Dynapage(command[1:], str(cwd.parent / f"dynapage-{n}.log"))
    finally:
        os.chdir(previous)
        if previous_bin is None:
            del os.environ["DYNAPAGE_BIN"]
        else:
            os.environ["DYNAPAGE_BIN"] = previous_bin


def test_default_command_and_compose_command_run_natively(tmp_path):
    home = tmp_path / "home"
    (home / "data").mkdir(parents=True)
    _, command = entrypoint_and_command()
    server = run_image_command(command, home, 0)
    try:
        assert server.host == "0.0.0.0", server.ready_line
        assert "in memory" in server.ready_line
    finally:
        server.kill()

    with open(os.path.join(REPO, "docker-compose.yml")) as f:
        compose_command = yaml.safe_load(f)["services"]["dynapage"]["command"]
    server = run_image_command(compose_command, home, 1)
    try:
        client = server.client()
        client.create_table(
            TableName="kept",
            AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
            BillingMode="PAY_PER_REQUEST",
        )
        client.put_item(TableName="kept", Item={"id": {"S": "a"}})
        client.close()
        code, _ = server.stop(signal.SIGTERM)  # what `docker stop` sends
        assert code == 0, server.stderr()
    finally:
        server.kill()
    assert (home / "data" / "shared-local-instance.db").is_dir()
    again = run_image_command(compose_command, home, 2)
    try:
        assert again.client().get_item(TableName="kept", Key={"id": {"S": "a"}})["Item"] == {"id": {"S": "a"}}
    finally:
        again.kill()


# --- compose and the build context ------------------------------------------------------------------------------


def test_compose_starts_the_image_with_a_named_volume_on_the_data_directory():
    with open(os.path.join(REPO, "docker-compose.yml")) as f:
        compose = yaml.safe_load(f)
    services = compose["services"]
    assert list(services) == ["dynapage"]
    service = services["dynapage"]
    # The release image (scripts/package.sh), or its build context around the static binary: no compile.
    assert service["image"] == "dynapage:latest" and service["build"] == "dist/image-context"
    assert "entrypoint" not in service and "user" not in service
    mounts = [volume.split(":") for volume in service["volumes"]]
    assert mounts == [["dynapage-data", "/home/dynamodblocal/data"]], "the named volume is mounted on ./data"
    assert service["command"] == ["-sharedDb", "-dbPath", "./data"]
    assert "dynapage-data" in compose["volumes"]
    assert [str(port).split(":")[-1] for port in service["ports"]] == ["8000"]


def test_dockerignore_keeps_build_trees_and_dependencies_out():
    with open(os.path.join(REPO, ".dockerignore")) as f:
        patterns = {line.strip() for line in f if line.strip() and not line.startswith("#")}
    assert {".git", "build", "build-*", "**/node_modules"} <= patterns
    # Everything CMake reads must stay in the context.
    for needed in ("CMakeLists.txt", "engine", "server", "tests", "scripts"):
        assert needed not in patterns
