'use strict';
// dynapage's bulk put through the AWS SDK for JavaScript v3 (docs/export-import.md): StartBulkPutItems over a local
// S3 folder (--s3-dir), the SDK's waitUntilBulkOperationCompleted, DescribeBulkOperation's counters,
// ListBulkOperations and CancelBulkOperation of a finished operation, and the items read back (the bulk commands are
// in the newest SDK only).

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');

const {
  CancelBulkOperationCommand,
  CreateTableCommand,
  DescribeBulkOperationCommand,
  DynamoDBClient,
  GetItemCommand,
  ListBulkOperationsCommand,
  ScanCommand,
  StartBulkPutItemsCommand,
  waitUntilBulkOperationCompleted,
} = require('@aws-sdk/client-dynamodb');

const { CREDENTIALS, REGION, startDynapage } = require('../js/dynapage');

const ITEMS = 1200;  // more than two batches

describe('bulk put through the JS SDK v3', () => {
  let server;
  let client;
  let s3Dir;

  before(async () => {
    s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dynapage-bulk-js-'));
    fs.mkdirSync(path.join(s3Dir, 'in', 'items'), { recursive: true });
    fs.mkdirSync(path.join(s3Dir, 'out'));
    const lines = [];
    for (let i = 0; i < ITEMS; i++) lines.push(JSON.stringify({ Item: { pk: { S: `k${i}` }, n: { N: String(i) } } }));
    lines.push('{"Item": {"n": {"N": "1"}}}');  // no key: a failed item
    fs.writeFileSync(path.join(s3Dir, 'in', 'items', 'part-1.json.gz'), zlib.gzipSync(`${lines.join('\n')}\n`));
    server = await startDynapage(['--s3-dir', s3Dir]);
    client = new DynamoDBClient({ endpoint: server.endpoint, region: REGION, credentials: CREDENTIALS });
    await client.send(new CreateTableCommand({
      TableName: 'bulk',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
    }));
  });

  after(async () => {
    client?.destroy();
    await server?.stop();
    if (s3Dir) fs.rmSync(s3Dir, { recursive: true, force: true });
  });

  it('puts every item, counts the bad one, and the waiter returns', async () => {
    const started = await client.send(new StartBulkPutItemsCommand({
      TableName: 'bulk',
      InputS3Configuration: { S3Bucket: 'in', S3KeyPrefix: 'items/', InputFormat: 'DYNAMODB_JSON', InputCompressionType: 'GZIP' },
      OutputS3Configuration: { S3Bucket: 'out', OutputType: ['ERROR'] },
      MaxWriteRequestUnits: 1024,
    }));
    const arn = started.BulkOperationDescription.BulkOperationArn;
    assert.match(arn, /:table\/bulk\/bulk-operation\/\d{14}-[0-9a-f]{8}$/);
    assert.ok(started.BulkOperationDescription.ClientToken, 'the SDK fills in a ClientToken');

    // The waiter's first check is at once, its next 20 s later: poll until the operation is done, then let the
    // waiter judge the state (COMPLETED and COMPLETED_WITH_ERRORS are its success).
    const describe = () => client.send(new DescribeBulkOperationCommand({ BulkOperationArn: arn }));
    for (let i = 0; i < 1000 && (await describe()).BulkOperationDescription.BulkOperationStatus === 'IN_PROGRESS'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const waited = await waitUntilBulkOperationCompleted({ client, maxWaitTime: 60 }, { BulkOperationArn: arn });
    assert.strictEqual(waited.state, 'SUCCESS');
    const { BulkOperationDescription: d } = await describe();
    assert.strictEqual(d.BulkOperationStatus, 'COMPLETED_WITH_ERRORS');
    assert.strictEqual(d.ProcessedItemCount, ITEMS + 1);
    assert.strictEqual(d.FailedItemCount, 1);
    assert.ok(d.EndTime instanceof Date);
    assert.strictEqual(d.TableDetails[0].TableName, 'bulk');
    assert.ok(d.BulkOperationUsage[0].BulkPutBytes > 0);

    const scan = await client.send(new ScanCommand({ TableName: 'bulk', Select: 'COUNT' }));
    assert.strictEqual(scan.Count, ITEMS);
    const item = await client.send(new GetItemCommand({ TableName: 'bulk', Key: { pk: { S: 'k7' } } }));
    assert.strictEqual(item.Item.n.N, '7');

    const listed = await client.send(new ListBulkOperationsCommand({}));
    assert.strictEqual(listed.BulkOperationsSummaryList[0].BulkOperationArn, arn);

    await assert.rejects(client.send(new CancelBulkOperationCommand({ BulkOperationArn: arn })),
      (err) => err.name === 'ValidationException' && /already COMPLETED_WITH_ERRORS/.test(err.message));
  });
});
