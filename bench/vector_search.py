#!/usr/bin/env python3
"""Times SearchVectors on a built dynapage: N items of D dimensions (default 100,000 x 256), one COSINE index,
exact top-10 searches. Starts the server on a free 127.0.0.1 port, in memory, and stops it.

    python3 bench/vector_search.py build/dynapage [--items 100000] [--dims 256] [--searches 50]
"""
import argparse, random, time

from local_server import LocalServer


def main():
    p = argparse.ArgumentParser()
    p.add_argument("binary")
    p.add_argument("--items", type=int, default=100000)
    p.add_argument("--dims", type=int, default=256)
    p.add_argument("--searches", type=int, default=50)
    a = p.parse_args()
    with LocalServer(a.binary) as server:
        call = server.call
        call("CreateTable", {"TableName": "bench", "BillingMode": "PAY_PER_REQUEST",
                             "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                             "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
                             "VectorIndexes": [{"IndexName": "vec", "VectorAttribute": {"AttributeName": "v"},
                                                "Dimensions": a.dims, "DistanceFunction": "COSINE",
                                                "Projection": {"ProjectionType": "KEYS_ONLY"}}]})
        rng = random.Random(1)
        vec = lambda: [{"N": "%.6f" % rng.uniform(-1, 1)} for _ in range(a.dims)]
        start = time.time()
        for first in range(0, a.items, 25):
            puts = [{"PutRequest": {"Item": {"pk": {"S": "k%07d" % i}, "v": {"L": vec()}}}}
                    for i in range(first, min(first + 25, a.items))]
            call("BatchWriteItem", {"RequestItems": {"bench": puts}})
        print(f"loaded {a.items} items x {a.dims} dims in {time.time() - start:.1f} s")
        times = []
        for _ in range(a.searches):
            q = vec()
            t = time.perf_counter()
            r = call("SearchVectors", {"TableName": "bench", "IndexName": "vec", "SearchVector": q, "TopK": 10})
            times.append((time.perf_counter() - t) * 1000)
            assert len(r["SearchResults"]) == 10
        times.sort()
        print(f"SearchVectors top-10: median {times[len(times) // 2]:.1f} ms, "
              f"p90 {times[int(len(times) * 0.9)]:.1f} ms, min {times[0]:.1f} ms over {a.searches} searches")
        status = open(f"/proc/{server.pid}/status").read()
        rss = [l for l in status.splitlines() if l.startswith("VmRSS")][0]
        print("server", rss)


if __name__ == "__main__":
    main()
