'use strict';
// Set order through the AWS SDK for JavaScript v3 (docs/behaviour.md §1): SS, NS and BS come back sorted (strings
// and binaries by their bytes, numbers by value) after every write path, as ElectroDB, OneTable and Dyngoose
// assert. The low-level client is used so that the SDK's own conversion cannot reorder what the server sends.

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert');

const {
  BatchWriteItemCommand,
  CreateTableCommand,
  DynamoDBClient,
  ExecuteStatementCommand,
  GetItemCommand,
  PutItemCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
} = require('@aws-sdk/client-dynamodb');

const { CREDENTIALS, REGION, startDynapage } = require('./dynapage');

const TABLE = 'sets';
const SS = ['b', 'a', 'é', 'B', ''];           // bytes: '' < 'B' < 'a' < 'b' < 'é' (0xC3 0xA9)
const SORTED_SS = ['', 'B', 'a', 'b', 'é'];
const NS = ['10', '-2.5', '3', '0', '1e2'];
const SORTED_NS = ['-2.5', '0', '3', '10', '100'];
const BS = [Uint8Array.of(0x80), Uint8Array.of(0x01, 0x02), Uint8Array.of(0x01), new Uint8Array(0)];
const SORTED_BS = ['', 'AQ==', 'AQI=', 'gA=='];  // base64 of the members in byte order

describe('set order through JS SDK v3', () => {
  let server;
  let client;

  before(async () => {
    server = await startDynapage();
    client = new DynamoDBClient({ endpoint: server.endpoint, region: REGION, credentials: CREDENTIALS, maxAttempts: 1 });
    await client.send(new CreateTableCommand({
      TableName: TABLE,
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
    }));
  });

  after(async () => {
    client?.destroy();
    if (server) assert.strictEqual(await server.stop(), 0, 'dynapage exit code');
  });

  async function sets(pk) {
    const out = await client.send(new GetItemCommand({ TableName: TABLE, Key: { pk: { S: pk } }, ConsistentRead: true }));
    const item = out.Item;
    return {
      ss: item.ss && item.ss.SS,
      ns: item.ns && item.ns.NS,
      bs: item.bs && item.bs.BS.map((b) => Buffer.from(b).toString('base64')),
    };
  }

  const item = (pk) => ({ pk: { S: pk }, ss: { SS: SS }, ns: { NS: NS }, bs: { BS: BS } });

  it('PutItem stores sets sorted', async () => {
    await client.send(new PutItemCommand({ TableName: TABLE, Item: item('put') }));
    assert.deepStrictEqual(await sets('put'), { ss: SORTED_SS, ns: SORTED_NS, bs: SORTED_BS });
  });

  it('BatchWriteItem and TransactWriteItems store sets sorted', async () => {
    await client.send(new BatchWriteItemCommand({ RequestItems: { [TABLE]: [{ PutRequest: { Item: item('batch') } }] } }));
    assert.deepStrictEqual(await sets('batch'), { ss: SORTED_SS, ns: SORTED_NS, bs: SORTED_BS });
    await client.send(new TransactWriteItemsCommand({ TransactItems: [{ Put: { TableName: TABLE, Item: item('tx') } }] }));
    assert.deepStrictEqual(await sets('tx'), { ss: SORTED_SS, ns: SORTED_NS, bs: SORTED_BS });
  });

  it('UpdateItem ADD and DELETE leave sets sorted', async () => {
    await client.send(new PutItemCommand({
      TableName: TABLE, Item: { pk: { S: 'upd' }, ss: { SS: ['m'] }, ns: { NS: ['5'] }, bs: { BS: [Uint8Array.of(0x40)] } },
    }));
    await client.send(new UpdateItemCommand({
      TableName: TABLE,
      Key: { pk: { S: 'upd' } },
      UpdateExpression: 'ADD ss :ss, ns :ns, bs :bs',
      ExpressionAttributeValues: { ':ss': { SS: SS }, ':ns': { NS: NS }, ':bs': { BS: BS } },
    }));
    assert.deepStrictEqual(await sets('upd'), {
      ss: ['', 'B', 'a', 'b', 'm', 'é'],
      ns: ['-2.5', '0', '3', '5', '10', '100'],
      bs: ['', 'AQ==', 'AQI=', 'QA==', 'gA=='],
    });
    await client.send(new UpdateItemCommand({
      TableName: TABLE,
      Key: { pk: { S: 'upd' } },
      UpdateExpression: 'DELETE ss :ss',
      ExpressionAttributeValues: { ':ss': { SS: ['a'] } },
    }));
    assert.deepStrictEqual((await sets('upd')).ss, ['', 'B', 'b', 'm', 'é']);
  });

  it('PartiQL INSERT stores sets sorted', async () => {
    await client.send(new ExecuteStatementCommand({
      Statement: `INSERT INTO "${TABLE}" VALUE {'pk': 'pql', 'ss': <<'b', 'a', 'B'>>, 'ns': <<10, -2.5, 3>>}`,
    }));
    const got = await sets('pql');
    assert.deepStrictEqual([got.ss, got.ns], [['B', 'a', 'b'], ['-2.5', '3', '10']]);
  });
});
