#!/usr/bin/env python3
"""Times ExportTableToPointInTime and ImportTable on a built dynapage: N items of about 1 KB (default 100,000),
exported (DYNAMODB_JSON, gzip) into a temporary --s3-dir and imported back into a new table. Starts the server on a
free 127.0.0.1 port, in memory, and stops it; the temporary folder is removed.

    python3 bench/export_import_bench.py build/dynapage [--items 100000]
"""
import argparse, http.client, json, os, shutil, socket, subprocess, sys, tempfile, time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("binary")
    p.add_argument("--items", type=int, default=100000)
    a = p.parse_args()
    s3 = tempfile.mkdtemp(prefix="dynapage-bench-s3-")
    os.mkdir(os.path.join(s3, "bucket"))
    port = free_port()
    server = subprocess.Popen([a.binary, "--port", str(port), "--s3-dir", s3], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT)
    try:
        server.stdout.readline()  # the ready line
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)

        def call(op, body):
            conn.request("POST", "/", json.dumps(body), {
                "Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "DynamoDB_20120810." + op,
                "Authorization": "AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/dynamodb/aws4_request, "
                                 "SignedHeaders=host, Signature=0", "Host": "localhost", "X-Amz-Date": "20260101T000000Z"})
            r = conn.getresponse()
            data = json.loads(r.read())
            if r.status != 200:
                sys.exit(f"{op}: {data}")
            return data

        key = {"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
               "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}], "BillingMode": "PAY_PER_REQUEST"}
        table = call("CreateTable", dict(key, TableName="bench"))["TableDescription"]
        call("UpdateContinuousBackups", {"TableName": "bench",
                                         "PointInTimeRecoverySpecification": {"PointInTimeRecoveryEnabled": True}})
        payload = "x" * 1000
        for start in range(0, a.items, 25):
            requests = [{"PutRequest": {"Item": {"pk": {"S": f"item{i:08d}"}, "n": {"N": str(i)},
                                                 "payload": {"S": payload}}}}
                        for i in range(start, min(start + 25, a.items))]
            call("BatchWriteItem", {"RequestItems": {"bench": requests}})
        t0 = time.monotonic()
        export = call("ExportTableToPointInTime", {"TableArn": table["TableArn"], "S3Bucket": "bucket"})
        arn = export["ExportDescription"]["ExportArn"]
        done = call("DescribeExport", {"ExportArn": arn})["ExportDescription"]
        export_seconds = time.monotonic() - t0
        assert done["ExportStatus"] == "COMPLETED" and done["ItemCount"] == a.items, done
        export_id = arn.rsplit("/", 1)[1]
        t0 = time.monotonic()
        started = call("ImportTable", {"S3BucketSource": {"S3Bucket": "bucket",
                                                          "S3KeyPrefix": f"AWSDynamoDB/{export_id}/data/"},
                                       "InputFormat": "DYNAMODB_JSON", "InputCompressionType": "GZIP",
                                       "TableCreationParameters": dict(key, TableName="copy")})
        imported = call("DescribeImport", {"ImportArn": started["ImportTableDescription"]["ImportArn"]})
        import_seconds = time.monotonic() - t0
        imported = imported["ImportTableDescription"]
        assert imported["ImportStatus"] == "COMPLETED" and imported["ImportedItemCount"] == a.items, imported
        data_bytes = sum(os.path.getsize(os.path.join(root, f)) for root, _, files in os.walk(s3) for f in files)
        print(json.dumps({"items": a.items, "export_seconds": round(export_seconds, 2),
                          "import_seconds": round(import_seconds, 2), "export_files_bytes": data_bytes,
                          "export_items_per_second": round(a.items / export_seconds),
                          "import_items_per_second": round(a.items / import_seconds)}))
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(s3, ignore_errors=True)


if __name__ == "__main__":
    main()
