#!/usr/bin/env python3
"""Compare dynapage with the DynamoDB emulators that install without Docker.

Starts each server itself on 127.0.0.1, runs bench/ddbbench.py against it
(--start-cmd, so startup is measured and the server's PID is known), repeats
the runs, takes medians, computes each server's ratio to dynapage, checks
correctness, prints a table, writes a JSON file and stops everything it
started, also on Ctrl-C, SIGTERM and failures.

  python3 bench/run.py                      # full run: 5 runs, 100,000 items
  python3 bench/run.py --quick              # 1 run, 20,000 items (development)
  python3 bench/run.py --report bench/results/latest.json   # table of a saved run

Servers:
  dynapage  <repo>/build/dynapage, in memory (build it first, see bench/README.md)
  dynalite  npm package, installed into bench/node_modules (ignored by git)
  moto      moto's server, only when it is installed (moto_server on PATH or
            `import moto` works); otherwise skipped with a note

Python 3 standard library only. Traffic goes to 127.0.0.1 only.
"""

import argparse
import datetime
import json
import os
import platform
import random
import shlex
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
REPO_DIR = os.path.dirname(BENCH_DIR)
DDBBENCH = os.path.join(BENCH_DIR, "ddbbench.py")
HOST = "127.0.0.1"  # the only address this benchmark ever talks to
DYNALITE_VERSION = "4.0.0"
TARGET_RATIO = 20.0

# Every process group this script started (each child gets a session of its
# own, so the servers ddbbench spawns are in the same group as that ddbbench).
_groups = []


# ----------------------------------------------------------------------------
# processes: start in an own session, stop by process-group id
# ----------------------------------------------------------------------------

class Interrupted(Exception):
    def __init__(self, signum):
        Exception.__init__(self, signal.Signals(signum).name)
        self.signum = signum


def _on_signal(signum, frame):
    raise Interrupted(signum)


def _group_members(pgid):
    out = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name, "rb") as f:
                data = f.read().decode("ascii", "replace")
        except OSError:
            continue
        rest = data[data.rfind(")") + 2:].split()
        if int(rest[2]) == pgid and rest[0] != "Z":
            out.append(int(name))
    return out


def start(argv, **kw):
    proc = subprocess.Popen(argv, start_new_session=True, **kw)
    _groups.append(proc)
    return proc


def stop_group(proc, grace_s=10.0):
    """Stop the group this script started for `proc` (its pgid is proc.pid)."""
    pgid = proc.pid
    if proc.poll() is None or _group_members(pgid):
        try:
            os.killpg(pgid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        deadline = time.monotonic() + grace_s
        while time.monotonic() < deadline:
            proc.poll()
            if proc.returncode is not None and not _group_members(pgid):
                break
            time.sleep(0.05)
        else:
            try:
                os.killpg(pgid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass
    if proc in _groups:
        _groups.remove(proc)


def stop_all():
    for proc in list(_groups):
        stop_group(proc)


def run_bounded(argv, timeout_s, **kw):
    """Run a child in its own group; stop the whole group on timeout or interrupt."""
    proc = start(argv, **kw)
    try:
        proc.wait(timeout=timeout_s)
        return proc.returncode, False
    except subprocess.TimeoutExpired:
        return None, True
    finally:
        stop_group(proc)


# ----------------------------------------------------------------------------
# machine and servers
# ----------------------------------------------------------------------------

def rel(path):
    """Path relative to the repository when inside it, absolute otherwise."""
    path = os.path.abspath(path)
    return os.path.relpath(path, REPO_DIR) if path.startswith(REPO_DIR + os.sep) else path


def sh(argv, cwd=None):
    try:
        return subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def machine_info():
    model = ""
    for line in sh(["lscpu"]).splitlines():
        if line.lower().startswith("model name"):
            model = line.split(":", 1)[1].strip()
    mem_kb = 0
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    mem_kb = int(line.split()[1])
    except OSError:
        pass
    return {"nproc": os.cpu_count(), "cpu_model": model, "mem_total_gib": round(mem_kb / 1024.0 / 1024.0, 1),
            "kernel": platform.release(), "python": platform.python_version(),
            "clk_tck": os.sysconf("SC_CLK_TCK")}


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return [float(x) for x in f.read().split()[:3]]
    except OSError:
        return []


def free_port():
    """A port that nothing listens on, outside the usual ephemeral range."""
    rnd = random.Random()
    for _ in range(200):
        port = rnd.randrange(20000, 30000)
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            s.bind((HOST, port))
        except OSError:
            continue
        finally:
            s.close()
        c = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        c.settimeout(0.5)
        try:
            if c.connect_ex((HOST, port)) != 0:
                return port
        finally:
            c.close()
    raise SystemExit("no free port found on %s" % HOST)


class Server:
    def __init__(self, name, version="", argv=None, tree=False, skip=None, label=None,
                 query_repeats=10, max_runs=None):
        self.name = name
        self.query_repeats = query_repeats  # enough Query pages for ~0.2 s or more of server CPU
        self.max_runs = max_runs
        self.version = version
        self.argv = argv  # function port -> argv list
        self.tree = tree
        self.skip = skip
        self.label = label or ("%s %s" % (name, version)).strip()


def find_dynapage(args):
    path = os.path.abspath(args.dynapage)
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        raise SystemExit("dynapage binary not found at %s: build it first\n"
                         "  DYNAPAGE_ROCKSDB=release bash scripts/build.sh dynapage\n"
                         "or pass --dynapage PATH" % path)
    first = (sh([path, "--version"]).splitlines() or [""])[0]
    version = first.split()[1] if first.startswith("dynapage ") and len(first.split()) > 1 else "(unknown version)"
    commit = sh(["git", "rev-parse", "--short", "HEAD"], cwd=REPO_DIR)
    dirty = sh(["git", "status", "--porcelain", "--", "engine", "server", "CMakeLists.txt"], cwd=REPO_DIR)
    build_type = ""
    cache = os.path.join(os.path.dirname(path), "CMakeCache.txt")
    if os.path.exists(cache):
        with open(cache) as f:
            for line in f:
                if line.startswith("CMAKE_BUILD_TYPE:"):
                    build_type = line.split("=", 1)[1].strip()
    s = Server("dynapage", version, lambda port: [path, "--host", HOST, "--port", str(port)], query_repeats=50)
    s.label = "dynapage %s" % version
    import hashlib
    with open(path, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()[:16]
    s.details = {"binary": rel(path), "binary_sha256_16": digest,
                 "git_commit": commit + ("+local changes" if dirty else ""),
                 "cmake_build_type": build_type or "(not set)"}
    return s


def find_dynalite(args):
    node = shutil.which("node")
    if not node:
        return Server("dynalite", skip="node is not on PATH (install Node.js 20+ to include dynalite)")
    pkg = os.path.join(BENCH_DIR, "node_modules", "dynalite", "package.json")
    want = args.dynalite_version

    def installed():
        try:
            with open(pkg) as f:
                return json.load(f).get("version")
        except (OSError, ValueError):
            return None

    if installed() != want and not args.no_install:
        npm = shutil.which("npm")
        if not npm:
            return Server("dynalite", skip="npm is not on PATH")
        print("installing dynalite@%s into bench/node_modules ..." % want, flush=True)
        rc, timed_out = run_bounded([npm, "install", "--prefix", BENCH_DIR, "--no-save", "--no-package-lock",
                                     "--no-audit", "--no-fund", "dynalite@" + want], 600)
        if rc != 0:
            return Server("dynalite", skip="npm install dynalite@%s failed (%s)"
                          % (want, "timed out" if timed_out else "exit %s" % rc))
    if installed() is None:
        return Server("dynalite", skip="dynalite is not installed in bench/node_modules")
    cli = os.path.join(BENCH_DIR, "node_modules", "dynalite", "cli.js")
    s = Server("dynalite", installed(),
               lambda port: [node, cli, "--host", HOST, "--port", str(port),
                             "--createTableMs", "0", "--deleteTableMs", "0", "--updateTableMs", "0"])
    s.details = {"node": sh([node, "--version"]), "storage": "in memory (no --path)"}
    return s


def find_moto(args):
    exe = shutil.which("moto_server")
    importable = subprocess.run([sys.executable, "-c", "import moto"], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL).returncode == 0
    if not exe and not importable:
        return Server("moto", skip="not installed: `moto_server` is not on PATH and `import moto` fails "
                                   "(pip install 'moto[server]' to include it)")
    version = ""
    if importable:
        version = sh([sys.executable, "-c", "import moto; print(moto.__version__)"])
    if exe:
        argv = lambda port: [exe, "-H", HOST, "-p", str(port)]
    else:
        argv = lambda port: [sys.executable, "-m", "moto.server", "-H", HOST, "-p", str(port)]
    # moto re-reads the table for every page (~0.2 s of CPU per Query page at 20,000 items), so one
    # Query pass is plenty of CPU ticks, and it gets --moto-runs runs (one run at 100,000 items is long).
    s = Server("moto", version, argv, tree=True, query_repeats=1, max_runs=args.moto_runs)
    s.details = {"command": "moto_server" if exe else "python3 -m moto.server"}
    return s


# ----------------------------------------------------------------------------
# figures
# ----------------------------------------------------------------------------

def fig(summary, name):
    f = summary.get("figures", {}).get(name)
    return None if f is None else f["value"]


def per_op(summary, total, count):
    a, b = fig(summary, total), fig(summary, count)
    if a is None or not b:
        return None
    return a / b


# (key, label, unit, function summary -> value, scale, target description)
def figure_specs(variant):
    v = variant
    return [
        ("startup_ms", "startup, spawn to first answered ListTables", "ms",
         lambda s: _scale(fig(s, "startup.first_listtables_s_median"), 1e3), "< 10 ms"),
        ("startup_min_ms", "startup, fastest spawn of all runs", "ms",
         lambda s: _scale(fig(s, "startup.first_listtables_s_min"), 1e3), ""),
        ("idle_rss_mib", "idle RSS after startup", "MiB",
         lambda s: fig(s, "startup.idle_rss_mib_median"), "< 10 MiB"),
        ("load_cpu_us_per_item", "load (BatchWriteItem x25): server CPU per item", "us",
         lambda s: fig(s, v + ".load.server_cpu_us_per_item"), ">= 20x less than dynalite"),
        ("load_wall_us_per_item", "load: wall time per item", "us",
         lambda s: _scale(per_op(s, v + ".load.wall_s", v + ".load.items"), 1e6), ""),
        ("scan_cpu_us_per_item", "full Scan (1 MB pages): server CPU per item", "us",
         lambda s: fig(s, v + ".scan.server_cpu_us_per_item"), ">= 20x less than dynalite"),
        ("scan_wall_us_per_item", "full Scan: wall time per item", "us",
         lambda s: _scale(per_op(s, v + ".scan.wall_s", v + ".scan.items"), 1e6), ""),
        ("scan_pages", "full Scan: pages", "",
         lambda s: fig(s, v + ".scan.pages"), ""),
        ("query_cpu_us_per_page", "Query Limit=25: server CPU per page", "us",
         lambda s: fig(s, v + ".query.server_cpu_us_per_page"), ">= 20x less than dynalite"),
        ("query_wall_us_per_page", "Query Limit=25: wall time per page", "us",
         lambda s: _scale(per_op(s, v + ".query.wall_s", v + ".query.pages"), 1e6), ""),
        ("filter_cpu_us_per_item", "Scan with 1% filter: server CPU per scanned item", "us",
         lambda s: fig(s, v + ".filter.server_cpu_us_per_scanned_item"), ">= 20x less than dynalite"),
        ("filter_wall_us_per_item", "Scan with 1% filter: wall time per scanned item", "us",
         lambda s: _scale(per_op(s, v + ".filter.wall_s", v + ".filter.scannedcount_total"), 1e6), ""),
        ("limitfilter_cpu_us_per_page", "Scan Limit=100 + filter: server CPU per page", "us",
         lambda s: fig(s, v + ".limitfilter.server_cpu_us_per_page"), ">= 20x less than dynalite"),
        ("peak_rss_mib", "peak RSS (VmHWM at the end)", "MiB",
         lambda s: fig(s, "server.vmhwm_end_mib"), ""),
        ("server_cpu_total_s", "server CPU, whole run", "s",
         lambda s: fig(s, "server.cpu_total_s"), ""),
    ]


COMMON_FIGURES = ("startup_ms", "startup_min_ms", "idle_rss_mib", "peak_rss_mib", "server_cpu_total_s")


def _scale(x, k):
    return None if x is None else x * k


def sanity(summary, server):
    """Checks of the run itself: the server we spawned is the one that answered."""
    out = {}
    rss = fig(summary, "startup.idle_rss_mib_median")
    if rss is not None:
        out["run.spawned_server_answered_startup"] = {
            "ok": rss > 0, "detail": "idle RSS %.1f MiB of the spawned PID" % rss}
    cpu = fig(summary, "server.cpu_total_s")
    out["run.spawned_server_alive_to_the_end"] = {
        "ok": cpu is not None, "detail": "server CPU total %s s" % cpu}
    return out


def median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def aggregate(results, servers, variants):
    agg = {}
    for s in servers:
        runs = [r for r in results if r["server"] == s.name and r.get("summary")]
        entry = {"label": s.label, "runs_ok": len(runs),
                 "runs_failed": len([r for r in results if r["server"] == s.name and not r.get("summary")]),
                 "figures": {}, "checks": {"passed": 0, "failed": 0, "failures": []}}
        for variant in variants:
            for key, label, unit, fn, target in figure_specs(variant):
                if key in COMMON_FIGURES:
                    k = key
                    if variant != variants[0]:
                        continue
                else:
                    k = "%s.%s" % (variant, key)
                vals = [fn(r["summary"]) for r in runs]
                entry["figures"][k] = {"median": median(vals), "runs": vals, "unit": unit}
                if key == "startup_min_ms":
                    entry["figures"][k]["median"] = min([x for x in vals if x is not None], default=None)
        for r in runs:
            checks = dict(r["summary"].get("checks", {}))
            checks.update(r.get("sanity", {}))
            for name, c in sorted(checks.items()):
                if c["ok"]:
                    entry["checks"]["passed"] += 1
                else:
                    entry["checks"]["failed"] += 1
                    entry["checks"]["failures"].append("run %d: %s (%s)" % (r["run"], name, c.get("detail", "")))
        agg[s.name] = entry
    # ratios to dynapage: other / dynapage, so "20x" means 20 times the CPU, time or memory
    base = agg.get("dynapage")
    for name, entry in agg.items():
        entry["ratio_to_dynapage"] = {}
        if not base or name == "dynapage":
            continue
        for k, f in entry["figures"].items():
            if k.endswith("scan_pages"):
                continue  # a count, not a cost
            b = base["figures"].get(k, {}).get("median")
            if f["median"] is not None and b:
                entry["ratio_to_dynapage"][k] = f["median"] / b
    return agg


def targets(agg, variant):
    dp = agg.get("dynapage", {}).get("figures", {})
    dl = agg.get("dynalite", {})
    out = []

    def get(k):
        return dp.get(k, {}).get("median")

    st = get("startup_ms")
    if st is not None:
        out.append({"target": "startup under 10 ms to the first answered request", "value": "%.1f ms" % st,
                    "met": st < 10})
    rss = get("idle_rss_mib")
    if rss is not None:
        out.append({"target": "idle RSS under 10 MiB", "value": "%.1f MiB" % rss, "met": rss < 10})
    for key, what in (("load_cpu_us_per_item", "load: server CPU per item"),
                      ("scan_cpu_us_per_item", "Scan: server CPU per item"),
                      ("query_cpu_us_per_page", "Query: server CPU per page"),
                      ("filter_cpu_us_per_item", "1%-filter Scan: server CPU per scanned item"),
                      ("limitfilter_cpu_us_per_page", "Limit+filter Scan: server CPU per page")):
        r = dl.get("ratio_to_dynapage", {}).get("%s.%s" % (variant, key)) if dl else None
        if r is not None:
            out.append({"target": "%s at least %dx less than dynalite" % (what, TARGET_RATIO),
                        "value": "%.1fx" % r, "met": r >= TARGET_RATIO})
    return out


# ----------------------------------------------------------------------------
# output
# ----------------------------------------------------------------------------

def fmt(x, unit=""):
    if x is None:
        return "-"
    if unit == "" and float(x).is_integer():
        return "%d" % x
    if abs(x) >= 1000:
        return "{:,.0f}".format(x)
    if abs(x) >= 100:
        return "%.0f" % x
    if abs(x) >= 10:
        return "%.1f" % x
    if abs(x) >= 1:
        return "%.2f" % x
    return "%.3f" % x


def table(result):
    servers = [s for s in result["servers"] if not s.get("skipped")]
    agg = result["aggregate"]
    variants = result["params"]["variants"]
    names = [s["name"] for s in servers]
    others = [n for n in names if n != "dynapage"]
    lines = []
    def title(n):
        k = agg[n]["runs_ok"]
        return "%s (%s)" % (agg[n]["label"], "median of %d runs" % k if k != 1 else "1 run")

    head = ["figure"] + [title(n) for n in names] + ["%s / dynapage" % n for n in others]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "---|" * len(head))
    for variant in variants:
        for key, label, unit, fn, target in figure_specs(variant):
            common = key in COMMON_FIGURES
            if common and variant != variants[0]:
                continue
            k = key if common else "%s.%s" % (variant, key)
            if len(variants) > 1 and not common:
                label = "[%s] %s" % (variant, label)
            row = [label + (" (%s)" % unit if unit else "")]
            for n in names:
                row.append(fmt(agg[n]["figures"].get(k, {}).get("median"), unit))
            for n in others:
                r = agg[n]["ratio_to_dynapage"].get(k)
                row.append("-" if r is None else ("%.1fx" % r if r < 100 else "{:,.0f}x".format(r)))
            lines.append("| " + " | ".join(row) + " |")
    row = ["correctness checks passed (all runs)"]
    for n in names:
        c = agg[n]["checks"]
        row.append("%d/%d" % (c["passed"], c["passed"] + c["failed"]))
    row += [""] * len(others)
    lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def report_text(result):
    out = []
    m = result["machine"]
    out.append("machine: %d cores, %s, %.1f GiB; load average %s at start, %s at the end"
               % (m["nproc"], m["cpu_model"] or "?", m["mem_total_gib"],
                  " ".join("%.2f" % x for x in result.get("loadavg_start", [])),
                  " ".join("%.2f" % x for x in result.get("loadavg_end", []))))
    p = result["params"]
    out.append("data: %s items of ~200 B%s; runs interleaved across servers; server CPU = utime+stime of its PID, ns precision"
               % ("{:,}".format(p["n"]), " and %s of ~4 KB" % "{:,}".format(p["big_n"]) if "big" in p["variants"] else ""))
    out.append("")
    out.append(table(result))
    out.append("")
    for t in result["targets"]:
        out.append("target: %-58s %-10s %s" % (t["target"], t["value"], "met" if t["met"] else "MISSED"))
    for s in result["servers"]:
        if s.get("skipped"):
            out.append("skipped: %s: %s" % (s["name"], s["skipped"]))
    for n, a in result["aggregate"].items():
        for f in a["checks"]["failures"]:
            out.append("CHECK FAILED: %s %s" % (n, f))
        if a["runs_failed"]:
            out.append("RUN FAILED: %s: %d run(s) did not complete (see %s)" % (n, a["runs_failed"], result["scratch_dir"]))
    return "\n".join(out)


# ----------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--servers", default="dynapage,dynalite,moto", help="comma-separated (default: all three)")
    ap.add_argument("--runs", type=int, default=5, help="runs per server; medians are reported (default 5)")
    ap.add_argument("-n", "--n", type=int, default=100000, help="items in the ~200 B variant (default 100000)")
    ap.add_argument("--variants", default="small", help="small (~200 B items) and/or big (~4 KB items)")
    ap.add_argument("--big-n", type=int, default=20000, help="items in the ~4 KB variant")
    ap.add_argument("--phases", default="startup,load,scan,query,filter,pscan,gsi")
    ap.add_argument("--query-repeats", type=int,
                    help="passes over one 1,000-item partition (41 pages) in the Query phase; default per server, "
                         "so that each phase lasts long enough to measure: dynapage 50, dynalite 10, moto 1")
    ap.add_argument("--moto-runs", type=int, default=1,
                    help="runs for moto, at most --runs (default 1: moto is 100-1000x slower)")
    ap.add_argument("--startup-runs", type=int, default=3, help="spawn/ListTables/stop cycles per run")
    ap.add_argument("--quick", action="store_true", help="development run: 1 run of 20,000 items")
    ap.add_argument("--dynapage", default=os.path.join(REPO_DIR, "build", "dynapage"), help="dynapage binary")
    ap.add_argument("--dynalite-version", default=DYNALITE_VERSION)
    ap.add_argument("--no-install", action="store_true", help="do not run npm install")
    ap.add_argument("--run-timeout", type=float, default=1800, help="seconds one ddbbench run may take")
    ap.add_argument("--out", default=os.path.join(BENCH_DIR, "results", "latest.json"))
    ap.add_argument("--scratch", default=os.path.join(BENCH_DIR, "results", "runs"),
                    help="per-run ddbbench output, summaries and server logs (ignored by git)")
    ap.add_argument("--report", metavar="JSON", help="print the table of a saved result and exit")
    args = ap.parse_args()

    if args.report:
        with open(args.report) as f:
            result = json.load(f)
        print(report_text(result))
        print("\ncommand: " + result["command"])
        return 0

    if args.quick:
        args.runs, args.n = 1, 20000
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    wanted = [s.strip() for s in args.servers.split(",") if s.strip()]
    if "dynapage" not in wanted:
        raise SystemExit("--servers must include dynapage (ratios are to dynapage)")
    command = "python3 bench/run.py" + "".join(" " + shlex.quote(a) for a in sys.argv[1:])

    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _on_signal)
    os.makedirs(args.scratch, exist_ok=True)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)

    finders = {"dynapage": find_dynapage, "dynalite": find_dynalite, "moto": find_moto}
    servers, skipped = [], []
    result = {"command": command, "started_utc": datetime.datetime.now(datetime.timezone.utc).isoformat(),
              "machine": machine_info(), "loadavg_start": loadavg(), "scratch_dir": rel(args.scratch),
              "params": {"runs": args.runs, "n": args.n, "big_n": args.big_n, "variants": variants,
                         "phases": args.phases,
                         "startup_runs": args.startup_runs, "startup_poll_ms": 1,
                         "figure": "medians over runs; server CPU = utime+stime of the server PID (all threads), "
                                   "read from its kernel CPU-time clock in ns (/proc/PID/stat, in %d ticks per "
                                   "second, as the fallback)" % os.sysconf("SC_CLK_TCK")},
              "servers": [], "runs": []}
    status = 0
    try:
        for name in wanted:
            if name not in finders:
                raise SystemExit("unknown server %r (choose from %s)" % (name, ", ".join(finders)))
            s = finders[name](args)
            if s.skip:
                print("skipping %s: %s" % (name, s.skip), flush=True)
                skipped.append(s)
                result["servers"].append({"name": name, "skipped": s.skip})
            else:
                servers.append(s)
                result["servers"].append({"name": name, "label": s.label, "version": s.version,
                                          "details": getattr(s, "details", {}),
                                          "runs": min(args.runs, s.max_runs or args.runs),
                                          "query_repeats": args.query_repeats or s.query_repeats})

        for run in range(1, args.runs + 1):
            for s in servers:
                if s.max_runs is not None and run > s.max_runs:
                    continue
                port = free_port()
                endpoint = "http://%s:%d" % (HOST, port)
                base = os.path.join(args.scratch, "%s-run%d" % (s.name, run))
                for suffix in (".json", ".txt", ".server.log"):
                    if os.path.exists(base + suffix):
                        os.remove(base + suffix)
                argv = [sys.executable, DDBBENCH, "--endpoint", endpoint,
                        "--start-cmd", shlex.join(s.argv(port)), "--server-log", base + ".server.log",
                        "--startup-runs", str(args.startup_runs), "--startup-poll-ms", "1",
                        "--startup-timeout", "60",
                        "--phases", args.phases, "--variants", ",".join(variants),
                        "-n", str(args.n), "--big-n", str(args.big_n),
                        "--query-repeats", str(args.query_repeats or s.query_repeats),
                        "--label", s.label, "--out", base + ".json"]
                if s.tree:
                    argv.append("--tree")
                print("run %d/%d: %s on %s ..." % (run, args.runs, s.label, endpoint), flush=True)
                la0 = loadavg()
                t0 = time.monotonic()
                with open(base + ".txt", "w") as log:
                    rc, timed_out = run_bounded(argv, args.run_timeout, stdout=log, stderr=subprocess.STDOUT,
                                                stdin=subprocess.DEVNULL)
                entry = {"server": s.name, "run": run, "port": port, "exit_code": rc, "timed_out": timed_out,
                         "wall_s": round(time.monotonic() - t0, 2), "loadavg_before": la0, "loadavg_after": loadavg(),
                         "log": rel(base + ".txt")}
                summary = None
                if rc == 0 and os.path.exists(base + ".json"):
                    with open(base + ".json") as f:
                        summary = json.load(f)
                    entry["sanity"] = sanity(summary, s)
                    entry["summary"] = summary
                    entry["checks_failed"] = summary.get("checks_failed", []) + \
                        [k for k, c in entry["sanity"].items() if not c["ok"]]
                    nchk = len(summary.get("checks", {})) + len(entry["sanity"])
                    print("  done in %.0f s: %d/%d checks passed" % (entry["wall_s"], nchk - len(entry["checks_failed"]),
                                                                     nchk), flush=True)
                else:
                    status = 1
                    why = "timed out after %.0f s" % args.run_timeout if timed_out else "exit code %s" % rc
                    with open(base + ".txt") as f:
                        tail = f.read().splitlines()[-5:]
                    entry["error"] = why + ": " + " | ".join(tail)
                    print("  FAILED (%s); last lines of %s:\n    %s" % (why, entry["log"], "\n    ".join(tail)),
                          flush=True)
                result["runs"].append(entry)

        result["loadavg_end"] = loadavg()
        result["finished_utc"] = datetime.datetime.now(datetime.timezone.utc).isoformat()
        result["aggregate"] = aggregate(result["runs"], servers, variants)
        result["targets"] = targets(result["aggregate"], variants[0])
        # Another emulator's failed check is a finding about it; dynapage's is a failure of this run.
        if result["aggregate"].get("dynapage", {}).get("checks", {}).get("failed"):
            status = 1
        # The per-run summaries stay in the scratch folder; the committed file keeps the figures.
        for r in result["runs"]:
            if r.get("summary"):
                r["figures"] = {k: v["value"] for k, v in r["summary"].get("figures", {}).items()}
                del r["summary"]
        tmp = args.out + ".tmp"
        with open(tmp, "w") as f:
            json.dump(result, f, indent=1, sort_keys=True)
            f.write("\n")
        os.replace(tmp, args.out)
        print()
        print(report_text(result))
        print("\nresults written to %s (per-run output in %s)" % (rel(args.out), result["scratch_dir"]))
    except (Interrupted, KeyboardInterrupt) as e:
        print("\ninterrupted (%s): stopping everything this benchmark started" % (e or "SIGINT"), flush=True)
        status = 128 + getattr(e, "signum", signal.SIGINT)
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        stop_all()
    return status


if __name__ == "__main__":
    sys.exit(main())
