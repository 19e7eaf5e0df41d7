"use strict";
// The installed npm package (scripts/package-test.sh installs dist/dynapage-V.tgz into a fresh directory and runs
// this with node --test there): startDynapage() with the AWS SDK v3, its errors, the `dynapage` bin, the
// globalSetup. The SDK comes from tests/sdk/js/node_modules (NODE_PATH), the package from the install.
const test = require("node:test");
const assert = require("node:assert");
const net = require("node:net");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { execFileSync } = require("node:child_process");
const { startDynapage, binaryPath, commandLine } = require("dynapage");
const { DynamoDBClient, CreateTableCommand, PutItemCommand, GetItemCommand, ListTablesCommand } =
  require("@aws-sdk/client-dynamodb");

test("startDynapage serves the SDK v3 on a free port, and stop() ends it", async () => {
  const db = await startDynapage({ maxPageBytes: 4096 });
  assert.strictEqual(db.endpoint, `http://127.0.0.1:${db.port}`);
  const client = new DynamoDBClient(db.clientConfig);
  await client.send(new CreateTableCommand({ TableName: "things", BillingMode: "PAY_PER_REQUEST",
    AttributeDefinitions: [{ AttributeName: "k", AttributeType: "S" }], KeySchema: [{ AttributeName: "k", KeyType: "HASH" }] }));
  await client.send(new PutItemCommand({ TableName: "things", Item: { k: { S: "x" } } }));
  const got = await client.send(new GetItemCommand({ TableName: "things", Key: { k: { S: "x" } } }));
  assert.deepStrictEqual(got.Item, { k: { S: "x" } });
  client.destroy();
  await db.stop();
  assert.throws(() => process.kill(db.pid, 0), { code: "ESRCH" });
});

test("the packaged binary is the one run, and it is executable", () => {
  assert.ok(binaryPath().includes(path.join("node_modules", "dynapage", "native")), binaryPath());
  fs.accessSync(binaryPath(), fs.constants.X_OK);
});

test("a missing binary is named", async () => {
  await assert.rejects(startDynapage({ binary: "/nonexistent/dynapage" }),
                       /no binary at \/nonexistent\/dynapage .*DYNAPAGE_BIN/);
});

test("a taken port is named", async () => {
  const taken = net.createServer();
  await new Promise((resolve) => taken.listen(0, "127.0.0.1", resolve));
  const port = taken.address().port;
  try {
    await assert.rejects(startDynapage({ port }),
                         new RegExp(`exited with code 1 before it was ready \\(the port is taken.*cannot listen on .*:${port}`));
  } finally {
    taken.close();
  }
});

test("a server that exits early shows what it said", async () => {
  await assert.rejects(startDynapage({ noSuchFlag: true }),
                       /exited with code 2 before it was ready; it said: .*unknown option '--no-such-flag'/);
});

test("a server that never gets ready times out", async () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "dynapage-"));
  const silent = path.join(folder, "silent");
  fs.writeFileSync(silent, "#!/bin/sh\nexec sleep 30\n", { mode: 0o755 });
  try {
    await assert.rejects(startDynapage({ binary: silent, timeoutMs: 500 }), /not ready within 500 ms/);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
});

test("options become the command line", () => {
  assert.deepStrictEqual(commandLine({ port: 0, dbPath: "/d", metrics: true, cors: null, x: false, args: ["-sharedDb"] }),
                         ["--port", "0", "--db-path", "/d", "--metrics", "-sharedDb"]);
});

test("npx dynapage runs the binary", () => {
  const out = execFileSync("npx", ["--no-install", "dynapage", "--version"], { encoding: "utf8" });
  assert.match(out, /^dynapage \d+\.\d+\.\d+/);
});

test("the globalSetup points the SDK at a server and its teardown stops it", async () => {
  const saved = { ...process.env };
  delete process.env.AWS_ENDPOINT_URL_DYNAMODB;
  try {
    const teardown = await require("dynapage/global-setup")();
    assert.match(process.env.AWS_ENDPOINT_URL_DYNAMODB, /^http:\/\/127\.0\.0\.1:\d+$/);
    const client = new DynamoDBClient({ endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB });
    assert.deepStrictEqual((await client.send(new ListTablesCommand({}))).TableNames, []);
    client.destroy();
    const pid = globalThis.__DYNAPAGE__.pid;
    await teardown();
    assert.throws(() => process.kill(pid, 0), { code: "ESRCH" });
  } finally {
    process.env = saved;
  }
});
