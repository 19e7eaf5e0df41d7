"""The executable's own operator new[]: a growing memtable's blocks are advised as huge pages
(engine/storage/memtable_pages.h), past the first 4 MiB. Checked in /proc/PID/smaps: the "hg" VmFlag marks a
mapping advised MADV_HUGEPAGE."""

import os

import pytest

pytestmark = [
    pytest.mark.skipif(os.environ.get("DYNAPAGE_SANITIZED") == "1",
                       reason="the sanitized build keeps its runtime's operator new[]"),
    pytest.mark.skipif(not os.path.exists("/sys/kernel/mm/transparent_hugepage/enabled"),
                       reason="this kernel has no transparent huge pages"),
]


def advised_huge_bytes(pid):
    total, size = 0, 0
    with open(f"/proc/{pid}/smaps") as smaps:
        for line in smaps:
            if line.startswith("Size:"):
                size = int(line.split()[1]) * 1024
            elif line.startswith("VmFlags:") and " hg" in line:
                total += size
    return total


def test_a_growing_memtable_is_advised_as_huge_pages(dynapage):
    ddb = dynapage.client()
    ddb.create_table(TableName="pages", KeySchema=[{"AttributeName": "k", "KeyType": "HASH"}],
                     AttributeDefinitions=[{"AttributeName": "k", "AttributeType": "S"}],
                     BillingMode="PAY_PER_REQUEST")
    assert advised_huge_bytes(dynapage.proc.pid) == 0
    value = "x" * (300 * 1024)
    for batch in range(2):  # 50 items of 300 KB: 15 MB into the memtable
        written = ddb.batch_write_item(RequestItems={"pages": [
            {"PutRequest": {"Item": {"k": {"S": f"{batch}-{n}"}, "v": {"S": value}}}} for n in range(25)]})
        assert written["UnprocessedItems"] == {}
    assert advised_huge_bytes(dynapage.proc.pid) >= 4 * 2 ** 20
    assert ddb.get_item(TableName="pages", Key={"k": {"S": "1-24"}})["Item"]["v"]["S"] == value
