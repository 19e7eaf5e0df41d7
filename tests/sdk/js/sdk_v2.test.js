'use strict';
// dynapage through the AWS SDK for JavaScript v2 (aws-sdk): low-level scan/query loops on LastEvaluatedKey,
// Request.eachPage, and the DocumentClient (batchWrite, query and scan loops), against a fresh server per
// configuration (default 1 MB pages, and --max-page-bytes 4096).
//
// v2 checks x-amz-crc32 on every DynamoDB response, but skips the check when the header is absent. So besides the
// SDK's own check, every response these tests receive is recorded and its x-amz-crc32 is required to be present and
// equal to a CRC32 computed here over the body bytes; and a proxy that corrupts the header proves that the pinned SDK
// really rejects a wrong CRC.

process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE = '1';

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert');
const http = require('node:http');

const DynamoDB = require('aws-sdk/clients/dynamodb');

const {
  CONFIGS,
  CREDENTIALS,
  ITEM_COUNT,
  PARTITIONS,
  REGION,
  TABLE,
  TABLE_DEFINITION,
  assertExactlyOnce,
  crc32,
  partitionKeys,
  plainItems,
  startDynapage,
} = require('./dynapage');

const ALL_KEYS = Array.from({ length: ITEM_COUNT }, (_, i) => i);

// A low-level client whose every response (status, headers, body bytes) is appended to `responses`.
function makeClient(endpoint, responses, options = {}) {
  const client = new DynamoDB({
    endpoint,
    region: REGION,
    accessKeyId: CREDENTIALS.accessKeyId,
    secretAccessKey: CREDENTIALS.secretAccessKey,
    maxRetries: 0,
    ...options,
  });
  return record(client, responses);
}

// Appends every response of `service`'s requests (status, headers, body bytes) to `responses`; returns `service`.
function record(service, responses) {
  service.customizeRequests((request) => {
    request.on('complete', (response) => {
      const { statusCode, headers, body } = response.httpResponse;
      responses.push({ operation: request.operation, statusCode, headers, body: Buffer.from(body) });
    });
  });
  return service;
}

// Asserts that every recorded response carries an x-amz-crc32 equal to the CRC32 of its body.
function assertCrcs(responses, atLeast) {
  assert.ok(responses.length >= atLeast, `only ${responses.length} responses recorded`);
  for (const { operation, statusCode, headers, body } of responses) {
    const header = headers['x-amz-crc32'];
    assert.ok(header !== undefined, `${operation} (${statusCode}) response has no x-amz-crc32`);
    assert.strictEqual(Number(header), crc32(body),
      `${operation} (${statusCode}): x-amz-crc32 ${header} is not the CRC32 of the body`);
  }
}

for (const config of CONFIGS) {
  describe(`JS SDK v2 against dynapage (${config.name})`, () => {
    let server;
    let client;
    let doc;
    let responses;

    before(async () => {
      server = await startDynapage(config.args);
      responses = [];
      client = makeClient(server.endpoint, responses);
      assert.strictEqual(client.config.dynamoDbCrc32, true, 'the SDK checks x-amz-crc32');
      doc = new DynamoDB.DocumentClient({ service: client });
      record(doc.service, responses); // the DocumentClient makes its own copy of the service object
      assert.strictEqual(doc.service.config.dynamoDbCrc32, true);
      await client.createTable(TABLE_DEFINITION).promise();
      const items = plainItems(config.pad);
      const batches = [];
      for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
      for (let i = 0; i < batches.length; i += 4) {
        await Promise.all(batches.slice(i, i + 4).map(async (batch) => {
          const out = await doc.batchWrite({
            RequestItems: { [TABLE]: batch.map((Item) => ({ PutRequest: { Item } })) },
          }).promise();
          assert.deepStrictEqual(out.UnprocessedItems, {});
        }));
      }
    });

    after(async () => {
      if (server) assert.strictEqual(await server.stop(), 0, 'dynapage exit code');
    });

    it('low-level scan loop on LastEvaluatedKey returns every item exactly once', async () => {
      responses.length = 0;
      const keys = [];
      let pages = 0;
      let start;
      do {
        const page = await client.scan({ TableName: TABLE, ExclusiveStartKey: start }).promise();
        pages += 1;
        assert.strictEqual(page.Count, page.Items.length);
        for (const item of page.Items) {
          assert.strictEqual(item.pad.S.length, config.pad);
          keys.push(Number(item.sk.N));
        }
        start = page.LastEvaluatedKey;
      } while (start);
      assertExactlyOnce(assert, keys, ALL_KEYS, 'scan loop');
      assert.ok(pages >= config.minScanPages, `only ${pages} Scan pages`);
      assertCrcs(responses, pages);
    });

    it('Request.eachPage over query, forward and reversed, in key order', async () => {
      responses.length = 0;
      for (let p = 0; p < PARTITIONS; p++) {
        for (const forward of [true, false]) {
          const keys = [];
          let pages = 0;
          await new Promise((resolve, reject) => {
            client.query({
              TableName: TABLE,
              KeyConditionExpression: 'pk = :p',
              ExpressionAttributeValues: { ':p': { S: `p${p}` } },
              ScanIndexForward: forward,
            }).eachPage((err, data) => {
              if (err) { reject(err); return false; }
              if (data === null) { resolve(); return false; }
              pages += 1;
              keys.push(...data.Items.map((item) => Number(item.sk.N)));
              return true;
            });
          });
          const expected = partitionKeys(p);
          const what = `eachPage query p${p} forward=${forward}`;
          assert.deepStrictEqual(keys, forward ? expected : [...expected].reverse(), what);
          assert.ok(pages >= config.minQueryPages, `${what}: only ${pages} pages`);
        }
      }
      assertCrcs(responses, PARTITIONS * 2 * config.minQueryPages);
    });

    it('DocumentClient query and scan loops return plain items exactly once', async () => {
      responses.length = 0;
      const queried = [];
      let start;
      do {
        const page = await doc.query({
          TableName: TABLE,
          KeyConditionExpression: 'pk = :p AND sk >= :lo',
          ExpressionAttributeValues: { ':p': 'p0', ':lo': 30 },
          Limit: 90,
          ExclusiveStartKey: start,
        }).promise();
        assert.ok(page.Items.length <= 90);
        queried.push(...page.Items.map((item) => item.sk));
        start = page.LastEvaluatedKey;
      } while (start);
      assert.deepStrictEqual(queried, partitionKeys(0).filter((k) => k >= 30));

      const scanned = [];
      let pages = 0;
      start = undefined;
      do {
        const page = await doc.scan({
          TableName: TABLE,
          FilterExpression: 'grp <> :g',
          ExpressionAttributeValues: { ':g': 0 },
          ExclusiveStartKey: start,
        }).promise();
        pages += 1;
        scanned.push(...page.Items.map((item) => item.sk));
        start = page.LastEvaluatedKey;
      } while (start);
      assertExactlyOnce(assert, scanned, ALL_KEYS.filter((i) => i % 7 !== 0), 'DocumentClient filtered scan');
      assert.ok(pages >= config.minScanPages - 1, `only ${pages} pages`);
      assertCrcs(responses, pages);
    });

    it('a bad request is a typed error, and its response has a valid CRC too', async () => {
      responses.length = 0;
      await assert.rejects(
        client.query({
          TableName: 'no_such_table',
          KeyConditionExpression: 'pk = :p',
          ExpressionAttributeValues: { ':p': { S: 'p0' } },
        }).promise(),
        (err) => {
          assert.strictEqual(err.code, 'ResourceNotFoundException');
          assert.strictEqual(err.message, 'Requested resource not found');
          assert.strictEqual(err.statusCode, 400);
          assert.strictEqual(err.retryable, false);
          return true;
        },
      );
      await assert.rejects(
        doc.query({
          TableName: TABLE, KeyConditionExpression: 'grp = :g', ExpressionAttributeValues: { ':g': 1 },
        }).promise(),
        (err) => {
          assert.strictEqual(err.code, 'ValidationException');
          assert.strictEqual(err.statusCode, 400);
          return true;
        },
      );
      await assert.rejects(
        client.scan({ TableName: TABLE, ExclusiveStartKey: { pk: { S: 'p0' } } }).promise(),
        (err) => {
          assert.strictEqual(err.code, 'ValidationException');
          assert.strictEqual(err.statusCode, 400);
          return true;
        },
      );
      assertCrcs(responses, 3);
      assert.ok(responses.every((r) => r.statusCode === 400));
    });
  });
}

describe('JS SDK v2 x-amz-crc32 check', () => {
  it('a response whose x-amz-crc32 is wrong fails with CRC32CheckFailed', async () => {
    const server = await startDynapage();
    // Forwards to dynapage and adds 1 to the x-amz-crc32 of every response.
    const proxy = http.createServer((req, res) => {
      const upstream = http.request({
        host: '127.0.0.1', port: server.port, method: req.method, path: req.url, headers: req.headers,
      }, (up) => {
        const headers = { ...up.headers };
        const crc = headers['x-amz-crc32'];
        if (crc !== undefined) headers['x-amz-crc32'] = String((Number(crc) + 1) >>> 0);
        res.writeHead(up.statusCode, headers);
        up.pipe(res);
      });
      upstream.on('error', (err) => { res.destroy(err); });
      req.pipe(upstream);
    });
    await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const direct = [];
      await makeClient(server.endpoint, direct).listTables({}).promise();
      assertCrcs(direct, 1);

      const viaProxy = makeClient(`http://127.0.0.1:${proxy.address().port}`, []);
      await assert.rejects(viaProxy.listTables({}).promise(), (err) => {
        assert.strictEqual(err.code, 'CRC32CheckFailed');
        return true;
      });
    } finally {
      proxy.close();
      await server.stop();
    }
  });
});
