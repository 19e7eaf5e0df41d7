'use strict';
// Page chaos and the pagination audit through the AWS SDK for JavaScript v3 (docs/testing-pagination.md): the
// document client's paginator and a LastEvaluatedKey loop return every item exactly once for every seed tried; a loop
// that stops at the first empty page loses items and the audit names it; BatchWriteCommand loops that resend
// UnprocessedItems apply everything; the SDK's retries absorb throttles a fault rule injects.

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert');

const { CreateTableCommand, DynamoDBClient } = require('@aws-sdk/client-dynamodb');
const {
  BatchWriteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, paginateQuery, ScanCommand,
} = require('@aws-sdk/lib-dynamodb');

const { CREDENTIALS, REGION, adminHeaders, assertExactlyOnce, startDynapage } = require('./dynapage');

const TABLE = 'chaos';
const PER_PARTITION = 60;
const SEEDS = Array.from({ length: 25 }, (_, i) => i + 1);
const EXPECTED = Array.from({ length: PER_PARTITION }, (_, i) => String(i).padStart(4, '0'));

async function admin(server, method, path, body) {
  const response = await fetch(server.endpoint + path, {
    method, headers: adminHeaders(), body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  assert.strictEqual(response.status, 200, text);
  return JSON.parse(text);
}

function clients(server, maxAttempts = 3) {
  const low = new DynamoDBClient({ endpoint: server.endpoint, region: REGION, credentials: CREDENTIALS, maxAttempts });
  return { low, doc: DynamoDBDocumentClient.from(low) };
}

async function createTable(low) {
  await low.send(new CreateTableCommand({
    TableName: TABLE,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'sk', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
  }));
}

// Writes items with BatchWriteCommand, resending UnprocessedItems until none are left.
async function batchWrite(doc, items) {
  for (let i = 0; i < items.length; i += 25) {
    let request = { [TABLE]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) };
    while (request && Object.keys(request).length > 0) {
      request = (await doc.send(new BatchWriteCommand({ RequestItems: request }))).UnprocessedItems;
    }
  }
}

async function queryLoop(doc, pk, stopAtEmptyPage) {
  const keys = [];
  let ExclusiveStartKey;
  do {
    const page = await doc.send(new QueryCommand({
      TableName: TABLE, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': pk }, ExclusiveStartKey,
    }));
    if (stopAtEmptyPage && page.Items.length === 0) break; // the bug
    keys.push(...page.Items.map((item) => item.sk));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return keys;
}

describe('page chaos through the JavaScript SDK v3', () => {
  let server;
  let low;
  let doc;

  before(async () => {
    server = await startDynapage(['--audit-pagination']);
    ({ low, doc } = clients(server));
    await createTable(low);
    const items = [];
    for (const pk of ['a', 'b']) for (const sk of EXPECTED) items.push({ pk, sk });
    await batchWrite(doc, items);
  });
  after(async () => { if (server) await server.stop(); });

  it('returns every item exactly once through paginators and loops, for every seed', async () => {
    let pages = 0;
    for (const seed of SEEDS) {
      await admin(server, 'POST', '/_dynapage/chaos', { seed });
      const seen = [];
      for await (const page of paginateQuery({ client: doc }, {
        TableName: TABLE, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'a' },
      })) {
        pages++;
        seen.push(...page.Items.map((item) => item.sk));
      }
      assert.deepStrictEqual(seen, EXPECTED, `paginator, seed ${seed}`);
      assert.deepStrictEqual(await queryLoop(doc, 'b', false), EXPECTED, `loop, seed ${seed}`);
    }
    assert.ok(pages > 2 * SEEDS.length, `chaos cut pages: ${pages}`);
    const report = await admin(server, 'GET', '/_dynapage/pagination');
    assert.deepStrictEqual(report.abandoned, []);
  });

  it('catches a loop that stops at the first empty page, and the audit names it', async () => {
    let lost = 0;
    for (const seed of SEEDS) {
      await admin(server, 'POST', '/_dynapage/chaos', { seed });
      const keys = await queryLoop(doc, 'a', true);
      if (keys.length < EXPECTED.length) lost++;
    }
    assert.ok(lost > 0, 'no seed caught the bug');
    const { abandoned } = await admin(server, 'GET', '/_dynapage/pagination');
    assert.ok(abandoned.reduce((n, a) => n + a.times, 0) >= lost);
    for (const a of abandoned) {
      assert.deepStrictEqual([a.operation, a.table, a.key_condition], ['Query', TABLE, 'pk = :p']);
    }
  });
});

describe('batches and faults through the JavaScript SDK v3', () => {
  let server;
  let low;
  let doc;

  before(async () => {
    server = await startDynapage(['--audit-pagination', '--page-chaos', '5']);
    ({ low, doc } = clients(server, 6));
    await createTable(low);
  });
  after(async () => { if (server) await server.stop(); });

  it('applies every write of a loop that resends UnprocessedItems', async () => {
    const items = Array.from({ length: 200 }, (_, i) => ({ pk: 'w', sk: String(i).padStart(4, '0') }));
    await batchWrite(doc, items);
    await admin(server, 'DELETE', '/_dynapage/chaos');
    const seen = [];
    let ExclusiveStartKey;
    do {
      const page = await doc.send(new ScanCommand({ TableName: TABLE, ExclusiveStartKey }));
      seen.push(...page.Items.map((item) => item.sk));
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    assertExactlyOnce(assert, seen, items.map((item) => item.sk), 'batch writes');
    assert.deepStrictEqual((await admin(server, 'GET', '/_dynapage/pagination')).abandoned, []);
  });

  it('absorbs three injected throttles with the SDK retries', async () => {
    await doc.send(new PutCommand({ TableName: TABLE, Item: { pk: 't', sk: '1' } }));
    await admin(server, 'POST', '/_dynapage/faults',
      { operation: 'GetItem', table: TABLE, error: 'ProvisionedThroughputExceededException', times: 3 });
    const { Item } = await doc.send(new GetCommand({ TableName: TABLE, Key: { pk: 't', sk: '1' } }));
    assert.deepStrictEqual(Item, { pk: 't', sk: '1' });
    const { rules } = await admin(server, 'GET', '/_dynapage/faults');
    assert.deepStrictEqual([rules[0].matched, rules[0].fired], [4, 3]);
  });
});
