"""Worker B of the pytest plugin's isolation test (see test_isolation_a.py)."""


import pytest

from rendezvous import arrive, create_and_check, wait_for


def test_worker_b(dynapage):
    create_and_check(dynapage, "b", "a")
    wait_for("reset-by-a")
    survived = "Orders" in dynapage.client().list_tables()["TableNames"]
    arrive("b-survived-reset", "yes" if survived else "no")


# On one shared server too: a reset acts on the caller's namespace only (worker A's access key).
def test_worker_b_tables_survive_a_reset_by_a():
    assert wait_for("b-survived-reset") == "yes"
