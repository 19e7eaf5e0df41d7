"use strict";
// What each Jest and Vitest test file here does: with an access key of its own, through an SDK v3 client made
// without an endpoint (the globalSetup's AWS_ENDPOINT_URL_DYNAMODB points it at the server), it creates "Orders",
// writes one item and scans. Two files run at once on two workers with the same table name; each must see only its
// own item. The endpoint and the worker's pid go to $DYNAPAGE_RUNNER_ENDPOINTS, for scripts/package-test.sh to
// check one server, two workers, and a server gone once the runner has exited.
const assert = require("node:assert");
const fs = require("node:fs");
const { DynamoDBClient, CreateTableCommand, PutItemCommand, ScanCommand } = require("@aws-sdk/client-dynamodb");

exports.ordersOfOwnAccessKey = async function ordersOfOwnAccessKey(accessKeyId) {
  const endpoint = process.env.AWS_ENDPOINT_URL_DYNAMODB;
  assert.match(endpoint ?? "", /^http:\/\/127\.0\.0\.1:\d+$/, "the globalSetup sets AWS_ENDPOINT_URL_DYNAMODB");
  const log = process.env.DYNAPAGE_RUNNER_ENDPOINTS;
  if (log) fs.appendFileSync(log, `${endpoint} ${process.pid}\n`);
  const client = new DynamoDBClient({ credentials: { accessKeyId, secretAccessKey: "any" } });
  try {
    await client.send(new CreateTableCommand({ TableName: "Orders", BillingMode: "PAY_PER_REQUEST",
      AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
      KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }] }));
    await client.send(new PutItemCommand({ TableName: "Orders", Item: { pk: { S: accessKeyId } } }));
    // Give the other worker time to write its own item before this one looks.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { Items } = await client.send(new ScanCommand({ TableName: "Orders", ConsistentRead: true }));
    assert.deepStrictEqual(Items, [{ pk: { S: accessKeyId } }]);
  } finally {
    client.destroy();
  }
};
