'use strict';
// Vector search through the newest JavaScript SDK v3 (docs/vector-search.md): CreateTable with VectorIndexes,
// DescribeTable's index description, SearchVectors' exact neighbours per distance function against a reference
// computed here, a HASH condition, projections, capacity, and the SDK's typed errors.

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert');

const {
  BatchWriteItemCommand,
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  PutItemCommand,
  ResourceNotFoundException,
  SearchVectorsCommand,
} = require('@aws-sdk/client-dynamodb');

const { CREDENTIALS, REGION, startDynapage } = require('../js/dynapage');

const DIMS = 8;
const ITEMS = 200;
const FUNCTIONS = ['COSINE', 'EUCLIDEAN', 'DOT_PRODUCT'];

// A deterministic pseudo-random generator (mulberry32), so that a failure repeats.
function generator(seed) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Components with at most 3 decimals, so that the 32-bit copy the index keeps scores as the reference does.
function randomVector(next) {
  return Array.from({ length: DIMS }, () => Math.round((next() * 2 - 1) * 1000) / 1000);
}

function score(fn, q, s) {
  const f = (x) => Math.fround(x);
  let dot = 0;
  let qq = 0;
  let ss = 0;
  let d2 = 0;
  for (let k = 0; k < q.length; k++) {
    dot += f(q[k]) * f(s[k]);
    qq += f(q[k]) * f(q[k]);
    ss += f(s[k]) * f(s[k]);
    d2 += (f(q[k]) - f(s[k])) ** 2;
  }
  if (fn === 'DOT_PRODUCT') return dot;
  if (fn === 'EUCLIDEAN') return Math.sqrt(d2);
  if (qq === 0 || ss === 0) return 1;
  return Math.min(2, Math.max(0, 1 - dot / Math.sqrt(qq * ss)));
}

// The reference top-k: best first (lower is better but for DOT_PRODUCT), ties by pk ascending.
function reference(fn, q, items, k) {
  const better = fn === 'DOT_PRODUCT' ? (a, b) => b - a : (a, b) => a - b;
  return items
    .map((it) => ({ pk: it.pk, score: score(fn, q, it.v) }))
    .sort((a, b) => better(a.score, b.score) || (a.pk < b.pk ? -1 : a.pk > b.pk ? 1 : 0))
    .slice(0, k);
}

const asList = (v) => ({ L: v.map((x) => ({ N: String(x) })) });

describe('SearchVectors through the newest JS SDK v3', () => {
  let server;
  let client;
  const items = [];

  before(async () => {
    server = await startDynapage();
    client = new DynamoDBClient({ endpoint: server.endpoint, region: REGION, credentials: CREDENTIALS, maxAttempts: 1 });
    const created = await client.send(new CreateTableCommand({
      TableName: 'vectors',
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'tenant', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      VectorIndexes: [
        ...FUNCTIONS.map((fn) => ({
          IndexName: `by_${fn.toLowerCase()}`,
          VectorAttribute: { AttributeName: 'v' },
          Dimensions: DIMS,
          DistanceFunction: fn,
          Projection: { ProjectionType: 'ALL' },
        })),
        {
          IndexName: 'by_tenant',
          VectorAttribute: { AttributeName: 'v' },
          SearchSchema: [{ AttributeName: 'tenant', SearchSchemaElementType: 'HASH' }],
          Dimensions: DIMS,
          DistanceFunction: 'EUCLIDEAN',
          Projection: { ProjectionType: 'KEYS_ONLY' },
        },
      ],
    }));
    assert.strictEqual(created.TableDescription.VectorIndexes.length, 4);
    const next = generator(32);
    for (let i = 0; i < ITEMS; i++) {
      items.push({ pk: `item${String(i).padStart(4, '0')}`, tenant: i % 2 ? 'odd' : 'even', v: randomVector(next) });
    }
    for (let i = 0; i < ITEMS; i += 25) {
      await client.send(new BatchWriteItemCommand({
        RequestItems: {
          vectors: items.slice(i, i + 25).map((it) => ({
            PutRequest: { Item: { pk: { S: it.pk }, tenant: { S: it.tenant }, v: asList(it.v) } },
          })),
        },
      }));
    }
  });

  after(async () => {
    client?.destroy();
    await server?.stop();
  });

  it('describes each index as the SDK models it', async () => {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: 'vectors' }));
    const index = Table.VectorIndexes.find((i) => i.IndexName === 'by_cosine');
    assert.strictEqual(index.IndexStatus, 'ACTIVE');
    assert.strictEqual(index.Dimensions, DIMS);
    assert.strictEqual(index.DistanceFunction, 'COSINE');
    assert.strictEqual(index.VectorAttribute.AttributeName, 'v');
    assert.match(index.IndexArn, /:table\/vectors\/index\/by_cosine$/);
  });

  for (const fn of FUNCTIONS) {
    it(`returns the exact top-10 for ${fn}`, async () => {
      const next = generator(fn.length);
      for (let trial = 0; trial < 5; trial++) {
        const q = randomVector(next);
        const out = await client.send(new SearchVectorsCommand({
          TableName: 'vectors', IndexName: `by_${fn.toLowerCase()}`, SearchVector: q.map((x) => ({ N: String(x) })), TopK: 10,
        }));
        const want = reference(fn, q, items, 10);
        assert.deepStrictEqual(out.SearchResults.map((r) => r.Item.pk.S), want.map((w) => w.pk));
        out.SearchResults.forEach((r, i) => assert.ok(Math.abs(r.Score - want[i].score) < 1e-9, `${r.Score} vs ${want[i].score}`));
        assert.strictEqual(out.SearchResults[0].Item.v, undefined, 'the vector is not returned unless asked for');
      }
    });
  }

  it('scopes a HASH index to its value, keys and SearchSchema only, with the search bytes', async () => {
    const q = items[3].v;
    const out = await client.send(new SearchVectorsCommand({
      TableName: 'vectors',
      IndexName: 'by_tenant',
      SearchVector: q.map((x) => ({ N: String(x) })),
      TopK: 5,
      SearchConditionExpression: 'tenant = :t',
      ExpressionAttributeValues: { ':t': { S: 'odd' } },
      ReturnConsumedCapacity: 'TOTAL',
    }));
    const want = reference('EUCLIDEAN', q, items.filter((it) => it.tenant === 'odd'), 5);
    assert.deepStrictEqual(out.SearchResults.map((r) => r.Item.pk.S), want.map((w) => w.pk));
    assert.strictEqual(out.SearchResults[0].Item.pk.S, items[3].pk);
    assert.strictEqual(out.SearchResults[0].Score, 0);
    assert.deepStrictEqual(Object.keys(out.SearchResults[0].Item).sort(), ['pk', 'tenant']);
    assert.ok(out.ConsumedCapacity.VectorSearchRequestBytes >= 1024);
  });

  it('returns the vector as its 32-bit copy when asked for and projected', async () => {
    await client.send(new PutItemCommand({ TableName: 'vectors', Item: { pk: { S: 'one' }, v: asList([1, 0, 0, 0, 0, 0, 0, 0]) } }));
    const out = await client.send(new SearchVectorsCommand({
      TableName: 'vectors', IndexName: 'by_cosine', SearchVector: [1, 0, 0, 0, 0, 0, 0, 0].map((x) => ({ N: String(x) })),
      TopK: 1, ProjectionExpression: 'pk, v',
    }));
    assert.strictEqual(out.SearchResults[0].Item.pk.S, 'one');
    assert.deepStrictEqual(out.SearchResults[0].Item.v.L.map((n) => n.N), ['1.0', '0.0', '0.0', '0.0', '0.0', '0.0', '0.0', '0.0']);
  });

  it('answers bad input with typed errors and DynamoDB\'s messages', async () => {
    const search = (input) => client.send(new SearchVectorsCommand({ TableName: 'vectors', IndexName: 'by_cosine', TopK: 3, ...input }));
    await assert.rejects(search({ SearchVector: [{ N: '1' }] }), (e) => e.name === 'ValidationException'
      && e.message === `Input search vector dimension 1 does not match vector index dimension ${DIMS}`);
    await assert.rejects(search({ SearchVector: [{ N: '1' }], TopK: 101 }), (e) => e.name === 'ValidationException'
      && e.message === "Provided TopK value '101' is out of valid range. The value must be between 1 and 100 inclusive");
    await assert.rejects(search({ SearchVector: [{ N: '1' }], IndexName: 'nope' }), (e) => e.name === 'ValidationException'
      && e.message === 'The table does not have the specified index: nope');
    await assert.rejects(search({ SearchVector: [{ N: '1' }], TableName: 'missing' }), ResourceNotFoundException);
  });
});
