'use strict';
// DynamoDB Streams through @aws-sdk/client-dynamodb-streams (docs/streams-and-ttl.md): every view type read end to
// end by a consumer that follows NextShardIterator, across puts, a batch and a transaction; a TTL deletion's record
// with the service's userIdentity.

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert');

const {
  BatchWriteItemCommand,
  CreateTableCommand,
  DeleteItemCommand,
  DescribeTableCommand,
  DynamoDBClient,
  PutItemCommand,
  TransactWriteItemsCommand,
  UpdateTimeToLiveCommand,
} = require('@aws-sdk/client-dynamodb');
const {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  GetShardIteratorCommand,
} = require('@aws-sdk/client-dynamodb-streams');

const { CREDENTIALS, REGION, adminHeaders, startDynapage } = require('./dynapage');

const VIEW_TYPES = ['KEYS_ONLY', 'NEW_IMAGE', 'OLD_IMAGE', 'NEW_AND_OLD_IMAGES'];

// The clock is every namespace's: a change of it says so (?scope=all).
async function admin(server, path, body) {
  const changesClock = path === '/_dynapage/clock' && Object.keys(body).length > 0;
  const response = await fetch(server.endpoint + path + (changesClock ? '?scope=all' : ''), {
    method: 'POST',
    headers: adminHeaders(),
    body: JSON.stringify(body),
  });
  return response.json();
}

async function createTable(ddb, name, viewType) {
  await ddb.send(new CreateTableCommand({
    TableName: name,
    KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
    AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
    BillingMode: 'PAY_PER_REQUEST',
    StreamSpecification: { StreamEnabled: true, StreamViewType: viewType },
  }));
  return (await ddb.send(new DescribeTableCommand({ TableName: name }))).Table.LatestStreamArn;
}

// Every record from TRIM_HORIZON, following NextShardIterator (Limit 2) until a read is empty.
async function readAll(streams, arn) {
  const description = (await streams.send(new DescribeStreamCommand({ StreamArn: arn }))).StreamDescription;
  assert.strictEqual(description.Shards.length, 1);
  let iterator = (await streams.send(new GetShardIteratorCommand({
    StreamArn: arn, ShardId: description.Shards[0].ShardId, ShardIteratorType: 'TRIM_HORIZON',
  }))).ShardIterator;
  const records = [];
  while (iterator) {
    const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 2 }));
    if (page.Records.length === 0) break;
    records.push(...page.Records);
    iterator = page.NextShardIterator;
  }
  return records;
}

describe('DynamoDB Streams through @aws-sdk/client-dynamodb-streams', () => {
  let server;
  let ddb;
  let streams;
  before(async () => {
    server = await startDynapage(['--ttl-interval', '0']);
    const config = { endpoint: server.endpoint, region: REGION, credentials: CREDENTIALS };
    ddb = new DynamoDBClient(config);
    streams = new DynamoDBStreamsClient(config);
  });
  after(async () => {
    ddb.destroy();
    streams.destroy();
    await server.stop();
  });

  for (const viewType of VIEW_TYPES) {
    it(`reads every change once, in order, with the images of ${viewType}`, async () => {
      const table = `js_${viewType.toLowerCase()}`;
      const arn = await createTable(ddb, table, viewType);
      await ddb.send(new PutItemCommand({ TableName: table, Item: { id: { S: 'a' }, n: { N: '1' } } }));
      await ddb.send(new PutItemCommand({ TableName: table, Item: { id: { S: 'a' }, n: { N: '1' } } }));
      await ddb.send(new BatchWriteItemCommand({ RequestItems: { [table]: [
        { PutRequest: { Item: { id: { S: 'b' } } } }, { PutRequest: { Item: { id: { S: 'c' } } } }] } }));
      await ddb.send(new TransactWriteItemsCommand({ TransactItems: [
        { Update: { TableName: table, Key: { id: { S: 'a' } }, UpdateExpression: 'SET n = :n',
          ExpressionAttributeValues: { ':n': { N: '2' } } } },
        { Delete: { TableName: table, Key: { id: { S: 'b' } } } }] }));
      await ddb.send(new DeleteItemCommand({ TableName: table, Key: { id: { S: 'c' } } }));
      const records = await readAll(streams, arn);
      assert.deepStrictEqual(records.map((r) => `${r.eventName} ${r.dynamodb.Keys.id.S}`),
        ['INSERT a', 'INSERT b', 'INSERT c', 'MODIFY a', 'REMOVE b', 'REMOVE c']);
      const wantsNew = viewType === 'NEW_IMAGE' || viewType === 'NEW_AND_OLD_IMAGES';
      const wantsOld = viewType === 'OLD_IMAGE' || viewType === 'NEW_AND_OLD_IMAGES';
      for (const r of records) {
        assert.strictEqual(r.eventVersion, '1.1');
        assert.strictEqual(r.eventSource, 'aws:dynamodb');
        assert.strictEqual(r.awsRegion, REGION);
        assert.strictEqual(r.dynamodb.StreamViewType, viewType);
        assert.ok(r.dynamodb.ApproximateCreationDateTime instanceof Date);
        assert.strictEqual(r.dynamodb.NewImage !== undefined, wantsNew && r.eventName !== 'REMOVE');
        assert.strictEqual(r.dynamodb.OldImage !== undefined, wantsOld && r.eventName !== 'INSERT');
      }
      if (wantsNew) assert.deepStrictEqual(records[3].dynamodb.NewImage, { id: { S: 'a' }, n: { N: '2' } });
    });
  }

  it('carries the service userIdentity on a TTL deletion, and expires iterators', async () => {
    const arn = await createTable(ddb, 'js_ttl', 'NEW_AND_OLD_IMAGES');
    await ddb.send(new UpdateTimeToLiveCommand({ TableName: 'js_ttl',
      TimeToLiveSpecification: { Enabled: true, AttributeName: 'ttl' } }));
    const now = Math.floor((await admin(server, '/_dynapage/clock', {})).epoch_ms / 1000);
    await ddb.send(new PutItemCommand({ TableName: 'js_ttl', Item: { id: { S: 'x' }, ttl: { N: String(now - 1) } } }));
    assert.deepStrictEqual(await admin(server, '/_dynapage/ttl/sweep', {}), { ExpiredItems: 1 });
    const records = await readAll(streams, arn);
    assert.deepStrictEqual(records.map((r) => r.eventName), ['INSERT', 'REMOVE']);
    assert.deepStrictEqual(records[1].userIdentity, { PrincipalId: 'dynamodb.amazonaws.com', Type: 'Service' });

    const description = (await streams.send(new DescribeStreamCommand({ StreamArn: arn }))).StreamDescription;
    const iterator = (await streams.send(new GetShardIteratorCommand({
      StreamArn: arn, ShardId: description.Shards[0].ShardId, ShardIteratorType: 'LATEST',
    }))).ShardIterator;
    await admin(server, '/_dynapage/clock', { advance_ms: 15 * 60 * 1000 + 1000 });
    await assert.rejects(streams.send(new GetRecordsCommand({ ShardIterator: iterator })), ExpiredIteratorException);
  });
});
