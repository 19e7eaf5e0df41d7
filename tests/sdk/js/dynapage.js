'use strict';
// Test support for the JavaScript SDK tests (not a test file itself): start and stop a dynapage process, the data set
// the tests page through, dummy credentials, and a CRC32 to check x-amz-crc32 independently of the SDK.
//
// The binary is $DYNAPAGE_BIN, else build/dynapage in the repository. Each server listens on a free loopback port
// (--port 0; the port is read from the ready line dynapage prints).

const { spawn } = require('node:child_process');
const path = require('node:path');
const fs = require('node:fs');

const REPO = path.resolve(__dirname, '..', '..', '..');
const READY = /listening on http:\/\/([^:\s]+):(\d+)/;

// Dummy credentials and region: dynapage checks the shape of the Authorization header, not the signature.
const REGION = 'us-east-1';
const CREDENTIALS = { accessKeyId: 'AKIDDYNAPAGETEST', secretAccessKey: 'dynapage-test-secret' };

// The headers of an admin call (docs/testing-pagination.md, "Scope"): JSON, as every state-changing call needs,
// and an Authorization header built like the SDK's for CREDENTIALS in REGION, so that the call acts on the
// namespace of the tests' clients (the signature is not checked).
function adminHeaders(credentials = CREDENTIALS, region = REGION) {
  return {
    'Content-Type': 'application/json',
    Authorization: `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/20260101/${region}/dynamodb/aws4_request, `
      + 'SignedHeaders=content-type;host, Signature=0',
  };
}

// The two server configurations every paging test runs against, and the item padding that makes each of them
// multi-page: with the default 1 MB page, 3000 items of ~1.1 KB (about 3.4 MB: 4+ Scan pages, 2 Query pages per
// partition); with --max-page-bytes 4096, 3000 items of ~45 bytes (about 35 Scan pages, 12 per partition).
// minScanPages / minQueryPages are lower bounds that prove the SDK really had to follow LastEvaluatedKey.
const CONFIGS = [
  { name: 'default 1 MB pages', args: [], pad: 1100, minScanPages: 4, minQueryPages: 2 },
  { name: '--max-page-bytes 4096', args: ['--max-page-bytes', '4096'], pad: 20, minScanPages: 20, minQueryPages: 8 },
];

const ITEM_COUNT = 3000;
const PARTITIONS = 3;
const TABLE = 'sdk_paging';

// Item i: pk "p<i % 3>", sk i, grp i % 7 (for filters), pad of the configured size. Plain JavaScript values.
function plainItem(i, pad) {
  return { pk: `p${i % PARTITIONS}`, sk: i, grp: i % 7, pad: `${i}:`.padEnd(pad, 'x') };
}

function plainItems(pad) {
  return Array.from({ length: ITEM_COUNT }, (_, i) => plainItem(i, pad));
}

// The sort keys expected for partition p (ascending).
function partitionKeys(p) {
  const keys = [];
  for (let i = p; i < ITEM_COUNT; i += PARTITIONS) keys.push(i);
  return keys;
}

// Asserts that `seen` (sort keys, in the order received) holds every one of `expected` exactly once.
function assertExactlyOnce(assert, seen, expected, what) {
  const counts = new Map();
  for (const k of seen) counts.set(k, (counts.get(k) || 0) + 1);
  const duplicates = [...counts].filter(([, n]) => n > 1).map(([k]) => k);
  const want = new Set(expected);
  const missing = expected.filter((k) => !counts.has(k));
  const extra = [...counts.keys()].filter((k) => !want.has(k));
  assert.deepStrictEqual(
    { duplicates: duplicates.slice(0, 10), missing: missing.slice(0, 10), extra: extra.slice(0, 10) },
    { duplicates: [], missing: [], extra: [] },
    `${what}: got ${seen.length} items for ${expected.length} expected`,
  );
  assert.strictEqual(seen.length, expected.length, what);
}

function binaryPath() {
  const bin = process.env.DYNAPAGE_BIN ? path.resolve(process.env.DYNAPAGE_BIN) : path.join(REPO, 'build', 'dynapage');
  try {
    fs.accessSync(bin, fs.constants.X_OK);
  } catch {
    throw new Error(`dynapage binary not found at ${bin} (build it, or set DYNAPAGE_BIN)`);
  }
  return bin;
}

const running = new Set();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

// Starts dynapage with extra args on a free port; resolves to { endpoint, port, stop() } once it is ready.
function startDynapage(args = [], timeoutMs = 20000) {
  const child = spawn(binaryPath(), ['--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => {
    running.delete(child);
    resolve({ code, signal });
  }));

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`dynapage did not become ready within ${timeoutMs} ms: ${stdout} ${stderr}`));
    }, timeoutMs);
    child.on('error', (err) => { clearTimeout(timer); reject(err); });
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`dynapage exited (${code ?? signal}) before it was ready: ${stdout} ${stderr}`));
    });
    child.stdout.on('data', (d) => {
      stdout += d;
      const match = READY.exec(stdout);
      if (!match || !stdout.includes('\n')) return;
      clearTimeout(timer);
      const port = Number(match[2]);
      resolve({
        port,
        endpoint: `http://127.0.0.1:${port}`,
        stderr: () => stderr,
        // SIGTERM, then SIGKILL if it has not exited within 5 s; resolves to the exit code.
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
          const { code, signal } = await exited;
          clearTimeout(killer);
          return code ?? signal;
        },
      });
    });
  });
}

// CRC32 (IEEE 802.3, as zlib and x-amz-crc32 use), written out because Node 18 has no zlib.crc32.
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(buffer) {
  let c = 0xffffffff;
  for (let i = 0; i < buffer.length; i++) c = CRC_TABLE[(c ^ buffer[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

// The table definition every test uses (low-level attribute types).
const TABLE_DEFINITION = {
  TableName: TABLE,
  AttributeDefinitions: [
    { AttributeName: 'pk', AttributeType: 'S' },
    { AttributeName: 'sk', AttributeType: 'N' },
  ],
  KeySchema: [
    { AttributeName: 'pk', KeyType: 'HASH' },
    { AttributeName: 'sk', KeyType: 'RANGE' },
  ],
  BillingMode: 'PAY_PER_REQUEST',
};

module.exports = {
  CONFIGS,
  CREDENTIALS,
  adminHeaders,
  ITEM_COUNT,
  PARTITIONS,
  REGION,
  TABLE,
  TABLE_DEFINITION,
  assertExactlyOnce,
  crc32,
  partitionKeys,
  plainItem,
  plainItems,
  startDynapage,
};
