"use strict";
// The README's node:test example, as a user writes it (runs with the installed package too).
const { before, after, test } = require("node:test");
const assert = require("node:assert");
const { startDynapage } = require("dynapage");
const { DynamoDBClient, ListTablesCommand } = require("@aws-sdk/client-dynamodb");

let db;
let client;
before(async () => {
  db = await startDynapage();
  client = new DynamoDBClient(db.clientConfig);
});
after(async () => {
  client.destroy();
  await db.stop();
});

test("a fresh server has no tables", async () => {
  assert.deepStrictEqual((await client.send(new ListTablesCommand({}))).TableNames, []);
});
