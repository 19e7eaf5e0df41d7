"""dynapage through the AWS CLI's automatic pagination: `aws dynamodb scan/query` following LastEvaluatedKey by itself
(with and without --page-size), and --max-items loops resumed with --starting-token (NextToken), on a multi-page
table with the default 1 MB page and with --max-page-bytes 4096 (see sdk_paging.py); plus the CLI's report of a
typed error. Each CLI call costs about a second of start-up, so the calls are few and each checks several things.
"""

import json

import pytest

from sdk_paging import (  # noqa: F401  (paged is a fixture)
    ALL_KEYS,
    TABLE,
    TABLE_DEFINITION,
    assert_exactly_once,
    paged,
    partition_keys,
)


def sort_keys(output):
    return [int(item["sk"]["N"]) for item in output["Items"]]


class TestPagination:
    """The CLI against the loaded, multi-page server of sdk_paging (both configurations)."""

    @pytest.fixture
    def dynapage(self, paged):
        """conftest's `aws` fixture runs the CLI against `dynapage`: in this class, the loaded server."""
        return paged.server

    def test_scan_follows_every_page(self, paged, aws):
        out = json.loads(aws("scan", "--table-name", TABLE).stdout)
        assert_exactly_once(sort_keys(out), ALL_KEYS, "aws dynamodb scan")
        assert out["Count"] == len(ALL_KEYS)
        assert out["ScannedCount"] == len(ALL_KEYS)
        assert "NextToken" not in out and "LastEvaluatedKey" not in out
        assert all(len(item["pad"]["S"]) == paged.config.pad for item in out["Items"])

    def test_scan_max_items_loop_with_starting_token(self, aws):
        """--page-size 200 (Limit) with --max-items 1700: two calls, the cut inside a page, resumed by NextToken."""
        args = ["scan", "--table-name", TABLE, "--page-size", "200", "--max-items", "1700"]
        first = json.loads(aws(*args).stdout)
        assert len(first["Items"]) == 1700
        assert "NextToken" in first
        rest = json.loads(aws(*args, "--starting-token", first["NextToken"]).stdout)
        assert "NextToken" not in rest
        assert_exactly_once(sort_keys(first) + sort_keys(rest), ALL_KEYS, "scan --max-items/--starting-token")

    def test_query_reversed_max_items_loop_with_starting_token(self, aws):
        """Query pages as the server cuts them (no --page-size), highest sort key first, 600 items a call."""
        args = ["query", "--table-name", TABLE, "--key-condition-expression", "pk = :p",
                "--expression-attribute-values", '{":p": {"S": "p1"}}', "--no-scan-index-forward",
                "--max-items", "600"]
        first = json.loads(aws(*args).stdout)
        assert len(first["Items"]) == 600
        assert "NextToken" in first
        rest = json.loads(aws(*args, "--starting-token", first["NextToken"]).stdout)
        assert "NextToken" not in rest
        assert sort_keys(first) + sort_keys(rest) == partition_keys(1)[::-1]

    def test_query_with_page_size_and_filter(self, aws):
        out = json.loads(
            aws("query", "--table-name", TABLE, "--key-condition-expression", "pk = :p AND sk >= :lo",
                "--filter-expression", "grp = :g",
                "--expression-attribute-values", '{":p": {"S": "p2"}, ":lo": {"N": "500"}, ":g": {"N": "4"}}',
                "--page-size", "90").stdout
        )
        expected = [k for k in partition_keys(2) if k >= 500 and k % 7 == 4]
        assert sort_keys(out) == expected
        assert out["Count"] == len(expected)
        assert out["ScannedCount"] == len([k for k in partition_keys(2) if k >= 500])


def test_bad_requests_are_typed_errors(dynapage, aws):
    """On a fresh server (conftest's `dynapage`): the CLI reports the error type and message, and exits non-zero."""
    client = dynapage.client()
    client.create_table(**TABLE_DEFINITION)
    client.close()

    missing = aws("scan", "--table-name", "no_such_table", check=False)
    assert missing.returncode != 0
    assert "An error occurred (ResourceNotFoundException) when calling the Scan operation" in missing.stderr
    assert "Requested resource not found" in missing.stderr

    bad = aws("query", "--table-name", TABLE, "--key-condition-expression", "grp = :g",
              "--expression-attribute-values", '{":g": {"N": "1"}}', check=False)
    assert bad.returncode != 0
    assert "An error occurred (ValidationException) when calling the Query operation" in bad.stderr
