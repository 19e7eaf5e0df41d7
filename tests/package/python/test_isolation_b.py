"""Worker B of the pytest plugin's isolation test (see test_isolation_a.py)."""

import os

import pytest

from rendezvous import arrive, create_and_check, wait_for


def test_worker_b(dynapage):
    create_and_check(dynapage, "b", "a")
    wait_for("reset-by-a")
    survived = "Orders" in dynapage.client().list_tables()["TableNames"]
    arrive("b-survived-reset", "yes" if survived else "no")


# On one shared server: POST /_dynapage/reset of 0.1.0 deletes every namespace's tables, whoever asks; the "admin"
# branch scopes it to the caller's namespace. Strict: once that has landed this passes, XPASS fails the run, and the
# marker must go. With a server per worker it must pass already.
@pytest.mark.xfail(bool(os.environ.get("DYNAPAGE_ENDPOINT")), strict=True,
                   reason="until the admin branch lands, reset acts on every namespace of a shared server")
def test_worker_b_tables_survive_a_reset_by_a():
    assert wait_for("b-survived-reset") == "yes"
