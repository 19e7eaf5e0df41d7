"""The Dockerfile, .dockerignore and docker-compose.yml, checked without a Docker engine.

What can be checked natively is: the build stage runs the same scripts CI runs (scripts/deps.sh's package list,
scripts/build.sh); the runtime stage installs exactly the Debian packages of the shared libraries the built binary
links (ldd + dpkg -S), so a new library or a dropped one fails here rather than in a user's container; the
ENTRYPOINT, run natively with the built binary, listens on 0.0.0.0, answers, and keeps its data across a restart
in the --db-path directory; the HEALTHCHECK command passes against it and fails without it; the image runs as a
non-root user; and compose mounts a named volume on the --db-path directory.
"""

import json
import os
import re
import shlex
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


def entrypoint():
    return json.loads(only(RUNTIME, "ENTRYPOINT"))


def healthcheck_command():
    args = only(RUNTIME, "HEALTHCHECK")
    assert " CMD " in f" {args} ", args
    command = json.loads(args.split("CMD", 1)[1])
    assert command[:2] == ["bash", "-c"], command
    return command


# --- the build stage is CI's build ------------------------------------------------------------------------------


def test_two_stages_on_debian_12():
    assert len(STAGES) == 2
    assert BUILD_FROM == "debian:12 AS build"
    assert RUNTIME_FROM == "debian:12-slim"


def test_build_stage_runs_the_same_commands_as_ci():
    runs = [args for kw, args in BUILD if kw == "RUN"]
    # The packages: scripts/deps.sh's build list, through its installer (scripts/build.sh then finds them installed).
    assert """bash -c 'source scripts/deps.sh && install_packages "${DYNAPAGE_BUILD_PACKAGES[@]}"'""" in runs
    # The build: scripts/build.sh, which is what scripts/test.sh (CI's command) and scripts/run.sh run.
    assert "bash scripts/build.sh dynapage" in runs
    test_sh = script_commands("scripts/test.sh")
    assert any(re.fullmatch(r'(\w+="\$\w+" )*bash scripts/build\.sh', line) for line in test_sh), test_sh
    assert not any(line.startswith("cmake") for line in test_sh), "scripts/test.sh builds without scripts/build.sh"
    run_sh = script_commands("scripts/run.sh")
    assert any(re.fullmatch(r'(\w+="\$\w+" )*bash scripts/build\.sh dynapage', line) for line in run_sh), run_sh
    build_sh = script_commands("scripts/build.sh")
    assert 'install_packages "${DYNAPAGE_BUILD_PACKAGES[@]}"' in build_sh
    assert any(line.startswith("cmake -S . -B") for line in build_sh)
    # The binary the runtime stage copies is the one scripts/build.sh built (BUILD_DIR defaults to build).
    assert 'BUILD_DIR="${BUILD_DIR:-build}"' in build_sh
    assert "strip --strip-debug -o /dynapage build/dynapage" in runs
    assert only(RUNTIME, "COPY") == "--from=build /dynapage /usr/local/bin/dynapage"


# --- the runtime stage ------------------------------------------------------------------------------------------


def test_runtime_runs_as_a_non_root_user():
    user = only(RUNTIME, "USER")
    uid, _, gid = user.partition(":")
    assert uid not in ("", "root", "0") and gid not in ("root", "0"), user
    created = [args for kw, args in RUNTIME if kw == "RUN" and "useradd" in args]
    assert len(created) == 1
    useradd = shlex.split(created[0].split("&&")[0])
    assert useradd[0] == "useradd" and useradd[useradd.index("--uid") + 1] == uid
    # The data directory is that user's, so a fresh named volume (which copies it) is writable.
    name = useradd[-1]
    assert f"chown {name}:{name} /data" in created[0]


def test_runtime_listens_on_all_interfaces_with_data_in_the_volume():
    assert entrypoint() == ["dynapage", "--host", "0.0.0.0", "--port", "8000", "--db-path", "/data"]
    assert only(RUNTIME, "EXPOSE") == "8000"
    assert only(RUNTIME, "VOLUME") == "/data"
    assert "CMD" not in [kw for kw, _ in RUNTIME], "a CMD would be appended to the ENTRYPOINT's flags"


def ldd_packages(binary):
    """The Debian packages that own the shared libraries `ldd binary` lists (the dynamic loader included)."""
    out = subprocess.run(["ldd", binary], capture_output=True, text=True, check=True).stdout
    libraries = []
    for line in out.splitlines():
        line = line.strip()
        if line.startswith("linux-vdso"):
            continue
        match = re.match(r"\S+ => (/\S+)", line) or re.match(r"(/\S+) \(0x", line)
        assert match, f"unexpected ldd line (a library not found?): {line!r}"
        libraries.append(match.group(1))
    candidates = {}
    for library in libraries:
        paths = [library, os.path.realpath(library)]
        # usrmerge: dpkg may know the file under /usr/lib while ldd shows /lib, or the other way round.
        paths += [p[4:] if p.startswith("/usr/") else "/usr" + p for p in list(paths)]
        candidates[library] = paths
    # One dpkg -S for every candidate path (it exits 1 when some are not found, and prints the others).
    every = sorted({path for paths in candidates.values() for path in paths})
    result = subprocess.run(["dpkg", "-S", *every], capture_output=True, text=True)
    owners_of = {}
    for line in result.stdout.splitlines():
        owners, _, path = line.rpartition(": ")
        owners_of[path] = {owner.strip().split(":")[0] for owner in owners.split(",")}
    packages = {}
    for library, paths in candidates.items():
        found = [owners_of[path] for path in paths if path in owners_of]
        if not found:
            pytest.fail(f"no Debian package owns {library} (tried {paths}): {result.stderr}")
        packages[library] = found[0]
    return packages


def test_runtime_packages_are_exactly_the_linked_libraries():
    if not shutil.which("dpkg") or not shutil.which("ldd"):
        pytest.skip("needs dpkg and ldd (Debian)")
    owners = ldd_packages(dynapage_binary())
    needed = set().union(*owners.values())
    run = [args for kw, args in RUNTIME if kw == "RUN" and "apt-get install" in args]
    assert len(run) == 1
    words = run[0].split("apt-get install", 1)[1].split("&&")[0].split()
    installed = {word for word in words if not word.startswith("-")}
    assert installed == needed, (
        f"the runtime stage installs {sorted(installed)} but {dynapage_binary()} links {sorted(needed)}: "
        f"missing {sorted(needed - installed)}, not needed {sorted(installed - needed)}; libraries: {owners}"
    )


def run_healthcheck(port):
    script = healthcheck_command()[2]
    assert "/dev/tcp/127.0.0.1/8000" in script
    script = script.replace("/dev/tcp/127.0.0.1/8000", f"/dev/tcp/127.0.0.1/{port}")
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=10, stdin=subprocess.DEVNULL)


def test_entrypoint_and_healthcheck_run_natively(tmp_path):
    """The ENTRYPOINT's command (a free port instead of 8000, a temporary directory for /data) with the built binary."""
    data = tmp_path / "data"

    def start(n):
        args = entrypoint()[1:]
        assert args[args.index("--port") + 1] == "8000" and args[args.index("--db-path") + 1] == "/data"
        args[args.index("--port") + 1] = "0"
        args[args.index("--db-path") + 1] = str(data)
        return Dynapage(args, str(tmp_path / f"dynapage-{n}.log"))

    server = start(0)
    try:
        assert server.host == "0.0.0.0", server.ready_line
        check = run_healthcheck(server.port)
        assert check.returncode == 0, (check.stdout, check.stderr)
        client = server.client()
        client.create_table(
            TableName="kept",
            AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
            BillingMode="PAY_PER_REQUEST",
        )
        client.put_item(TableName="kept", Item={"id": {"S": "a"}, "v": {"N": "1"}})
        client.close()
        code, _ = server.stop(signal.SIGTERM)  # what `docker stop` sends
        assert code == 0, server.stderr()
        port = server.port
    finally:
        server.kill()

    # Nothing listens any more: the check must fail.
    assert run_healthcheck(port).returncode != 0

    again = start(1)
    try:
        client = again.client()
        assert client.get_item(TableName="kept", Key={"id": {"S": "a"}})["Item"] == {"id": {"S": "a"}, "v": {"N": "1"}}
        client.close()
    finally:
        again.kill()


# --- compose and the build context ------------------------------------------------------------------------------


def test_compose_starts_the_image_with_a_named_volume_on_the_db_path():
    with open(os.path.join(REPO, "docker-compose.yml")) as f:
        compose = yaml.safe_load(f)
    services = compose["services"]
    assert list(services) == ["dynapage"]
    service = services["dynapage"]
    assert service["build"] == "."
    assert "command" not in service and "entrypoint" not in service and "user" not in service
    mounts = [volume.split(":") for volume in service["volumes"]]
    assert mounts == [["dynapage-data", "/data"]], "the named volume is mounted on the image's --db-path"
    assert "dynapage-data" in compose["volumes"]
    assert [str(port).split(":")[-1] for port in service["ports"]] == ["8000"]


def test_dockerignore_keeps_build_trees_and_dependencies_out():
    with open(os.path.join(REPO, ".dockerignore")) as f:
        patterns = {line.strip() for line in f if line.strip() and not line.startswith("#")}
    assert {".git", "build", "build-*", "**/node_modules"} <= patterns
    # Everything CMake reads must stay in the context.
    for needed in ("CMakeLists.txt", "engine", "server", "tests", "scripts"):
        assert needed not in patterns
