'use strict';
// PartiQL through the AWS SDK for JavaScript v3 (docs/partiql.md): @aws-sdk/client-dynamodb's ExecuteStatementCommand
// followed over NextToken pages, and @aws-sdk/lib-dynamodb's ExecuteStatementCommand with native values as
// parameters; a duplicate INSERT surfaces as the SDK's typed DuplicateItemException.

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert');

const {
  CreateTableCommand,
  DuplicateItemException,
  DynamoDBClient,
  ExecuteStatementCommand: LowExecuteStatementCommand,
} = require('@aws-sdk/client-dynamodb');
const { DynamoDBDocumentClient, ExecuteStatementCommand } = require('@aws-sdk/lib-dynamodb');

const { CREDENTIALS, REGION, TABLE, TABLE_DEFINITION, startDynapage } = require('./dynapage');

describe('PartiQL through JS SDK v3', () => {
  let server;
  let client;
  let doc;

  before(async () => {
    server = await startDynapage();
    client = new DynamoDBClient({ endpoint: server.endpoint, region: REGION, credentials: CREDENTIALS, maxAttempts: 1 });
    doc = DynamoDBDocumentClient.from(client);
    await client.send(new CreateTableCommand(TABLE_DEFINITION));
  });

  after(async () => {
    client?.destroy();
    if (server) assert.strictEqual(await server.stop(), 0, 'dynapage exit code');
  });

  it('lib-dynamodb ExecuteStatementCommand takes native values as parameters', async () => {
    for (let i = 0; i < 20; i++) {
      await doc.send(new ExecuteStatementCommand({
        Statement: `INSERT INTO "${TABLE}" VALUE {'pk': ?, 'sk': ?, 'tags': ?, 'meta': ?}`,
        Parameters: ['js', i, new Set(['a', 'b']), { n: i, ok: true }],
      }));
    }
    const out = await doc.send(new ExecuteStatementCommand({
      Statement: `SELECT * FROM "${TABLE}" WHERE pk = ? AND sk = ?`,
      Parameters: ['js', 3],
    }));
    assert.deepStrictEqual(out.Items, [{ pk: 'js', sk: 3, tags: new Set(['a', 'b']), meta: { n: 3, ok: true } }]);
  });

  it('client ExecuteStatementCommand pages follow NextToken, every item once', async () => {
    const seen = [];
    let NextToken;
    let pages = 0;
    do {
      const out = await client.send(new LowExecuteStatementCommand({
        Statement: `SELECT sk FROM "${TABLE}" WHERE pk = 'js'`, Limit: 6, NextToken,
      }));
      pages += 1;
      for (const item of out.Items) seen.push(Number(item.sk.N));
      NextToken = out.NextToken;
    } while (NextToken);
    assert.deepStrictEqual(seen, Array.from({ length: 20 }, (_, i) => i));
    assert.strictEqual(pages, 4);
  });

  it('a duplicate INSERT is DuplicateItemException', async () => {
    await assert.rejects(
      client.send(new LowExecuteStatementCommand({
        Statement: `INSERT INTO "${TABLE}" VALUE {'pk': 'js', 'sk': 0}`,
      })),
      (err) => err instanceof DuplicateItemException && err.message === 'Duplicate primary key exists in table',
    );
  });
});
