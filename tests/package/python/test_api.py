"""The installed wheel's Python API: dynapage.start() and its errors, the `dynapage` command, and the plugin's
fixtures without set-up code. Run by scripts/package-test.sh in a virtual environment that has the wheel."""

import os
import socket
import subprocess
import sys

import pytest

import dynapage as dp


def test_start_is_a_context_manager_serving_boto3():
    with dp.start(max_page_bytes=4096) as db:
        assert db.endpoint == f"http://127.0.0.1:{db.port}"
        assert "max page 4096 bytes" in db.ready_line
        client = db.client()
        client.create_table(TableName="things", AttributeDefinitions=[{"AttributeName": "k", "AttributeType": "S"}],
                            KeySchema=[{"AttributeName": "k", "KeyType": "HASH"}], BillingMode="PAY_PER_REQUEST")
        db.resource().Table("things").put_item(Item={"k": "x"})
        assert client.get_item(TableName="things", Key={"k": {"S": "x"}})["Item"] == {"k": {"S": "x"}}
        pid = db.pid
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_the_binary_is_the_wheels_own():
    assert dp.binary_path().startswith(os.path.dirname(dp.__file__))
    assert os.access(dp.binary_path(), os.X_OK)


def test_a_missing_binary_says_where_it_looked(tmp_path):
    with pytest.raises(dp.DynapageError, match=r"no binary at .*nowhere.*DYNAPAGE_BIN"):
        dp.start(binary=str(tmp_path / "nowhere"))


def test_a_taken_port_is_named():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(dp.DynapageError, match=rf"exited with code 1 before it was ready \(the port is taken.*"
                                                   rf"cannot listen on .*:{port}"):
            dp.start(port=port)


def test_a_server_that_exits_early_shows_what_it_said():
    with pytest.raises(dp.DynapageError, match=r"exited with code \d+ before it was ready; it said: .*no-such-flag"):
        dp.start(no_such_flag=True)


def test_a_server_that_never_gets_ready_times_out(tmp_path):
    silent = tmp_path / "silent"
    silent.write_text("#!/bin/sh\nexec sleep 30\n")
    silent.chmod(0o755)
    with pytest.raises(dp.DynapageError, match=r"not ready within 0.5 s"):
        dp.start(binary=str(silent), timeout=0.5)


def test_flags_become_the_command_line():
    assert dp.command_line({"port": 0, "db_path": "/d", "metrics": True, "cors": None, "x": False}) == [
        "--port", "0", "--db-path", "/d", "--metrics"]


def test_the_dynapage_command_runs_the_binary():
    out = subprocess.run([sys.executable, "-m", "dynapage", "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.startswith("dynapage ")


def test_the_fixture_needs_no_set_up(dynapage):
    dynapage.client().create_table(TableName="fixture_table", AttributeDefinitions=[{"AttributeName": "k", "AttributeType": "S"}],
                                   KeySchema=[{"AttributeName": "k", "KeyType": "HASH"}],
                                   BillingMode="PAY_PER_REQUEST")
    assert [t.name for t in dynapage.resource().tables.all()] == ["fixture_table"]


def test_reset_empties_one_table_of_the_namespace(dynapage, dynapage_reset):
    client = dynapage.client()
    client.create_table(TableName="emptied", AttributeDefinitions=[{"AttributeName": "k", "AttributeType": "S"}],
                        KeySchema=[{"AttributeName": "k", "KeyType": "HASH"}], BillingMode="PAY_PER_REQUEST")
    client.put_item(TableName="emptied", Item={"k": {"S": "1"}})
    assert dynapage_reset("emptied")["emptied"] == ["emptied"]
    assert client.scan(TableName="emptied")["Items"] == []
