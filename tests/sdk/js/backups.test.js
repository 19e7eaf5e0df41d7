'use strict';
// Backups, restores and point-in-time recovery through @aws-sdk/client-dynamodb v3 (docs/backups.md): a backup's
// states, ListBackups paged with ExclusiveStartBackupArn, a restore that equals the table at the backup (through its
// index too), and a point-in-time restore to an instant the settable clock moved past.

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert');

const {
  BatchWriteItemCommand,
  CreateBackupCommand,
  CreateTableCommand,
  DeleteBackupCommand,
  DescribeBackupCommand,
  DescribeContinuousBackupsCommand,
  DynamoDBClient,
  ListBackupsCommand,
  PutItemCommand,
  QueryCommand,
  RestoreTableFromBackupCommand,
  RestoreTableToPointInTimeCommand,
  ScanCommand,
  UpdateContinuousBackupsCommand,
  waitUntilTableExists,
} = require('@aws-sdk/client-dynamodb');

const { CREDENTIALS, REGION, adminHeaders, startDynapage } = require('./dynapage');

async function setClock(server, body) {
  const response = await fetch(`${server.endpoint}/_dynapage/clock?scope=all`, {
    method: 'POST', headers: adminHeaders(), body: JSON.stringify(body),
  });
  return (await response.json()).epoch_ms;
}

async function scanAll(ddb, table) {
  const items = [];
  let start;
  do {
    const page = await ddb.send(new ScanCommand({ TableName: table, ExclusiveStartKey: start, Limit: 7 }));
    items.push(...page.Items);
    start = page.LastEvaluatedKey;
  } while (start);
  return items.map((i) => JSON.stringify(i, Object.keys(i).sort())).sort();
}

describe('backups and restores through @aws-sdk/client-dynamodb', () => {
  let server;
  let ddb;
  before(async () => {
    server = await startDynapage(['--pitr-latest-lag-seconds', '0']);
    ddb = new DynamoDBClient({ endpoint: server.endpoint, region: REGION, credentials: CREDENTIALS });
    await ddb.send(new CreateTableCommand({
      TableName: 'js_backed',
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'g', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      GlobalSecondaryIndexes: [{ IndexName: 'by_g', KeySchema: [{ AttributeName: 'g', KeyType: 'HASH' }],
        Projection: { ProjectionType: 'ALL' } }],
    }));
    const requests = Array.from({ length: 20 }, (_, i) => ({ PutRequest: { Item: {
      pk: { S: `k${i}` }, g: { S: `g${i % 2}` }, n: { N: String(i) } } } }));
    await ddb.send(new BatchWriteItemCommand({ RequestItems: { js_backed: requests } }));
  });
  after(async () => {
    ddb.destroy();
    await server.stop();
  });

  it('backs up, lists page by page, restores equal (index included) and deletes', async () => {
    const arns = [];
    for (const name of ['first', 'second', 'third']) {
      const made = await ddb.send(new CreateBackupCommand({ TableName: 'js_backed', BackupName: name }));
      assert.strictEqual(made.BackupDetails.BackupStatus, 'CREATING');  // as DynamoDB answers; done at once
      arns.push(made.BackupDetails.BackupArn);
    }
    const described = await ddb.send(new DescribeBackupCommand({ BackupArn: arns[0] }));
    assert.strictEqual(described.BackupDescription.BackupDetails.BackupStatus, 'AVAILABLE');
    assert.strictEqual(described.BackupDescription.SourceTableDetails.ItemCount, 20);
    const listed = [];
    let start;
    do {
      const page = await ddb.send(new ListBackupsCommand({ TableName: 'js_backed', Limit: 1,
        ExclusiveStartBackupArn: start }));
      listed.push(...page.BackupSummaries.map((b) => b.BackupArn));
      start = page.LastEvaluatedBackupArn;
    } while (start);
    assert.deepStrictEqual(listed.sort(), [...arns].sort());

    await ddb.send(new PutItemCommand({ TableName: 'js_backed', Item: { pk: { S: 'later' }, g: { S: 'g0' } } }));
    await ddb.send(new RestoreTableFromBackupCommand({ TargetTableName: 'js_restored', BackupArn: arns[0] }));
    await waitUntilTableExists({ client: ddb, maxWaitTime: 30 }, { TableName: 'js_restored' });
    const restored = await scanAll(ddb, 'js_restored');
    assert.strictEqual(restored.length, 20);
    assert.ok(!restored.some((i) => i.includes('"later"')));
    const byIndex = await ddb.send(new QueryCommand({ TableName: 'js_restored', IndexName: 'by_g',
      KeyConditionExpression: 'g = :g', ExpressionAttributeValues: { ':g': { S: 'g1' } } }));
    assert.strictEqual(byIndex.Count, 10);

    const deleted = await ddb.send(new DeleteBackupCommand({ BackupArn: arns[2] }));
    assert.strictEqual(deleted.BackupDescription.BackupDetails.BackupStatus, 'DELETED');
  });

  it('restores a table as it was at an instant of its point-in-time window', async () => {
    await ddb.send(new UpdateContinuousBackupsCommand({ TableName: 'js_backed',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } }));
    const before = await scanAll(ddb, 'js_backed');
    const instant = await setClock(server, { advance_ms: 5000 });
    await setClock(server, { advance_ms: 5000 });
    await ddb.send(new PutItemCommand({ TableName: 'js_backed', Item: { pk: { S: 'k0' }, g: { S: 'changed' } } }));
    await setClock(server, { advance_ms: 5000 });
    const window = await ddb.send(new DescribeContinuousBackupsCommand({ TableName: 'js_backed' }));
    const description = window.ContinuousBackupsDescription.PointInTimeRecoveryDescription;
    assert.strictEqual(description.PointInTimeRecoveryStatus, 'ENABLED');
    assert.ok(description.LatestRestorableDateTime.getTime() > instant);
    await ddb.send(new RestoreTableToPointInTimeCommand({ SourceTableName: 'js_backed',
      TargetTableName: 'js_then', RestoreDateTime: new Date(instant) }));
    assert.deepStrictEqual(await scanAll(ddb, 'js_then'), before);
  });
});
