"""Worker A of the pytest plugin's isolation test (scripts/package-test.sh runs A and B on two xdist workers, with
one shared server and with one server per worker): A resets its namespace once B has checked its own."""

from rendezvous import arrive, create_and_check


def test_worker_a(dynapage, dynapage_reset):
    create_and_check(dynapage, "a", "b")
    answer = dynapage_reset()
    assert "Orders" in answer["deleted"], answer
    assert dynapage.client().list_tables()["TableNames"] == []
    arrive("reset-by-a")
