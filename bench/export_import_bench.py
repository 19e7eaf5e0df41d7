#!/usr/bin/env python3
"""Times ExportTableToPointInTime and ImportTable on a built dynapage: N items of about 1 KB (default 100,000),
exported (DYNAMODB_JSON, gzip) into a temporary --s3-dir and imported back into a new table. Starts the server on a
free 127.0.0.1 port, in memory, and stops it; the temporary folder is removed.

    python3 bench/export_import_bench.py build/dynapage [--items 100000]
"""
import argparse, json, os, shutil, tempfile, time

from local_server import LocalServer


def main():
    p = argparse.ArgumentParser()
    p.add_argument("binary")
    p.add_argument("--items", type=int, default=100000)
    a = p.parse_args()
    s3 = tempfile.mkdtemp(prefix="dynapage-bench-s3-")
    os.mkdir(os.path.join(s3, "bucket"))
    try:
        with LocalServer(a.binary, ["--s3-dir", s3]) as server:
            run(server.call, a.items, s3)
    finally:
        shutil.rmtree(s3, ignore_errors=True)


def run(call, items, s3):
    """Loads items into a table with PITR, exports it, imports the export into a second table; prints the times."""
    key = {"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
           "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}], "BillingMode": "PAY_PER_REQUEST"}
    table = call("CreateTable", dict(key, TableName="bench"))["TableDescription"]
    call("UpdateContinuousBackups", {"TableName": "bench",
                                     "PointInTimeRecoverySpecification": {"PointInTimeRecoveryEnabled": True}})
    payload = "x" * 1000
    for start in range(0, items, 25):
        requests = [{"PutRequest": {"Item": {"pk": {"S": f"item{i:08d}"}, "n": {"N": str(i)},
                                             "payload": {"S": payload}}}}
                    for i in range(start, min(start + 25, items))]
        call("BatchWriteItem", {"RequestItems": {"bench": requests}})
    t0 = time.monotonic()
    export = call("ExportTableToPointInTime", {"TableArn": table["TableArn"], "S3Bucket": "bucket"})
    arn = export["ExportDescription"]["ExportArn"]
    done = call("DescribeExport", {"ExportArn": arn})["ExportDescription"]
    export_seconds = time.monotonic() - t0
    assert done["ExportStatus"] == "COMPLETED" and done["ItemCount"] == items, done
    export_id = arn.rsplit("/", 1)[1]
    t0 = time.monotonic()
    started = call("ImportTable", {"S3BucketSource": {"S3Bucket": "bucket",
                                                      "S3KeyPrefix": f"AWSDynamoDB/{export_id}/data/"},
                                   "InputFormat": "DYNAMODB_JSON", "InputCompressionType": "GZIP",
                                   "TableCreationParameters": dict(key, TableName="copy")})
    imported = call("DescribeImport", {"ImportArn": started["ImportTableDescription"]["ImportArn"]})
    import_seconds = time.monotonic() - t0
    imported = imported["ImportTableDescription"]
    assert imported["ImportStatus"] == "COMPLETED" and imported["ImportedItemCount"] == items, imported
    data_bytes = sum(os.path.getsize(os.path.join(root, f)) for root, _, files in os.walk(s3) for f in files)
    print(json.dumps({"items": items, "export_seconds": round(export_seconds, 2),
                      "import_seconds": round(import_seconds, 2), "export_files_bytes": data_bytes,
                      "export_items_per_second": round(items / export_seconds),
                      "import_items_per_second": round(items / import_seconds)}))


if __name__ == "__main__":
    main()
