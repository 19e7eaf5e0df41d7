'use strict';
// dynapage through the AWS SDK for JavaScript v3: @aws-sdk/client-dynamodb's paginateQuery / paginateScan and
// @aws-sdk/lib-dynamodb's document client (its paginators, a QueryCommand loop on LastEvaluatedKey, BatchWriteCommand),
// against a fresh server per configuration (default 1 MB pages, and --max-page-bytes 4096). Every item must come back
// exactly once, in key order for Query, and a bad request must surface as the SDK's typed exception.

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert');

const {
  CreateTableCommand,
  DynamoDBClient,
  DynamoDBServiceException,
  QueryCommand: LowQueryCommand,
  ResourceNotFoundException,
  paginateQuery: lowPaginateQuery,
  paginateScan: lowPaginateScan,
} = require('@aws-sdk/client-dynamodb');
const {
  BatchWriteCommand,
  DynamoDBDocumentClient,
  QueryCommand,
  ScanCommand,
  paginateQuery,
  paginateScan,
} = require('@aws-sdk/lib-dynamodb');

const {
  CONFIGS,
  CREDENTIALS,
  ITEM_COUNT,
  PARTITIONS,
  REGION,
  TABLE,
  TABLE_DEFINITION,
  assertExactlyOnce,
  partitionKeys,
  plainItems,
  startDynapage,
} = require('./dynapage');

const ALL_KEYS = Array.from({ length: ITEM_COUNT }, (_, i) => i);

async function collect(paginator, key = (item) => Number(item.sk.N)) {
  const keys = [];
  let pages = 0;
  for await (const page of paginator) {
    pages += 1;
    for (const item of page.Items) keys.push(key(item));
  }
  return { keys, pages };
}

for (const config of CONFIGS) {
  describe(`JS SDK v3 against dynapage (${config.name})`, () => {
    let server;
    let client;
    let doc;

    before(async () => {
      server = await startDynapage(config.args);
      client = new DynamoDBClient({
        endpoint: server.endpoint, region: REGION, credentials: CREDENTIALS, maxAttempts: 1,
      });
      doc = DynamoDBDocumentClient.from(client);
      await client.send(new CreateTableCommand(TABLE_DEFINITION));
      // Load through the document client's BatchWriteCommand, 25 items a call, a few calls at a time.
      const items = plainItems(config.pad);
      const batches = [];
      for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
      for (let i = 0; i < batches.length; i += 4) {
        await Promise.all(batches.slice(i, i + 4).map(async (batch) => {
          const out = await doc.send(new BatchWriteCommand({
            RequestItems: { [TABLE]: batch.map((Item) => ({ PutRequest: { Item } })) },
          }));
          assert.deepStrictEqual(out.UnprocessedItems ?? {}, {});
        }));
      }
    });

    after(async () => {
      client?.destroy();
      if (server) assert.strictEqual(await server.stop(), 0, 'dynapage exit code');
    });

    it('client paginateScan returns every item exactly once over several pages', async () => {
      const { keys, pages } = await collect(lowPaginateScan({ client }, { TableName: TABLE }));
      assertExactlyOnce(assert, keys, ALL_KEYS, 'paginateScan');
      assert.ok(pages >= config.minScanPages, `only ${pages} Scan pages`);
    });

    it('client paginateScan with pageSize (Limit) and a filter', async () => {
      const { keys, pages } = await collect(lowPaginateScan({ client, pageSize: 250 }, {
        TableName: TABLE,
        FilterExpression: 'grp = :g',
        ExpressionAttributeValues: { ':g': { N: '3' } },
      }));
      assertExactlyOnce(assert, keys, ALL_KEYS.filter((i) => i % 7 === 3), 'filtered paginateScan');
      assert.ok(pages >= 12, `only ${pages} pages for Limit 250 over ${ITEM_COUNT} items`);
    });

    it('client paginateScan over parallel segments', async () => {
      const keys = [];
      for (let segment = 0; segment < 3; segment++) {
        const params = { TableName: TABLE, Segment: segment, TotalSegments: 3 };
        const part = await collect(lowPaginateScan({ client }, params));
        keys.push(...part.keys);
      }
      assertExactlyOnce(assert, keys, ALL_KEYS, 'segmented paginateScan');
    });

    it('client paginateQuery forward and reversed, in key order', async () => {
      for (let p = 0; p < PARTITIONS; p++) {
        const expected = partitionKeys(p);
        for (const forward of [true, false]) {
          const { keys, pages } = await collect(lowPaginateQuery({ client }, {
            TableName: TABLE,
            KeyConditionExpression: 'pk = :p',
            ExpressionAttributeValues: { ':p': { S: `p${p}` } },
            ScanIndexForward: forward,
          }));
          const what = `paginateQuery p${p} forward=${forward}`;
          assert.deepStrictEqual(keys, forward ? expected : [...expected].reverse(), what);
          assert.ok(pages >= config.minQueryPages, `${what}: only ${pages} pages`);
        }
      }
    });

    it('document client paginateScan and paginateQuery return plain items exactly once', async () => {
      const scanned = await collect(paginateScan({ client: doc }, { TableName: TABLE }), (item) => item.sk);
      assertExactlyOnce(assert, scanned.keys, ALL_KEYS, 'document paginateScan');
      assert.ok(scanned.pages >= config.minScanPages);

      const queried = await collect(paginateQuery({ client: doc, pageSize: 100 }, {
        TableName: TABLE,
        KeyConditionExpression: 'pk = :p AND sk BETWEEN :lo AND :hi',
        ExpressionAttributeValues: { ':p': 'p1', ':lo': 100, ':hi': 2500 },
      }), (item) => item.sk);
      assert.deepStrictEqual(queried.keys, partitionKeys(1).filter((k) => k >= 100 && k <= 2500));
      assert.ok(queried.pages >= 8);
    });

    it('document client QueryCommand and ScanCommand loops on LastEvaluatedKey', async () => {
      const keys = [];
      let pages = 0;
      let start;
      do {
        const page = await doc.send(new QueryCommand({
          TableName: TABLE,
          KeyConditionExpression: 'pk = :p',
          ExpressionAttributeValues: { ':p': 'p2' },
          ExclusiveStartKey: start,
        }));
        pages += 1;
        for (const item of page.Items) {
          assert.strictEqual(typeof item.sk, 'number');
          assert.strictEqual(item.pad.length, config.pad);
          keys.push(item.sk);
        }
        start = page.LastEvaluatedKey;
        if (start) assert.deepStrictEqual(Object.keys(start).sort(), ['pk', 'sk'], 'LastEvaluatedKey is the item key');
      } while (start);
      assert.deepStrictEqual(keys, partitionKeys(2));
      assert.ok(pages >= config.minQueryPages, `only ${pages} pages`);

      const scanned = [];
      start = undefined;
      do {
        const page = await doc.send(new ScanCommand({ TableName: TABLE, Limit: 700, ExclusiveStartKey: start }));
        assert.ok(page.Items.length <= 700);
        scanned.push(...page.Items.map((item) => item.sk));
        start = page.LastEvaluatedKey;
      } while (start);
      assertExactlyOnce(assert, scanned, ALL_KEYS, 'document ScanCommand loop');
    });

    it('a bad request is a typed exception', async () => {
      await assert.rejects(
        client.send(new LowQueryCommand({
          TableName: 'no_such_table',
          KeyConditionExpression: 'pk = :p',
          ExpressionAttributeValues: { ':p': { S: 'p0' } },
        })),
        (err) => {
          assert.ok(err instanceof ResourceNotFoundException, `${err.name}: ${err.message}`);
          assert.strictEqual(err.name, 'ResourceNotFoundException');
          assert.strictEqual(err.message, 'Requested resource not found');
          assert.strictEqual(err.$metadata.httpStatusCode, 400);
          assert.strictEqual(err.$fault, 'client');
          return true;
        },
      );
      // A key condition on a non-key attribute.
      await assert.rejects(
        doc.send(new QueryCommand({
          TableName: TABLE,
          KeyConditionExpression: 'grp = :g',
          ExpressionAttributeValues: { ':g': 1 },
        })),
        (err) => {
          assert.ok(err instanceof DynamoDBServiceException, `${err.name}: ${err.message}`);
          assert.strictEqual(err.name, 'ValidationException');
          assert.strictEqual(err.$metadata.httpStatusCode, 400);
          assert.ok(err.message.length > 0);
          return true;
        },
      );
      // An ExclusiveStartKey that is not a key of the table.
      await assert.rejects(
        doc.send(new ScanCommand({ TableName: TABLE, ExclusiveStartKey: { pk: 'p0' } })),
        (err) => {
          assert.ok(err instanceof DynamoDBServiceException, `${err.name}: ${err.message}`);
          assert.strictEqual(err.name, 'ValidationException');
          assert.strictEqual(err.$metadata.httpStatusCode, 400);
          return true;
        },
      );
    });
  });
}
