#!/usr/bin/env python3
# Vendored into dynapage's bench/ from the team's shared benchmark,
# shared/bench/ddbbench.py (sha256 67fe0691ed7c59464ea97e522747ea919f7ac3d6ac0b759ddcc947820dba5bf3),
# so that bench/ runs without anything outside the repository. bench/run.py drives it.
#
# Local changes (keep this list short; everything else is the shared file as it was):
#   1. this header;
#   2. --startup-poll-ms (default 5, the shared file's fixed interval): how often the startup
#      phase retries ListTables. bench/run.py passes 1, because a 5 ms poll rounds a startup
#      of a few milliseconds up by as much as 5 ms.
#   3. ProcWatch.cpu_s reads the server's CPU time from the kernel's CPU-time clock of that
#      process (clock_gettime on the PID's CPUCLOCK_SCHED clock: all its threads, in ns), the
#      figure that /proc/PID/stat's utime+stime is rounded from to 10 ms ticks; /proc/PID/stat
#      remains the fallback. A 50 ms phase measured in ticks is off by up to 20%.
"""ddbbench: a small, dependency-free benchmark + pagination self-check for
DynamoDB-compatible servers (DynamoDB Local, dynalite, LocalStack, moto,
Alternator, our own emulator).

Python 3 standard library only. Every request is a raw JSON POST over one
keep-alive http.client connection, so the client overhead is small and the
same for every server.

Phases (choose with --phases):
  startup  spawn --start-cmd, time to first successful ListTables (repeated)
  load     CreateTable(pk S, sk N) then BatchWriteItem x25 of N items
  scan     full paginated Scan, no Limit (pages cut by the 1 MB rule)
  query    Query one partition with Limit=25, paging through it
  filter   Scan with a FilterExpression matching 1% of items, plus a
           Limit+filter pass (Limit applies before the filter)
  pscan    Segment/TotalSegments parallel-scan coverage check (run serially)
  gsi      GSI Query/Scan pagination with ties on the index keys (small table)

Each phase prints one "name value unit" line per figure and everything is
written to a JSON summary (--out). When a server PID is known (--pid, or the
process spawned from --start-cmd) the server's CPU seconds (utime+stime from
/proc/PID/stat) and RSS (VmHWM / sampled VmRSS from /proc/PID/status) are
recorded per phase; CPU-seconds per operation is the figure to compare.
"""

import argparse
import datetime
import hashlib
import hmac
import http.client
import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse

MIB = 1024 * 1024
CLK_TCK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


# ----------------------------------------------------------------------------
# process metrics (/proc)
# ----------------------------------------------------------------------------

def _children_map():
    kids = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name, "rb") as f:
                data = f.read().decode("ascii", "replace")
        except OSError:
            continue
        rest = data[data.rfind(")") + 2:].split()
        ppid = int(rest[1])
        kids.setdefault(ppid, []).append(int(name))
    return kids


def process_tree(pid):
    kids = _children_map()
    out, stack = [], [pid]
    while stack:
        p = stack.pop()
        out.append(p)
        stack.extend(kids.get(p, []))
    return out


def _cpu_ticks(pid):
    with open("/proc/%d/stat" % pid, "rb") as f:
        data = f.read().decode("ascii", "replace")
    rest = data[data.rfind(")") + 2:].split()
    # rest[0] is field 3 (state); utime is field 14, stime field 15
    return int(rest[11]) + int(rest[12])


def _cpu_clock_s(pid):
    """CPU seconds of process `pid` (all threads) in ns precision: clock_gettime on the process's
    CPU-time clock, clockid MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED) = (~pid << 3) | 2 (Linux)."""
    return time.clock_gettime(((~pid) << 3) | 2)


def _status_kb(pid, key):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


class ProcWatch:
    """CPU seconds and memory of a server PID (optionally its whole tree)."""

    def __init__(self, pid, tree=False, sample_ms=50):
        self.pid = pid
        self.tree = tree
        self.sample_s = sample_ms / 1000.0
        self._stop = None
        self._thread = None
        self.phase_peak_rss_kb = 0

    def pids(self):
        return process_tree(self.pid) if self.tree else [self.pid]

    def alive(self):
        return os.path.exists("/proc/%d/stat" % self.pid)

    def cpu_s(self):
        total = 0.0
        for p in self.pids():
            try:
                total += _cpu_clock_s(p)
                continue
            except (OSError, ValueError, OverflowError, AttributeError):
                pass
            try:
                total += _cpu_ticks(p) / float(CLK_TCK)
            except OSError:
                pass
        return total

    def rss_kb(self):
        return sum(_status_kb(p, "VmRSS") for p in self.pids())

    def hwm_kb(self):
        return sum(_status_kb(p, "VmHWM") for p in self.pids())

    def start_sampling(self):
        self.phase_peak_rss_kb = self.rss_kb()
        self._stop = threading.Event()

        def run():
            while not self._stop.wait(self.sample_s):
                r = self.rss_kb()
                if r > self.phase_peak_rss_kb:
                    self.phase_peak_rss_kb = r

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()

    def stop_sampling(self):
        if self._stop:
            self._stop.set()
            self._thread.join()
            r = self.rss_kb()
            if r > self.phase_peak_rss_kb:
                self.phase_peak_rss_kb = r
        return self.phase_peak_rss_kb


# ----------------------------------------------------------------------------
# DynamoDB JSON-protocol client (raw http.client, keep-alive, SigV4)
# ----------------------------------------------------------------------------

class DdbError(Exception):
    def __init__(self, status, body):
        self.status = status
        self.body = body
        try:
            j = json.loads(body)
            self.type = j.get("__type", "").split("#")[-1]
            self.message = j.get("message") or j.get("Message") or ""
        except ValueError:
            self.type, self.message = "HTTP%d" % status, body[:200]
        Exception.__init__(self, "%s: %s (HTTP %d)" % (self.type, self.message, status))


class Client:
    def __init__(self, endpoint, region="us-east-1", access_key="AKIDLOCALBENCH",
                 secret_key="localbenchsecret", sign=True, timeout=120.0):
        u = urllib.parse.urlsplit(endpoint)
        if u.scheme not in ("http", "https"):
            raise SystemExit("endpoint must be http:// or https://")
        self.scheme = u.scheme
        self.host = u.hostname
        self.port = u.port or (443 if u.scheme == "https" else 80)
        self.hosthdr = u.netloc
        self.path = u.path or "/"
        self.region = region
        self.access_key = access_key
        self.secret_key = secret_key
        self.sign = sign
        self.timeout = timeout
        self.conn = None
        self._kdate = None
        self._kkey = None
        self.requests = 0
        self.reconnects = 0

    def _connect(self):
        if self.conn is not None:
            try:
                self.conn.close()
            except Exception:
                pass
        if self.scheme == "https":
            import ssl
            ctx = ssl.create_default_context()
            ctx.check_hostname = False
            ctx.verify_mode = ssl.CERT_NONE
            self.conn = http.client.HTTPSConnection(self.host, self.port, timeout=self.timeout, context=ctx)
        else:
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        self.conn.connect()
        self.conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def close(self):
        if self.conn is not None:
            try:
                self.conn.close()
            except Exception:
                pass
            self.conn = None

    def _auth(self, body, target, amzdate):
        datestamp = amzdate[:8]
        scope = "%s/%s/dynamodb/aws4_request" % (datestamp, self.region)
        signed = "content-type;host;x-amz-date;x-amz-target"
        if not self.sign:
            return ("AWS4-HMAC-SHA256 Credential=%s/%s, SignedHeaders=%s, Signature=%s"
                    % (self.access_key, scope, signed, "0" * 64))
        canon = "\n".join([
            "POST", self.path, "",
            "content-type:application/x-amz-json-1.0",
            "host:" + self.hosthdr,
            "x-amz-date:" + amzdate,
            "x-amz-target:" + target,
            "", signed, hashlib.sha256(body).hexdigest()])
        sts = "\n".join(["AWS4-HMAC-SHA256", amzdate, scope,
                         hashlib.sha256(canon.encode()).hexdigest()])
        if self._kdate != datestamp:
            k = hmac.new(("AWS4" + self.secret_key).encode(), datestamp.encode(), hashlib.sha256).digest()
            for part in (self.region, "dynamodb", "aws4_request"):
                k = hmac.new(k, part.encode(), hashlib.sha256).digest()
            self._kdate, self._kkey = datestamp, k
        sig = hmac.new(self._kkey, sts.encode(), hashlib.sha256).hexdigest()
        return ("AWS4-HMAC-SHA256 Credential=%s/%s, SignedHeaders=%s, Signature=%s"
                % (self.access_key, scope, signed, sig))

    def call_raw(self, op, payload):
        """Send one request. Returns (raw_body_bytes, seconds). Raises DdbError."""
        body = payload if isinstance(payload, bytes) else json.dumps(payload, separators=(",", ":")).encode()
        target = "DynamoDB_20120810." + op
        amzdate = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
        headers = {
            "Content-Type": "application/x-amz-json-1.0",
            "X-Amz-Target": target,
            "X-Amz-Date": amzdate,
            "Host": self.hosthdr,
            "Authorization": self._auth(body, target, amzdate),
            "Content-Length": str(len(body)),
        }
        for attempt in range(3):
            if self.conn is None:
                self._connect()
                if self.requests:
                    self.reconnects += 1
            try:
                t0 = time.perf_counter()
                self.conn.request("POST", self.path, body=body, headers=headers)
                resp = self.conn.getresponse()
                data = resp.read()
                dt = time.perf_counter() - t0
                break
            except (ConnectionError, http.client.HTTPException, socket.timeout, OSError):
                self.close()
                if attempt == 2:
                    raise
        self.requests += 1
        if resp.getheader("Connection", "").lower() == "close":
            self.close()
        if resp.status != 200:
            raise DdbError(resp.status, data.decode("utf-8", "replace"))
        return data, dt

    def call(self, op, payload):
        data, dt = self.call_raw(op, payload)
        return json.loads(data), dt, len(data)


# ----------------------------------------------------------------------------
# helpers
# ----------------------------------------------------------------------------

def pct(values, p):
    if not values:
        return 0.0
    s = sorted(values)
    k = max(0, min(len(s) - 1, int(round(p / 100.0 * len(s) + 0.5)) - 1))
    return s[k]


def attr_size(v):
    """DynamoDB item-size accounting for one AttributeValue (documented rules)."""
    (t, x), = v.items()
    if t == "S":
        return len(x.encode("utf-8"))
    if t == "N":
        digits = x.lstrip("-").replace(".", "").split("e")[0].split("E")[0].strip("0")
        return (len(digits) + 1) // 2 + 1
    if t == "B":
        return len(x) * 3 // 4  # base64 on the wire
    if t in ("BOOL", "NULL"):
        return 1
    if t == "SS":
        return sum(len(s.encode("utf-8")) for s in x)
    if t == "NS":
        return sum(attr_size({"N": n}) for n in x)
    if t == "BS":
        return sum(len(b) * 3 // 4 for b in x)
    if t == "L":
        return 3 + sum(1 + attr_size(e) for e in x)
    if t == "M":
        return 3 + sum(1 + len(k.encode("utf-8")) + attr_size(e) for k, e in x.items())
    return 0


def item_size(item):
    return sum(len(k.encode("utf-8")) + attr_size(v) for k, v in item.items())


def make_item(i, per_part, payload_len):
    return {
        "pk": {"S": "p%06d" % (i // per_part)},
        "sk": {"N": str(i % per_part)},
        "bucket": {"N": str(i % 100)},
        "payload": {"S": ("%08d" % i) + "x" * max(0, payload_len - 8)},
    }


def payload_len_for(target_size, n, per_part):
    probe = make_item(n - 1, per_part, 8)
    return max(8, target_size - item_size(probe) + 8)


class Reporter:
    def __init__(self, out_path, label):
        self.out_path = out_path
        self.summary = {"label": label, "started_utc": datetime.datetime.now(datetime.timezone.utc).isoformat(),
                        "host": {"nproc": os.cpu_count(), "python": sys.version.split()[0]},
                        "figures": {}, "checks": {}, "notes": []}

    def fig(self, name, value, unit=""):
        if isinstance(value, float):
            shown = ("%.6g" % value) if abs(value) < 1e6 else ("%.1f" % value)
        else:
            shown = str(value)
        print("%-44s %14s %s" % (name, shown, unit), flush=True)
        self.summary["figures"][name] = {"value": value, "unit": unit}

    def check(self, name, ok, detail=""):
        print("CHECK %-38s %s %s" % (name, "PASS" if ok else "FAIL", detail), flush=True)
        self.summary["checks"][name] = {"ok": bool(ok), "detail": detail}

    def note(self, text):
        print("NOTE", text, flush=True)
        self.summary["notes"].append(text)

    def save(self):
        self.summary["finished_utc"] = datetime.datetime.now(datetime.timezone.utc).isoformat()
        if self.out_path:
            with open(self.out_path, "w") as f:
                json.dump(self.summary, f, indent=2, sort_keys=True)
            print("summary written to", self.out_path, flush=True)


class Phase:
    """Context manager: wall, client CPU, server CPU, server RSS for a phase."""

    def __init__(self, rep, watch, name):
        self.rep, self.watch, self.name = rep, watch, name

    def __enter__(self):
        if self.watch and self.watch.alive():
            self.cpu0 = self.watch.cpu_s()
            self.watch.start_sampling()
        self.ccpu0 = time.process_time()
        self.t0 = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.wall = time.perf_counter() - self.t0
        self.client_cpu = time.process_time() - self.ccpu0
        self.server_cpu = None
        if self.watch and self.watch.alive():
            self.server_cpu = self.watch.cpu_s() - self.cpu0
            self.peak = self.watch.stop_sampling()
            self.hwm = self.watch.hwm_kb()
        return False

    def report(self, ops=None, op_unit="op"):
        r, n = self.rep, self.name
        r.fig(n + ".wall_s", self.wall, "s")
        r.fig(n + ".client_cpu_s", self.client_cpu, "s")
        if self.server_cpu is not None:
            r.fig(n + ".server_cpu_s", self.server_cpu, "s")
            if ops:
                r.fig(n + ".server_cpu_us_per_" + op_unit, self.server_cpu / ops * 1e6, "us")
            r.fig(n + ".server_rss_peak_in_phase_mib", self.peak / 1024.0, "MiB")
            r.fig(n + ".server_vmhwm_mib", self.hwm / 1024.0, "MiB")


# ----------------------------------------------------------------------------
# phases
# ----------------------------------------------------------------------------

def wait_ready(client, deadline_s, proc=None, poll_s=0.005):
    t0 = time.perf_counter()
    attempts = 0
    while True:
        attempts += 1
        try:
            client.call("ListTables", {})
            return time.perf_counter() - t0, attempts
        except (OSError, http.client.HTTPException, DdbError):
            client.close()
        if proc is not None and proc.poll() is not None:
            raise SystemExit("server exited during startup with code %s" % proc.returncode)
        if time.perf_counter() - t0 > deadline_s:
            raise SystemExit("server not ready after %.0fs" % deadline_s)
        time.sleep(poll_s)


def spawn(cmd, log_path):
    argv = shlex.split(cmd)
    logf = open(log_path, "ab") if log_path else subprocess.DEVNULL
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=logf, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    return proc, t0


def stop(proc):
    """Stop only the process we started (by its PID)."""
    if proc is None or proc.poll() is not None:
        return
    try:
        os.kill(proc.pid, signal.SIGTERM)
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    except ProcessLookupError:
        pass


def phase_startup(args, rep):
    times, rss = [], []
    for run in range(args.startup_runs):
        c = Client(args.endpoint, args.region, sign=not args.no_sign)
        proc, t0 = spawn(args.start_cmd, args.server_log)
        try:
            ready, attempts = wait_ready(c, args.startup_timeout, proc, args.startup_poll_ms / 1000.0)
            ready = time.perf_counter() - t0
            w = ProcWatch(proc.pid, tree=args.tree)
            time.sleep(0.2)
            rss.append(w.rss_kb() / 1024.0)
            times.append(ready)
            print("startup run %d: %.3f s to first ListTables, idle RSS %.1f MiB"
                  % (run + 1, ready, rss[-1]), flush=True)
        finally:
            c.close()
            stop(proc)
        time.sleep(0.3)
    rep.fig("startup.runs", len(times))
    rep.fig("startup.first_listtables_s_min", min(times), "s")
    rep.fig("startup.first_listtables_s_median", pct(times, 50), "s")
    rep.fig("startup.first_listtables_s_max", max(times), "s")
    rep.fig("startup.idle_rss_mib_median", pct(rss, 50), "MiB")


def ensure_table(c, name, rep):
    try:
        c.call("DeleteTable", {"TableName": name})
        for _ in range(600):
            try:
                c.call("DescribeTable", {"TableName": name})
                time.sleep(0.05)
            except DdbError as e:
                if e.type == "ResourceNotFoundException":
                    break
                raise
    except DdbError as e:
        if e.type != "ResourceNotFoundException":
            raise
    t0 = time.perf_counter()
    c.call("CreateTable", {
        "TableName": name,
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                 {"AttributeName": "sk", "AttributeType": "N"}],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                      {"AttributeName": "sk", "KeyType": "RANGE"}],
        "BillingMode": "PAY_PER_REQUEST",
    })
    while True:
        d, _, _ = c.call("DescribeTable", {"TableName": name})
        if d["Table"]["TableStatus"] == "ACTIVE":
            break
        time.sleep(0.02)
    return time.perf_counter() - t0


def phase_load(args, rep, c, watch, v):
    name = v["prefix"] + ".load"
    per_part = args.items_per_partition
    plen = payload_len_for(v["item_size"], v["n"], per_part)
    sample = make_item(v["n"] - 1, per_part, plen)
    rep.fig(name + ".items", v["n"])
    rep.fig(name + ".item_size_bytes", item_size(sample), "B")
    rep.fig(name + ".item_json_bytes", len(json.dumps(sample, separators=(",", ":"))), "B")
    ct = ensure_table(c, v["table"], rep)
    rep.fig(name + ".create_table_to_active_s", ct, "s")
    lat, retries, calls = [], 0, 0
    sent_bytes = 0
    with Phase(rep, watch, name) as ph:
        for start in range(0, v["n"], 25):
            reqs = [{"PutRequest": {"Item": make_item(i, per_part, plen)}}
                    for i in range(start, min(start + 25, v["n"]))]
            pending = {v["table"]: reqs}
            backoff = 0.01
            while pending:
                body = json.dumps({"RequestItems": pending}, separators=(",", ":")).encode()
                sent_bytes += len(body)
                while True:
                    try:
                        r, dt, _ = c.call("BatchWriteItem", body)
                        break
                    except DdbError as e:
                        if e.type in ("ProvisionedThroughputExceededException", "ThrottlingException",
                                      "RequestLimitExceeded", "InternalServerError"):
                            retries += 1
                            time.sleep(backoff)
                            backoff = min(1.0, backoff * 2)
                            continue
                        raise
                calls += 1
                lat.append(dt)
                pending = r.get("UnprocessedItems") or {}
                if pending:
                    retries += 1
                    time.sleep(backoff)
                    backoff = min(1.0, backoff * 2)
    rep.fig(name + ".batch_calls", calls)
    rep.fig(name + ".retries", retries)
    rep.fig(name + ".items_per_s", v["n"] / ph.wall, "items/s")
    rep.fig(name + ".request_mb_per_s", sent_bytes / MIB / ph.wall, "MiB/s")
    rep.fig(name + ".batch_latency_p50_ms", pct(lat, 50) * 1e3, "ms")
    rep.fig(name + ".batch_latency_p99_ms", pct(lat, 99) * 1e3, "ms")
    ph.report(v["n"], "item")


def paginate(c, op, base, max_pages, on_page):
    """Generic pager. Returns (pages, terminated, loop_detected)."""
    lek, pages, seen = None, 0, set()
    while True:
        req = dict(base)
        if lek is not None:
            req["ExclusiveStartKey"] = lek
        raw, dt = c.call_raw(op, json.dumps(req, separators=(",", ":")).encode())
        r = json.loads(raw)
        pages += 1
        on_page(r, dt, len(raw))
        lek = r.get("LastEvaluatedKey")
        if not lek:
            return pages, True, False
        key = json.dumps(lek, sort_keys=True)
        if key in seen:
            return pages, False, True
        seen.add(key)
        if pages >= max_pages:
            return pages, False, False


def phase_scan(args, rep, c, watch, v):
    name = v["prefix"] + ".scan"
    st = {"lat": [], "bytes": 0, "items": 0, "scanned": 0, "keys": set(), "dups": 0,
          "over": 0, "max_page_data": 0, "page_items": [], "count_mismatch": 0}

    def on_page(r, dt, nbytes):
        items = r.get("Items", [])
        st["lat"].append(dt)
        st["bytes"] += nbytes
        st["items"] += len(items)
        st["scanned"] += r.get("ScannedCount", 0)
        if r.get("Count") != len(items):
            st["count_mismatch"] += 1
        st["page_items"].append(len(items))
        data = 0
        for it in items:
            data += item_size(it)
            k = (it["pk"]["S"], it["sk"]["N"])
            if k in st["keys"]:
                st["dups"] += 1
            else:
                st["keys"].add(k)
        st["max_page_data"] = max(st["max_page_data"], data)
        if data > MIB:
            st["over"] += 1

    with Phase(rep, watch, name) as ph:
        pages, term, loop = paginate(c, "Scan", {"TableName": v["table"]}, v["n"] + 10, on_page)
    n = v["n"]
    rep.fig(name + ".pages", pages)
    rep.fig(name + ".items", st["items"])
    rep.fig(name + ".items_per_page_median", pct(st["page_items"], 50))
    rep.fig(name + ".items_per_s", st["items"] / ph.wall, "items/s")
    rep.fig(name + ".response_mib", st["bytes"] / MIB, "MiB")
    rep.fig(name + ".response_mib_per_s", st["bytes"] / MIB / ph.wall, "MiB/s")
    rep.fig(name + ".page_latency_p50_ms", pct(st["lat"], 50) * 1e3, "ms")
    rep.fig(name + ".page_latency_p99_ms", pct(st["lat"], 99) * 1e3, "ms")
    rep.fig(name + ".max_page_item_data_bytes", st["max_page_data"], "B")
    rep.fig(name + ".pages_over_1mib_item_data", st["over"])
    ph.report(pages, "page")
    if ph.server_cpu is not None and st["items"]:
        rep.fig(name + ".server_cpu_us_per_item", ph.server_cpu / st["items"] * 1e6, "us")
    rep.check(name + ".terminates", term and not loop, "pages=%d loop=%s" % (pages, loop))
    rep.check(name + ".exactly_n_distinct_items", len(st["keys"]) == n and st["dups"] == 0,
              "distinct=%d dups=%d expected=%d" % (len(st["keys"]), st["dups"], n))
    rep.check(name + ".count_equals_items_len", st["count_mismatch"] == 0,
              "pages with Count!=len(Items): %d" % st["count_mismatch"])
    rep.check(name + ".scannedcount_total_is_n", st["scanned"] == n, "ScannedCount total=%d" % st["scanned"])
    # 1 MB rule: a full page should hold about 1 MiB of item data; DynamoDB
    # stops once it has read 1 MB, so the last item may cross the line.
    expect = MIB // max(1, item_size(make_item(n - 1, args.items_per_partition,
                                                 payload_len_for(v["item_size"], n, args.items_per_partition))))
    if n > expect * 2:
        full = st["page_items"][:-1]
        ratio = (pct(full, 50) / float(expect)) if full else 0
        rep.fig(name + ".median_page_vs_1mib_expectation", ratio, "x")
        rep.check(name + ".pages_cut_near_1mib", 0.5 <= ratio <= 1.5,
                  "median items/page %d, ~%d expected from item size" % (pct(full, 50), expect))


def phase_query(args, rep, c, watch, v):
    name = v["prefix"] + ".query"
    per_part = min(args.items_per_partition, v["n"])
    part = "p%06d" % 0
    lat, pages_total, items_total, ok_order, ok_count, empty_tail = [], 0, 0, True, True, 0
    base = {"TableName": v["table"], "KeyConditionExpression": "pk = :p",
            "ExpressionAttributeValues": {":p": {"S": part}}, "Limit": args.query_limit}
    with Phase(rep, watch, name) as ph:
        for rep_i in range(args.query_repeats):
            got = []

            def on_page(r, dt, nbytes):
                lat.append(dt)
                its = r.get("Items", [])
                got.extend(int(it["sk"]["N"]) for it in its)
                if len(its) > args.query_limit:
                    raise SystemExit("Query returned more than Limit items")

            pages, term, loop = paginate(c, "Query", base, per_part + 10, on_page)
            pages_total += pages
            items_total += len(got)
            if got != sorted(got):
                ok_order = False
            if len(got) != per_part or len(set(got)) != per_part:
                ok_count = False
            full_pages = -(-per_part // args.query_limit)
            empty_tail = pages - full_pages
    rep.fig(name + ".partition_items", per_part)
    rep.fig(name + ".limit", args.query_limit)
    rep.fig(name + ".repeats", args.query_repeats)
    rep.fig(name + ".pages", pages_total)
    rep.fig(name + ".pages_per_s", pages_total / ph.wall, "pages/s")
    rep.fig(name + ".page_latency_p50_ms", pct(lat, 50) * 1e3, "ms")
    rep.fig(name + ".page_latency_p99_ms", pct(lat, 99) * 1e3, "ms")
    rep.fig(name + ".extra_empty_pages_per_pass", empty_tail)
    ph.report(pages_total, "page")
    rep.check(name + ".all_items_once", ok_count, "items per pass=%d expected=%d" % (items_total // max(1, args.query_repeats), per_part))
    rep.check(name + ".sort_key_ascending", ok_order)
    if per_part % args.query_limit == 0:
        # DynamoDB returns a LastEvaluatedKey when it stops because of Limit,
        # even if nothing is left, so the caller needs one extra (empty) page.
        rep.check(name + ".lek_on_exact_limit_boundary", empty_tail == 1,
                  "extra empty pages per pass=%d (DynamoDB: 1)" % empty_tail)


def phase_filter(args, rep, c, watch, v):
    name = v["prefix"] + ".filter"
    n = v["n"]
    st = {"lat": [], "count": 0, "scanned": 0, "items": 0, "bad": 0}
    base = {"TableName": v["table"], "FilterExpression": "#b = :z",
            "ExpressionAttributeNames": {"#b": "bucket"},
            "ExpressionAttributeValues": {":z": {"N": "0"}}}

    def on_page(r, dt, nbytes):
        st["lat"].append(dt)
        st["count"] += r.get("Count", 0)
        st["scanned"] += r.get("ScannedCount", 0)
        its = r.get("Items", [])
        st["items"] += len(its)
        st["bad"] += sum(1 for it in its if it["bucket"]["N"] != "0")

    with Phase(rep, watch, name) as ph:
        pages, term, loop = paginate(c, "Scan", base, n + 10, on_page)
    expected = sum(1 for i in range(n) if i % 100 == 0)
    rep.fig(name + ".pages", pages)
    rep.fig(name + ".count_total", st["count"])
    rep.fig(name + ".scannedcount_total", st["scanned"])
    rep.fig(name + ".scanned_items_per_s", st["scanned"] / ph.wall, "items/s")
    rep.fig(name + ".matched_items_per_s", st["count"] / ph.wall, "items/s")
    rep.fig(name + ".page_latency_p50_ms", pct(st["lat"], 50) * 1e3, "ms")
    rep.fig(name + ".page_latency_p99_ms", pct(st["lat"], 99) * 1e3, "ms")
    ph.report(pages, "page")
    if ph.server_cpu is not None and st["scanned"]:
        rep.fig(name + ".server_cpu_us_per_scanned_item", ph.server_cpu / st["scanned"] * 1e6, "us")
    rep.check(name + ".terminates", term and not loop, "pages=%d loop=%s" % (pages, loop))
    rep.check(name + ".count_is_1pct", st["count"] == expected and st["items"] == expected and st["bad"] == 0,
              "Count=%d Items=%d expected=%d wrong=%d" % (st["count"], st["items"], expected, st["bad"]))
    rep.check(name + ".scannedcount_is_n", st["scanned"] == n, "ScannedCount=%d N=%d" % (st["scanned"], n))

    # Limit + filter: Limit caps items *evaluated* per page, before the filter.
    lim = args.filter_limit
    name2 = v["prefix"] + ".limitfilter"
    st2 = {"lat": [], "count": 0, "scanned": 0, "viol": 0, "pages_empty": 0}
    base2 = dict(base, Limit=lim)

    def on_page2(r, dt, nbytes):
        st2["lat"].append(dt)
        cnt, sc = r.get("Count", 0), r.get("ScannedCount", 0)
        st2["count"] += cnt
        st2["scanned"] += sc
        if sc > lim or cnt > sc:
            st2["viol"] += 1
        if cnt == 0:
            st2["pages_empty"] += 1

    with Phase(rep, watch, name2) as ph2:
        pages2, term2, loop2 = paginate(c, "Scan", base2, n + 10, on_page2)
    rep.fig(name2 + ".limit", lim)
    rep.fig(name2 + ".pages", pages2)
    rep.fig(name2 + ".pages_with_zero_matches", st2["pages_empty"])
    rep.fig(name2 + ".pages_per_s", pages2 / ph2.wall, "pages/s")
    rep.fig(name2 + ".page_latency_p50_ms", pct(st2["lat"], 50) * 1e3, "ms")
    rep.fig(name2 + ".page_latency_p99_ms", pct(st2["lat"], 99) * 1e3, "ms")
    ph2.report(pages2, "page")
    rep.check(name2 + ".terminates", term2 and not loop2, "pages=%d" % pages2)
    rep.check(name2 + ".limit_before_filter", st2["viol"] == 0 and st2["scanned"] == n and st2["count"] == expected,
              "violations=%d ScannedCount=%d Count=%d (expect %d/%d)" % (st2["viol"], st2["scanned"], st2["count"], n, expected))
    # Every page but the last stops on Limit and so carries a LastEvaluatedKey;
    # when N is a multiple of Limit the last full page does too, and one more
    # (empty) request is needed: DynamoDB takes exactly N // Limit + 1 requests.
    want = n // lim + 1
    rep.check(name2 + ".page_count_matches_limit", pages2 == want,
              "pages=%d, DynamoDB takes %d" % (pages2, want))


def phase_pscan(args, rep, c, watch, v):
    name = v["prefix"] + ".pscan"
    segs = args.segments
    keys, dups, per_seg, pages_total = set(), 0, [], 0
    with Phase(rep, watch, name) as ph:
        for s in range(segs):
            seg_keys = []

            def on_page(r, dt, nbytes):
                for it in r.get("Items", []):
                    seg_keys.append((it["pk"]["S"], it["sk"]["N"]))

            pages, term, loop = paginate(c, "Scan", {"TableName": v["table"], "Segment": s,
                                                     "TotalSegments": segs, "ProjectionExpression": "pk, sk"},
                                         v["n"] + 10, on_page)
            pages_total += pages
            per_seg.append(len(seg_keys))
            for k in seg_keys:
                if k in keys:
                    dups += 1
                keys.add(k)
    rep.fig(name + ".segments", segs)
    rep.fig(name + ".pages", pages_total)
    rep.fig(name + ".items_per_segment_min", min(per_seg))
    rep.fig(name + ".items_per_segment_max", max(per_seg))
    ph.report(pages_total, "page")
    rep.check(name + ".segments_cover_all_once", len(keys) == v["n"] and dups == 0,
              "distinct=%d dups=%d" % (len(keys), dups))
    partitions = -(-v["n"] // args.items_per_partition)
    if partitions >= 4 * segs:
        rep.check(name + ".segments_really_split", max(per_seg) < v["n"],
                  "per-segment item counts %s" % per_seg)
    else:
        rep.note("%s: only %d partitions for %d segments, split check skipped (counts %s)"
                 % (name, partitions, segs, per_seg))


def phase_gsi(args, rep, c, watch):
    """GSI pagination fidelity on a small dedicated table.

    Many items share the same GSI hash *and* range value (ties), which is the
    case where emulators have returned a LastEvaluatedKey without the base-table
    keys and then looped or skipped items. Checks: every item exactly once,
    termination, LEK carries index keys + table keys, Limit respected.
    """
    name = "gsi"
    table = args.table_prefix + "_gsi"
    n, groups, lim = args.gsi_n, 4, args.gsi_limit
    try:
        c.call("DeleteTable", {"TableName": table})
        time.sleep(0.2)
    except DdbError:
        pass
    c.call("CreateTable", {
        "TableName": table,
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                 {"AttributeName": "sk", "AttributeType": "N"},
                                 {"AttributeName": "gpk", "AttributeType": "S"},
                                 {"AttributeName": "gsk", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                      {"AttributeName": "sk", "KeyType": "RANGE"}],
        "GlobalSecondaryIndexes": [{
            "IndexName": "byGroup",
            "KeySchema": [{"AttributeName": "gpk", "KeyType": "HASH"},
                          {"AttributeName": "gsk", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "ALL"}}],
        "BillingMode": "PAY_PER_REQUEST",
    })
    for _ in range(1000):
        d, _, _ = c.call("DescribeTable", {"TableName": table})
        t = d["Table"]
        if t["TableStatus"] == "ACTIVE" and all(g.get("IndexStatus", "ACTIVE") == "ACTIVE"
                                                  for g in t.get("GlobalSecondaryIndexes", [])):
            break
        time.sleep(0.02)
    for start in range(0, n, 25):
        reqs = [{"PutRequest": {"Item": {
            "pk": {"S": "p%04d" % (i // 10)}, "sk": {"N": str(i % 10)},
            "gpk": {"S": "g%d" % (i % groups)},
            # ties: only 3 distinct GSI range values per group
            "gsk": {"S": "s%d" % (i % 3)},
            "payload": {"S": "x" * 50}}}} for i in range(start, min(start + 25, n))]
        pending = {table: reqs}
        while pending:
            r, _, _ = c.call("BatchWriteItem", {"RequestItems": pending})
            pending = r.get("UnprocessedItems") or {}
    keyset = {"pk", "sk", "gpk", "gsk"}
    lat, pages, seen, dups, lek_bad, over_limit, loops, order_bad = [], 0, set(), 0, 0, 0, 0, 0
    with Phase(rep, watch, name) as ph:
        for g in range(groups):
            got = []

            bad = [0, 0]  # [LEK shape problems, pages over Limit]

            def on_page(r, dt, nbytes, got=got, bad=bad):
                lat.append(dt)
                its = r.get("Items", [])
                if len(its) > lim:
                    bad[1] += 1
                got.extend(its)
                lek = r.get("LastEvaluatedKey")
                if lek is not None and set(lek) != keyset:
                    bad[0] += 1

            base = {"TableName": table, "IndexName": "byGroup", "Limit": lim,
                    "KeyConditionExpression": "gpk = :g",
                    "ExpressionAttributeValues": {":g": {"S": "g%d" % g}}}
            p, term, loop = paginate(c, "Query", base, n + 10, on_page)
            pages += p
            lek_bad += bad[0]
            over_limit += bad[1]
            loops += 0 if (term and not loop) else 1
            gsks = [it["gsk"]["S"] for it in got]
            if gsks != sorted(gsks):
                order_bad += 1
            for it in got:
                k = (it["pk"]["S"], it["sk"]["N"])
                if k in seen:
                    dups += 1
                seen.add(k)
    rep.fig(name + ".items", n)
    rep.fig(name + ".limit", lim)
    rep.fig(name + ".pages", pages)
    rep.fig(name + ".page_latency_p50_ms", pct(lat, 50) * 1e3, "ms")
    rep.fig(name + ".page_latency_p99_ms", pct(lat, 99) * 1e3, "ms")
    ph.report(pages, "page")
    rep.check(name + ".query_terminates", loops == 0, "non-terminating groups=%d" % loops)
    rep.check(name + ".query_all_items_once", len(seen) == n and dups == 0,
              "distinct=%d dups=%d expected=%d" % (len(seen), dups, n))
    rep.check(name + ".lek_has_index_and_table_keys", lek_bad == 0,
              "pages whose LastEvaluatedKey != {pk,sk,gpk,gsk}: %d" % lek_bad)
    rep.check(name + ".index_range_key_order", order_bad == 0, "groups out of order: %d" % order_bad)
    rep.check(name + ".limit_respected", over_limit == 0, "pages with more than Limit items: %d" % over_limit)
    # Scan of the index with Limit must also cover every item once.
    keys2, dups2 = set(), 0

    def on_scan(r, dt, nbytes):
        nonlocal dups2
        for it in r.get("Items", []):
            k = (it["pk"]["S"], it["sk"]["N"])
            if k in keys2:
                dups2 += 1
            keys2.add(k)

    p2, term2, loop2 = paginate(c, "Scan", {"TableName": table, "IndexName": "byGroup", "Limit": lim},
                                n + 10, on_scan)
    rep.check(name + ".index_scan_all_items_once", term2 and not loop2 and len(keys2) == n and dups2 == 0,
              "pages=%d distinct=%d dups=%d" % (p2, len(keys2), dups2))
    if not args.keep_tables:
        try:
            c.call("DeleteTable", {"TableName": table})
        except DdbError:
            pass


# ----------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--endpoint", default="http://127.0.0.1:8000", help="server URL")
    ap.add_argument("--pid", type=int, help="server PID for CPU/RSS figures (default: the spawned one)")
    ap.add_argument("--tree", action="store_true", help="count the PID's child processes too (wrappers, JVM children)")
    ap.add_argument("--start-cmd", help="command that starts the server (exec form, no shell); enables startup phase")
    ap.add_argument("--startup-runs", type=int, default=3)
    ap.add_argument("--startup-timeout", type=float, default=120.0)
    ap.add_argument("--startup-poll-ms", type=float, default=5.0,
                    help="startup phase: retry ListTables every this many ms (local change, see header)")
    ap.add_argument("--server-log", help="append the spawned server's stdout/stderr here")
    ap.add_argument("--leave-running", action="store_true", help="do not stop the server spawned for the benchmark")
    ap.add_argument("--phases", default="startup,load,scan,query,filter,pscan,gsi")
    ap.add_argument("--variants", default="small,big", help="small (~200 B items) and/or big (~4 KB items)")
    ap.add_argument("-n", "--n", type=int, default=100000, help="items for the small variant")
    ap.add_argument("--big-n", type=int, default=20000, help="items for the ~4 KB variant")
    ap.add_argument("--item-size", type=int, default=200)
    ap.add_argument("--big-item-size", type=int, default=4096)
    ap.add_argument("--items-per-partition", type=int, default=1000)
    ap.add_argument("--query-limit", type=int, default=25)
    ap.add_argument("--query-repeats", type=int, default=5)
    ap.add_argument("--filter-limit", type=int, default=100, help="Limit for the Limit+filter pass")
    ap.add_argument("--segments", type=int, default=4)
    ap.add_argument("--gsi-n", type=int, default=2000, help="items in the GSI pagination table")
    ap.add_argument("--gsi-limit", type=int, default=7, help="Limit for the GSI pagination pass")
    ap.add_argument("--table-prefix", default="ddbbench")
    ap.add_argument("--keep-tables", action="store_true")
    ap.add_argument("--region", default="us-east-1")
    ap.add_argument("--no-sign", action="store_true", help="send a well-formed but unsigned Authorization header")
    ap.add_argument("--label", default="", help="free text stored in the summary (server name/version)")
    ap.add_argument("--out", default="ddbbench-summary.json")
    args = ap.parse_args()

    phases = [p.strip() for p in args.phases.split(",") if p.strip()]
    rep = Reporter(args.out, args.label)
    rep.summary["args"] = vars(args)

    proc = None
    try:
        if "startup" in phases:
            if args.start_cmd:
                phase_startup(args, rep)
            else:
                rep.note("startup phase skipped: no --start-cmd")
        c = Client(args.endpoint, args.region, sign=not args.no_sign)
        if args.start_cmd:
            proc, t0 = spawn(args.start_cmd, args.server_log)
            wait_ready(c, args.startup_timeout, proc)
        else:
            wait_ready(c, 10.0)
        pid = args.pid or (proc.pid if proc else None)
        watch = ProcWatch(pid, tree=args.tree) if pid else None
        if watch:
            rep.fig("server.pid_tree_size", len(watch.pids()))
            rep.fig("server.rss_before_load_mib", watch.rss_kb() / 1024.0, "MiB")
            rep.fig("server.cpu_before_load_s", watch.cpu_s(), "s")
        else:
            rep.note("no PID: server CPU/RSS figures omitted")

        variants = []
        for vname in [x.strip() for x in args.variants.split(",") if x.strip()]:
            if vname == "small":
                variants.append({"prefix": "small", "n": args.n, "item_size": args.item_size,
                                 "table": args.table_prefix + "_small"})
            elif vname == "big":
                variants.append({"prefix": "big", "n": args.big_n, "item_size": args.big_item_size,
                                 "table": args.table_prefix + "_big"})
            else:
                raise SystemExit("unknown variant " + vname)

        for v in variants:
            if "load" in phases:
                phase_load(args, rep, c, watch, v)
            if "scan" in phases:
                phase_scan(args, rep, c, watch, v)
            if "query" in phases:
                phase_query(args, rep, c, watch, v)
            if "filter" in phases:
                phase_filter(args, rep, c, watch, v)
            if "pscan" in phases:
                phase_pscan(args, rep, c, watch, v)
            if not args.keep_tables and "load" in phases:
                try:
                    c.call("DeleteTable", {"TableName": v["table"]})
                except DdbError as e:
                    rep.note("DeleteTable %s: %s" % (v["table"], e))
        if "gsi" in phases:
            phase_gsi(args, rep, c, watch)
        if watch and watch.alive():
            rep.fig("server.vmhwm_end_mib", watch.hwm_kb() / 1024.0, "MiB")
            rep.fig("server.cpu_total_s", watch.cpu_s(), "s")
        rep.fig("client.requests", c.requests)
        rep.fig("client.reconnects", c.reconnects)
        c.close()
    finally:
        if proc is not None and not args.leave_running:
            stop(proc)
        fails = [k for k, v in rep.summary["checks"].items() if not v["ok"]]
        rep.summary["checks_failed"] = fails
        rep.save()
        if rep.summary["checks"]:
            print("%d passed, %d failed" % (len(rep.summary["checks"]) - len(fails), len(fails)), flush=True)


if __name__ == "__main__":
    main()
