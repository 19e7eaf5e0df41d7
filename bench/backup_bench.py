#!/usr/bin/env python3
"""Times backups and point-in-time recovery on a built dynapage (docs/backups.md): loads N items of about 1 KB
(default 100,000) with BatchWriteItem into a table with PITR off and into one with PITR on (the write cost of the
journal: server CPU µs per item and wall time), then CreateBackup and RestoreTableFromBackup of the PITR-off table,
and RestoreTableToPointInTime of the other. Starts the server on a free 127.0.0.1 port (in memory, or --db-path),
and stops it.

    python3 bench/backup_bench.py build/dynapage [--items 100000] [--db-path DIR]
"""
import argparse, json, time

from local_server import LocalServer


def server_cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100  # utime + stime, in clock ticks of 1/100 s


def main():
    p = argparse.ArgumentParser()
    p.add_argument("binary")
    p.add_argument("--items", type=int, default=100000)
    p.add_argument("--db-path", default="")
    a = p.parse_args()
    args = ["--pitr-latest-lag-seconds", "0", "--ttl-interval", "0"]
    if a.db_path:
        args += ["--db-path", a.db_path]
    with LocalServer(a.binary, args) as server:
        call = server.call

        def timed(op, body):
            start, cpu = time.perf_counter(), server_cpu_seconds(server.pid)
            answer = call(op, body)
            return answer, time.perf_counter() - start, server_cpu_seconds(server.pid) - cpu

        filler = "x" * 980
        results = {}
        for table, pitr in (("plain", False), ("journaled", True)):
            call("CreateTable", {"TableName": table, "BillingMode": "PAY_PER_REQUEST",
                                 "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                                 "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]})
            if pitr:
                call("UpdateContinuousBackups", {"TableName": table,
                                                 "PointInTimeRecoverySpecification": {"PointInTimeRecoveryEnabled": True}})
            start, cpu = time.perf_counter(), server_cpu_seconds(server.pid)
            for first in range(0, a.items, 25):
                call("BatchWriteItem", {"RequestItems": {table: [
                    {"PutRequest": {"Item": {"pk": {"S": f"item{i:08d}"}, "f": {"S": filler}}}}
                    for i in range(first, min(a.items, first + 25))]}})
            wall, used = time.perf_counter() - start, server_cpu_seconds(server.pid) - cpu
            results[f"load_{table}"] = {"wall_s": round(wall, 2), "server_cpu_us_per_item": round(used / a.items * 1e6, 1)}
        backup, wall, cpu = timed("CreateBackup", {"TableName": "plain", "BackupName": "bench"})
        results["create_backup"] = {"wall_s": round(wall, 2), "server_cpu_s": round(cpu, 2)}
        arn = backup["BackupDetails"]["BackupArn"]
        _, wall, cpu = timed("RestoreTableFromBackup", {"TargetTableName": "restored", "BackupArn": arn})
        results["restore_table_from_backup"] = {"wall_s": round(wall, 2), "server_cpu_s": round(cpu, 2)}
        count = call("DescribeTable", {"TableName": "restored"})["Table"]["ItemCount"]
        assert count == a.items, count
        _, wall, cpu = timed("RestoreTableToPointInTime", {"SourceTableName": "journaled", "TargetTableName": "pitr",
                                                           "UseLatestRestorableTime": True})
        results["restore_table_to_point_in_time"] = {"wall_s": round(wall, 2), "server_cpu_s": round(cpu, 2)}
        print(json.dumps({"items": a.items, "item_bytes": 1000, "db_path": bool(a.db_path), **results}, indent=2))


if __name__ == "__main__":
    main()
