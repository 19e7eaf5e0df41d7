#!/usr/bin/env python3
"""The console (docs/console.md) in a real browser: headless Chromium, driven over the DevTools protocol.

Starts the built dynapage on a free port of 127.0.0.1 with data in it, and Chromium with a remote-debugging port;
then loads each view, creates a table and an item through the page, runs a paginated Query and checks the page
chain the timeline draws against the requests made (pages, items, keys), switches page chaos on and sees it in the
timeline, sees an abandoned continuation highlighted, and has a fault rule refused as the admin API refuses it.
Screenshots go to the artefacts folder (build/artifacts/console/ under ctest).

  python3 tests/console/console_browser_test.py --binary build/dynapage --artifacts build/artifacts/console

Needs Debian's chromium and python3-websocket (scripts/deps.sh, DYNAPAGE_TEST_PACKAGES). Without Chromium it says
SKIPPED and exits 0, except under CI=true, where that is a failure. Ends with "N passed, N failed".
"""

import argparse
import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.request

ACCESS_KEY = "AKIDCONSOLE"
REGION = "us-east-1"
AUTHORIZATION = (f"AWS4-HMAC-SHA256 Credential={ACCESS_KEY}/20260101/{REGION}/dynamodb/aws4_request, "
                 "SignedHeaders=content-type;host, Signature=0")
WAIT_SECONDS = 20


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(what, check, seconds=WAIT_SECONDS):
    deadline = time.monotonic() + seconds
    last = None
    while time.monotonic() < deadline:
        try:
            last = check()
            if last:
                return last
        except Exception as e:  # noqa: BLE001 — not ready yet
            last = e
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what} (last: {last!r})")


class Dynapage:
    """The server under test, and a client that signs as the console's namespace."""

    def __init__(self, binary):
        self.port = free_port()
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--host", "127.0.0.1", "--audit-pagination", "--metrics",
             "--max-page-bytes", "600"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_until("dynapage to be ready", lambda: self.get("/_dynapage/ready")["ready"])

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()

    def get(self, path):
        request = urllib.request.Request(self.endpoint + path, headers={"Authorization": AUTHORIZATION})
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.loads(answer.read())

    def call(self, operation, body):
        request = urllib.request.Request(
            self.endpoint + "/", data=json.dumps(body).encode(), method="POST",
            headers={"Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "DynamoDB_20120810." + operation,
                     "X-Amz-Date": "20260101T000000Z", "Authorization": AUTHORIZATION})
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.loads(answer.read())

    def seed(self):
        self.call("CreateTable", {
            "TableName": "orders", "BillingMode": "PAY_PER_REQUEST",
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                     {"AttributeName": "sk", "AttributeType": "S"},
                                     {"AttributeName": "state", "AttributeType": "S"}],
            "GlobalSecondaryIndexes": [{
                "IndexName": "by_state", "Projection": {"ProjectionType": "ALL"},
                "KeySchema": [{"AttributeName": "state", "KeyType": "HASH"},
                              {"AttributeName": "sk", "KeyType": "RANGE"}]}],
            "StreamSpecification": {"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"}})
        self.call("UpdateTimeToLive", {"TableName": "orders",
                                       "TimeToLiveSpecification": {"Enabled": True, "AttributeName": "expires"}})
        for customer in range(3):
            for n in range(10):
                self.call("PutItem", {"TableName": "orders", "Item": {
                    "pk": {"S": f"c{customer}"}, "sk": {"S": f"{n:04d}"},
                    "state": {"S": "open" if n % 2 else "paid"}, "note": {"S": "x" * 40}}})


class Browser:
    """Headless Chromium and one page, over the DevTools protocol's websocket."""

    def __init__(self, chromium):
        import websocket  # python3-websocket

        self.profile = tempfile.mkdtemp(prefix="dynapage-console-chromium-")
        port = free_port()
        self.process = subprocess.Popen(
            [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-extensions", "--disable-background-networking", "--disable-sync",
             f"--remote-debugging-port={port}", "--remote-debugging-address=127.0.0.1",
             f"--user-data-dir={self.profile}", "--window-size=1280,900", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        def page_target():
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=2) as answer:
                targets = [t for t in json.loads(answer.read()) if t["type"] == "page"]
            return targets[0]["webSocketDebuggerUrl"] if targets else None

        url = wait_until("Chromium's DevTools endpoint", page_target)
        self.socket = websocket.create_connection(url, timeout=30, suppress_origin=True)
        self.next_id = 0
        self.console_errors = []
        self.send("Runtime.enable")
        self.send("Page.enable")
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False})

    def send(self, method, params=None):
        self.next_id += 1
        message_id = self.next_id
        self.socket.send(json.dumps({"id": message_id, "method": method, "params": params or {}}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("method") == "Runtime.exceptionThrown":
                self.console_errors.append(message["params"]["exceptionDetails"].get("text", "exception"))
            if message.get("method") == "Runtime.consoleAPICalled" and message["params"]["type"] == "error":
                self.console_errors.append(json.dumps(message["params"]["args"])[:300])
            if message.get("id") == message_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})

    def eval(self, expression):
        result = self.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                                "returnByValue": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression[:80]}…: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait(self, what, expression, seconds=WAIT_SECONDS):
        return wait_until(what, lambda: self.eval(expression), seconds)

    def open(self, url):
        self.send("Page.navigate", {"url": url})
        self.wait("the console to load", "document.readyState === 'complete' && document.body.dataset.loading === 'false'")

    def show(self, view):
        self.eval(f"location.hash = '#{view}'")
        self.wait(f"the {view} view",
                  f"document.body.dataset.view === '{view}' && document.body.dataset.loading === 'false'")

    def screenshot(self, path):
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        try:
            self.socket.close()
        finally:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
            shutil.rmtree(self.profile, ignore_errors=True)


def js(text):
    return json.dumps(text)


# ---- the checks, in order: each builds on the state the one before left ---------------------------------------

def check_namespaces(server, browser, artifacts):
    browser.open(f"{server.endpoint}/_dynapage/console/?access_key={ACCESS_KEY}&region={REGION}#namespaces")
    row = browser.wait("the namespace row", f"""(() => {{
      const row = [...document.querySelectorAll('#namespace-list tbody tr')]
        .find((r) => r.textContent.includes({js(ACCESS_KEY)}));
      return row && row.textContent; }})()""")
    assert REGION in row, row
    looking = browser.eval("document.querySelector('#looking-at').textContent")
    assert ACCESS_KEY in looking and REGION in looking, looking
    browser.screenshot(os.path.join(artifacts, "namespaces.png"))


def check_tables_and_create(server, browser, artifacts):
    browser.show("tables")
    row = browser.wait("the orders row", "(() => { const r = document.querySelector('tr[data-table=\"orders\"]');"
                                         " return r && [...r.cells].map((c) => c.textContent); })()")
    assert "pk (S, partition), sk (S, sort)" in row[1], row
    assert "by_state (global)" in row[2], row
    assert row[3] == "expires" and row[4] == "NEW_IMAGE" and row[5] == "30", row
    browser.eval("""(() => { const f = document.querySelector('#create-table-form');
      document.querySelector('#create-table').open = true;
      f.elements.name.value = 'made_in_console'; f.elements.hash.value = 'id';
      f.requestSubmit(); })()""")
    browser.wait("the created table's row", "Boolean(document.querySelector('tr[data-table=\"made_in_console\"]'))")
    described = server.call("DescribeTable", {"TableName": "made_in_console"})["Table"]
    assert described["KeySchema"] == [{"AttributeName": "id", "KeyType": "HASH"}], described
    browser.screenshot(os.path.join(artifacts, "tables.png"))


def check_item_put(server, browser, artifacts):
    browser.show("items")
    browser.eval("""(async () => { const s = document.querySelector('#read-table');
      s.value = 'made_in_console'; s.dispatchEvent(new Event('change')); })()""")
    browser.wait("the table chosen", "document.querySelector('#items-table').textContent === 'made_in_console'")
    browser.eval("""(() => { document.querySelector('#item-editor').open = true;
      document.querySelector('#item-json').value = '{"id": {"S": "first"}, "n": {"N": "7"}}';
      document.querySelector('#item-form').requestSubmit(); })()""")
    browser.wait("the put to be reported", "document.querySelector('#status').textContent.startsWith('Put an item')")
    item = server.call("GetItem", {"TableName": "made_in_console", "Key": {"id": {"S": "first"}}})["Item"]
    assert item == {"id": {"S": "first"}, "n": {"N": "7"}}, item


def check_paginated_query(server, browser, artifacts):
    """Query c1 with Limit 4 through the page, all pages; returns the request ids of its pages."""
    browser.eval("""(() => { const s = document.querySelector('#read-table');
      s.value = 'orders'; s.dispatchEvent(new Event('change')); })()""")
    browser.wait("orders chosen", "document.querySelector('#items-table').textContent === 'orders'"
                                  " && document.querySelector('#hash-label').textContent === 'pk'")
    browser.eval("""(() => { const f = document.querySelector('#read-form').elements;
      f.kind.value = 'Query'; f['hash-value'].value = 'c1'; f.limit.value = '4';
      document.querySelector('#read-form').requestSubmit(); })()""")
    browser.wait("the first page", "document.querySelectorAll('#pages > li').length === 1")
    browser.eval("document.querySelector('#read-all').click()")
    browser.wait("every page", "document.querySelector('#read-all').disabled"
                               " && document.querySelector('#status').textContent.endsWith('the end.')")
    pages = browser.eval("""[...document.querySelectorAll('#pages > li')].map((p) =>
      ({count: Number(p.dataset.count), end: p.dataset.end, id: p.dataset.requestId}))""")
    assert sum(p["count"] for p in pages) == 10, pages
    assert len(pages) >= 3, pages  # Limit 4 of 10 items: at least 4 + 4 + 2
    assert all(p["end"] in ("limit", "max-page-bytes", "end") for p in pages), pages
    assert pages[-1]["end"] == "end", pages
    # The same reads straight from the server give the same pages (the console cuts nothing itself).
    expected, start = [], None
    while True:
        body = {"TableName": "orders", "KeyConditionExpression": "pk = :p", "Limit": 4,
                "ExpressionAttributeValues": {":p": {"S": "c1"}}}
        if start:
            body["ExclusiveStartKey"] = start
        page = server.call("Query", body)
        expected.append(page["Count"])
        start = page.get("LastEvaluatedKey")
        if not start:
            break
    assert [p["count"] for p in pages] == expected, (pages, expected)
    browser.screenshot(os.path.join(artifacts, "items.png"))
    return [p["id"] for p in pages]


def check_chain(server, browser, artifacts, page_ids):
    browser.show("timeline")
    chain = browser.wait("the Query's chain", f"""(() => {{
      const ids = {js(page_ids)};
      const chain = [...document.querySelectorAll('#chains > li.chain')].find((c) =>
        [...c.querySelectorAll('.chain-page[data-request-id]')].some((p) => p.dataset.requestId === ids[0]));
      return chain && {{pages: Number(chain.dataset.pages), items: Number(chain.dataset.items),
        ids: [...chain.querySelectorAll('.chain-page[data-request-id]')].map((p) => p.dataset.requestId),
        next: [...chain.querySelectorAll('.chain-page[data-request-id]')].map((p) =>
          (p.querySelector('.key') || {{}}).title || '')}}; }})()""")
    assert chain["ids"] == page_ids, (chain, page_ids)
    assert chain["pages"] == len(page_ids) and chain["items"] == 10, chain
    # Each link is the LastEvaluatedKey the log holds for that page, and the next page's ExclusiveStartKey.
    log = {r["request_id"]: r for r in server.get("/_dynapage/console/requests?limit=1000")["requests"]}
    for i, request_id in enumerate(page_ids):
        line = log[request_id]
        assert chain["next"][i] == (line["next_key"] or ""), (i, chain["next"], line)
        if i:
            assert json.loads(line["start_key"]) == json.loads(log[page_ids[i - 1]]["next_key"]), line
    assert not log[page_ids[-1]]["next_key"]


def check_chaos_in_timeline(server, browser, artifacts):
    browser.show("bench")
    browser.eval("""(() => { const f = document.querySelector('#chaos-form');
      f.elements.seed.value = '1'; f.elements.table.value = ''; f.requestSubmit(); })()""")
    browser.wait("chaos on", "document.querySelector('#chaos-state').textContent.includes('seed 1')")
    assert server.get("/_dynapage/chaos")["seed"] == 1
    # A client scans every page under chaos; another reads one page of a Query and stops (abandons it).
    start, scanned = None, 0
    while True:
        body = {"TableName": "orders", "Limit": 20}
        if start:
            body["ExclusiveStartKey"] = start
        page = server.call("Scan", body)
        scanned += page["Count"]
        start = page.get("LastEvaluatedKey")
        if not start:
            break
    assert scanned == 30, scanned
    first = server.call("Query", {"TableName": "orders", "KeyConditionExpression": "pk = :p", "Limit": 3,
                                  "ExpressionAttributeValues": {":p": {"S": "c2"}}})
    assert "LastEvaluatedKey" in first
    browser.eval("document.querySelector('#chaos-off').click()")
    browser.wait("chaos off", "document.querySelector('#chaos-state').textContent === 'Off.'")
    browser.show("timeline")
    touched = browser.wait("a page chaos cut in the timeline", """[...document.querySelectorAll(
      '#chains .chain[data-operation="Scan"] .chain-page.touched')].map((p) => p.textContent)""")
    assert any("page chaos" in t for t in touched), touched
    scan_items = browser.eval("""Math.max(...[...document.querySelectorAll('#chains .chain[data-operation="Scan"]')]
      .map((c) => Number(c.dataset.items)))""")
    assert scan_items == 30, scan_items
    abandoned = browser.wait("the abandoned Query highlighted", """(() => {
      const c = document.querySelector('#chains .chain.abandoned');
      return c && c.textContent; })()""")
    assert "abandoned" in abandoned and "Query" in abandoned, abandoned
    browser.screenshot(os.path.join(artifacts, "timeline.png"))


def check_fault_rules(server, browser, artifacts):
    browser.show("bench")
    browser.eval("""(() => { document.querySelector('#fault-json').value = '{"operation": "Qurey", "error": "ThrottlingException"}';
      document.querySelector('#fault-form').requestSubmit(); })()""")
    message = browser.wait("the refusal", "document.querySelector('#status.error') &&"
                                          " document.querySelector('#status').textContent")
    assert "BadRequest" in message and "Qurey" in message, message
    browser.eval("""(() => { document.querySelector('#fault-json').value = '{"operation": "GetItem", "error": "ThrottlingException", "times": 1}';
      document.querySelector('#fault-form').requestSubmit(); })()""")
    browser.wait("the rule listed", "document.querySelector('#fault-list').textContent.includes('GetItem')")
    rules = server.get("/_dynapage/faults")["rules"]
    assert any(r.get("operation") == "GetItem" for r in rules), rules
    browser.wait("the metrics", "document.querySelector('#metrics tbody').textContent.includes('dynapage_tables')")
    browser.screenshot(os.path.join(artifacts, "bench.png"))
    browser.eval("document.querySelector('#faults-clear').click()")
    browser.wait("the rules removed", "document.querySelector('#fault-list').textContent === 'No rules.'")


CHECKS = [check_namespaces, check_tables_and_create, check_item_put, check_paginated_query, check_chain,
          check_chaos_in_timeline, check_fault_rules]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--artifacts", required=True)
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    try:
        import websocket  # noqa: F401
    except ImportError:
        chromium = None
    if not chromium:
        print("console_browser_test: SKIPPED: chromium or python3-websocket missing "
              "(apt-get install -y chromium python3-websocket)")
        return 1 if os.environ.get("CI") == "true" else 0
    shutil.rmtree(args.artifacts, ignore_errors=True)  # this run's screenshots only
    os.makedirs(args.artifacts, exist_ok=True)
    server = Dynapage(args.binary)
    browser = None
    passed = failed = 0
    try:
        server.seed()
        browser = Browser(chromium)
        page_ids = None
        for check in CHECKS:
            try:
                if check is check_chain:
                    check(server, browser, args.artifacts, page_ids)
                elif check is check_paginated_query:
                    page_ids = check(server, browser, args.artifacts)
                else:
                    check(server, browser, args.artifacts)
                print(f"PASS {check.__name__}")
                passed += 1
            except Exception:  # noqa: BLE001 — report it and go on: later checks say more
                print(f"FAIL {check.__name__}")
                traceback.print_exc()
                failed += 1
                try:
                    browser.screenshot(os.path.join(args.artifacts, f"failed-{check.__name__}.png"))
                except Exception:  # noqa: BLE001
                    pass
        if browser.console_errors:
            print("FAIL the page's console errors:", browser.console_errors)
            failed += 1
        else:
            passed += 1
    finally:
        if browser:
            browser.close()
        server.stop()
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
