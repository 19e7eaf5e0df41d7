"""Seeding speed: how long dynapage takes from start to its ready line with --seed PATH of 100,000 items of ~1 KB
(each a key, a number and a 1,000-byte string), from a seed JSON file (docs/seeding.md). In memory, on a free
127.0.0.1 port; the server is stopped when its ready line is read.

    python3 bench/seed_bench.py build/dynapage [--items N] [--runs R]
"""
import argparse, json, os, re, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from local_server import free_port  # noqa: E402


def write_seed(path, items):
    payload = "x" * 1000
    with open(path, "w") as f:
        f.write('{"Tables":[{"CreateTable":{"TableName":"bench","BillingMode":"PAY_PER_REQUEST",'
                '"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],'
                '"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]},"Items":[\n')
        for i in range(items):
            item = {"pk": {"S": f"item{i:08d}"}, "n": {"N": str(i)}, "payload": {"S": payload}}
            f.write(("," if i else "") + json.dumps(item) + "\n")
        f.write("]}]}\n")


def start_to_ready(binary, arguments):
    """Seconds from the process start to its ready line, the server's CPU seconds (user + system, start to stop:
    steadier than wall time on a shared machine), and what it wrote on stderr."""
    started = time.monotonic()
    with tempfile.TemporaryFile() as err:
        process = subprocess.Popen([binary, "--port", str(free_port()), *arguments], stdout=subprocess.PIPE,
                                   stderr=err)
        line = process.stdout.readline()
        ready = time.monotonic() - started
        process.terminate()
        _, _, usage = os.wait4(process.pid, 0)
        process.returncode = 0
        err.seek(0)
        text = err.read().decode()
    if b"listening" not in line:
        sys.exit(f"dynapage did not start: {text}")
    return ready, usage.ru_utime + usage.ru_stime, text


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        seed = os.path.join(folder, "seed.json")
        write_seed(seed, args.items)
        size_mb = os.path.getsize(seed) / 1e6
        print(f"seed file: {args.items} items, {size_mb:.1f} MB")
        empty, _, _ = start_to_ready(args.binary, [])
        print(f"start-up without a seed: {empty:.3f} s")
        for run in range(args.runs):
            ready, cpu, log = start_to_ready(args.binary, ["--seed", seed])
            phases = {name: float(seconds) for name, seconds in
                      re.findall(r"seed: (read|checked) .* in ([\d.]+) s", log)}
            loaded = re.search(r"seed: .* loaded in ([\d.]+) s", log)
            print(f"run {run + 1}: ready after {ready:.2f} s ({args.items / ready:,.0f} items/s), server CPU "
                  f"{cpu:.2f} s; read {phases.get('read', 0):.2f} s, checked {phases.get('checked', 0):.2f} s, "
                  f"loaded {float(loaded.group(1)):.2f} s; {log.count(' items, ')} progress lines")

if __name__ == "__main__":
    main()
