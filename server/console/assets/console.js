// dynapage console (docs/console.md): plain JavaScript, no framework, nothing loaded from elsewhere.
//
// The page talks to the server it came from, and only as a client would: DynamoDB calls are POST / with
// X-Amz-Target and an Authorization header shaped like an SDK's SigV4 one (dynapage reads the credential scope, the
// access key and region that choose the namespace, and does not check the signature), so that every edit runs the
// same operations as an SDK's; test-bench changes go through the admin API's own routes. Text from the server is
// always put into the page as text (textContent), never as HTML.
'use strict';

(() => {
  const POLL_MS = 2000;  // the timeline's and the metrics' polling, only while the page is visible
  const REQUESTS_SHOWN = 200;
  const CHAINED = new Set(['Query', 'Scan', 'ExecuteStatement', 'GetRecords', 'ListTables']);

  const state = {
    accessKey: '', region: '', view: 'namespaces',
    tables: [],           // names of the namespace's tables
    descriptions: {},     // table name -> DescribeTable's Table
    read: null,           // the read in the items view: its request and the next ExclusiveStartKey
    pollTimer: 0,
  };

  // ---- small helpers -------------------------------------------------------------------------------------------
  const $ = (selector) => document.querySelector(selector);

  // el('td', {class: 'num'}, 'text', child…): an element with attributes and children (strings become text).
  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value === false || value === undefined || value === null) continue;
      if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
      else node.setAttribute(name, value === true ? '' : String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function say(message, isError) {
    const status = $('#status');
    status.textContent = message;
    status.classList.toggle('error', Boolean(isError));
  }

  // The same JSON whatever the order of an object's members (SDKs send a key's attributes in any order).
  function canonical(value) {
    if (Array.isArray(value)) return '[' + value.map(canonical).join(',') + ']';
    if (value && typeof value === 'object') {
      return '{' + Object.keys(value).sort().map((k) => JSON.stringify(k) + ':' + canonical(value[k])).join(',') + '}';
    }
    return JSON.stringify(value);
  }
  function canonicalText(text) {
    if (!text) return '';
    try { return canonical(JSON.parse(text)); } catch (e) { return text; }  // a cut one: as written
  }

  // An attribute value for a cell: a string or number as itself, anything else as its JSON.
  function shown(value) {
    if (!value || typeof value !== 'object') return String(value);
    if ('S' in value) return value.S;
    if ('N' in value) return value.N;
    if ('BOOL' in value) return String(value.BOOL);
    if ('NULL' in value) return 'null';
    return JSON.stringify(value);
  }
  function shownKey(key) {
    if (!key) return '';
    return Object.keys(key).sort().map((name) => name + '=' + shown(key[name])).join(', ');
  }

  // ---- talking to dynapage -------------------------------------------------------------------------------------
  function authorization() {
    return 'AWS4-HMAC-SHA256 Credential=' + state.accessKey + '/20260101/' + state.region +
      '/dynamodb/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=0';
  }

  // A DynamoDB call, as an SDK makes it: {ok, status, data, requestId}.
  async function dynamo(operation, body) {
    const answer = await fetch('/', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-amz-json-1.0',
        'X-Amz-Target': 'DynamoDB_20120810.' + operation,
        'X-Amz-Date': '20260101T000000Z',
        Authorization: authorization(),
      },
      body: JSON.stringify(body),
    });
    const data = await answer.json().catch(() => ({}));
    return { ok: answer.ok, status: answer.status, data, requestId: answer.headers.get('x-amzn-RequestId') };
  }

  // An admin call, as the caller of the namespace looked at: {ok, status, data, text}.
  async function admin(method, path, body) {
    const headers = { Authorization: authorization() };
    if (method !== 'GET') headers['Content-Type'] = 'application/json';
    const answer = await fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await answer.text();
    let data = null;
    try { data = JSON.parse(text); } catch (e) { /* /metrics is text */ }
    return { ok: answer.ok, status: answer.status, data, text };
  }

  function failure(answer) {
    const d = answer.data || {};
    const kind = (d.__type || d.error || 'Error').split('#').pop();
    return kind + ': ' + (d.message || d.Message || answer.status);
  }

  // Calls fn, reporting a failed answer in the status line; returns the answer.
  async function run(what, fn) {
    try {
      const answer = await fn();
      if (answer && answer.ok === false) say(what + ' failed: ' + failure(answer), true);
      return answer;
    } catch (e) {
      say(what + ' failed: ' + e.message, true);
      return { ok: false, status: 0, data: {} };
    }
  }

  // ---- namespaces ----------------------------------------------------------------------------------------------
  function useNamespace(accessKey, region) {
    state.accessKey = accessKey;
    state.region = region;
    $('#access-key').value = accessKey;
    $('#region').value = region;
    try { localStorage.setItem('dynapage-console-namespace', JSON.stringify({ accessKey, region })); } catch (e) {}
    state.read = null;
    state.tables = [];
    state.descriptions = {};
    $('#pages').replaceChildren();
    loadNamespaces().then(() => show(state.view));
  }

  async function loadNamespaces() {
    const answer = await run('Listing namespaces', () => admin('GET', '/_dynapage/console/namespaces'));
    if (!answer.ok) return null;
    const d = answer.data;
    $('#namespace-mode').textContent = 'Namespace mode: ' + d.mode + '. Pages are cut at ' +
      d.max_page_bytes + ' bytes (DynamoDB: 1 MB; --max-page-bytes lowers it).';
    $('#page-size').textContent = 'The server cuts pages at ' + d.max_page_bytes + ' bytes' +
      (d.max_page_bytes < 1048576 ? ' (--max-page-bytes)' : ' (DynamoDB\'s 1 MB)') + ' or at Limit items.';
    $('#looking-at').replaceChildren('Looking at ', el('strong', {}, (d.caller.access_key || '(unsigned)') + ' / ' +
      d.caller.region), ' (namespace ', el('code', {}, d.caller.namespace || 'shared'), ')');
    const rows = d.namespaces.map((n) => el('tr', { 'data-namespace': n.namespace },
      el('td', {}, el('code', {}, n.namespace || 'shared')), el('td', {}, n.access_key || '(unsigned)'),
      el('td', {}, n.region), el('td', { class: 'num' }, n.tables),
      el('td', {}, el('button', {
        type: 'button', onclick: () => useNamespace(n.access_key || state.accessKey, n.region),
        'aria-label': 'Look at ' + (n.access_key || 'unsigned') + ' ' + n.region,
      }, 'Look at'))));
    $('#namespace-list tbody').replaceChildren(...rows);
    return d;
  }

  // ---- tables --------------------------------------------------------------------------------------------------
  async function listTables() {
    const names = [];
    let start;
    do {  // every page: a namespace may hold more than one ListTables page
      const answer = await run('ListTables', () => dynamo('ListTables', start ? { ExclusiveStartTableName: start } : {}));
      if (!answer.ok) break;
      names.push(...answer.data.TableNames);
      start = answer.data.LastEvaluatedTableName;
    } while (start);
    state.tables = names;
    return names;
  }

  function keyText(schema, attributes) {
    const types = Object.fromEntries((attributes || []).map((a) => [a.AttributeName, a.AttributeType]));
    return schema.map((k) => k.AttributeName + ' (' + (types[k.AttributeName] || '?') + ', ' +
      (k.KeyType === 'HASH' ? 'partition' : 'sort') + ')').join(', ');
  }

  async function describe(name) {
    const answer = await dynamo('DescribeTable', { TableName: name });
    if (!answer.ok) return null;
    state.descriptions[name] = answer.data.Table;
    return answer.data.Table;
  }

  async function loadTables() {
    const names = await listTables();
    const rows = [];
    for (const name of names) {
      const table = await describe(name);
      if (!table) continue;
      const ttl = await dynamo('DescribeTimeToLive', { TableName: name });
      const ttlText = ttl.ok && ttl.data.TimeToLiveDescription.TimeToLiveStatus === 'ENABLED'
        ? ttl.data.TimeToLiveDescription.AttributeName : 'off';
      const indexes = [...(table.GlobalSecondaryIndexes || []).map((i) => ['global', i]),
        ...(table.LocalSecondaryIndexes || []).map((i) => ['local', i])];
      const stream = table.StreamSpecification && table.StreamSpecification.StreamEnabled
        ? table.StreamSpecification.StreamViewType : 'off';
      rows.push(el('tr', { 'data-table': name },
        el('th', { scope: 'row' }, name),
        el('td', {}, keyText(table.KeySchema, table.AttributeDefinitions)),
        el('td', {}, indexes.length ? el('ul', {}, indexes.map(([kind, i]) =>
          el('li', {}, i.IndexName + ' (' + kind + '): ' + keyText(i.KeySchema, table.AttributeDefinitions)))) : 'none'),
        el('td', {}, ttlText), el('td', {}, stream),
        el('td', { class: 'num' }, table.ItemCount), el('td', {}, table.TableStatus),
        el('td', { class: 'item-actions' },
          el('button', { type: 'button', onclick: () => openItems(name) }, 'Items'), ' ',
          el('button', { type: 'button', onclick: () => resetTable(name) }, 'Empty'), ' ',
          el('button', { type: 'button', class: 'danger', onclick: () => deleteTable(name) }, 'Delete'))));
    }
    $('#table-list tbody').replaceChildren(...(rows.length ? rows
      : [el('tr', {}, el('td', { colspan: 8 }, 'No tables in this namespace.'))]));
  }

  async function createTable(event) {
    event.preventDefault();
    const f = event.target.elements;
    const schema = [{ AttributeName: f.hash.value, KeyType: 'HASH' }];
    const attributes = [{ AttributeName: f.hash.value, AttributeType: f['hash-type'].value }];
    if (f.range.value) {
      schema.push({ AttributeName: f.range.value, KeyType: 'RANGE' });
      attributes.push({ AttributeName: f.range.value, AttributeType: f['range-type'].value });
    }
    const answer = await run('CreateTable', () => dynamo('CreateTable', {
      TableName: f.name.value, KeySchema: schema, AttributeDefinitions: attributes, BillingMode: 'PAY_PER_REQUEST',
    }));
    if (!answer.ok) return;
    say('Created table ' + f.name.value + '.');
    event.target.reset();
    await loadTables();
  }

  async function deleteTable(name) {
    if (!confirm('Delete table ' + name + ' and every item in it?')) return;
    const answer = await run('DeleteTable', () => dynamo('DeleteTable', { TableName: name }));
    if (answer.ok) say('Deleted table ' + name + '.');
    await loadTables();
  }

  async function resetTable(name) {
    if (!confirm('Empty table ' + name + ' (its definition stays)?')) return;
    const answer = await run('Reset', () => admin('POST', '/_dynapage/reset?table=' + encodeURIComponent(name), {}));
    if (answer.ok) say('Emptied ' + name + '.');
    await loadTables();
  }

  // ---- items: reads a page at a time ---------------------------------------------------------------------------
  function openItems(name) {
    state.pendingTable = name;
    location.hash = '#items';
    if (state.view === 'items') show('items');
  }

  // The key schema of the table or of one of its indexes.
  function schemaOf(table, index) {
    if (!index) return table.KeySchema;
    const all = [...(table.GlobalSecondaryIndexes || []), ...(table.LocalSecondaryIndexes || [])];
    const found = all.find((i) => i.IndexName === index);
    return found ? found.KeySchema : table.KeySchema;
  }
  function typeOf(table, attribute) {
    const d = (table.AttributeDefinitions || []).find((a) => a.AttributeName === attribute);
    return d ? d.AttributeType : 'S';
  }

  async function loadItemsView() {
    if (!state.tables.length) await listTables();
    const select = $('#read-table');
    const chosen = state.pendingTable || select.value || state.tables[0];
    state.pendingTable = null;
    select.replaceChildren(...state.tables.map((n) => el('option', { selected: n === chosen }, n)));
    await chooseTable();
  }

  async function chooseTable() {
    const name = $('#read-table').value;
    $('#items-table').textContent = name || '(no table)';
    if (!name) return;
    const table = await describe(name);
    if (!table) return;
    const indexes = [...(table.GlobalSecondaryIndexes || []), ...(table.LocalSecondaryIndexes || [])];
    $('#read-index').replaceChildren(el('option', { value: '' }, '(the table)'),
      ...indexes.map((i) => el('option', { value: i.IndexName }, i.IndexName)));
    chooseIndex();
  }

  function chooseIndex() {
    const table = state.descriptions[$('#read-table').value];
    if (!table) return;
    const schema = schemaOf(table, $('#read-index').value);
    const hash = schema.find((k) => k.KeyType === 'HASH');
    const range = schema.find((k) => k.KeyType === 'RANGE');
    $('#hash-label').textContent = hash.AttributeName;
    $('#range-label').textContent = range ? range.AttributeName : '(no sort key)';
    for (const id of ['#range-op', '#range-value', '#range-value2']) $(id).disabled = !range;
  }

  // The request of the read the form describes (without ExclusiveStartKey).
  function readRequest() {
    const f = $('#read-form').elements;
    const tableName = f.table.value;
    const table = state.descriptions[tableName];
    const request = { TableName: tableName };
    if (f.index.value) request.IndexName = f.index.value;
    if (f.limit.value) request.Limit = Number(f.limit.value);
    const kind = f.kind.value;
    if (kind === 'Query') {
      const schema = schemaOf(table, f.index.value);
      const hash = schema.find((k) => k.KeyType === 'HASH');
      const range = schema.find((k) => k.KeyType === 'RANGE');
      const value = (attribute, text) => ({ [typeOf(table, attribute)]: text });
      request.ExpressionAttributeNames = { '#h': hash.AttributeName };
      request.ExpressionAttributeValues = { ':h': value(hash.AttributeName, f['hash-value'].value) };
      let condition = '#h = :h';
      const op = range ? f['range-op'].value : '';
      if (op) {
        request.ExpressionAttributeNames['#r'] = range.AttributeName;
        request.ExpressionAttributeValues[':r'] = value(range.AttributeName, f['range-value'].value);
        if (op === 'BETWEEN') {
          request.ExpressionAttributeValues[':r2'] = value(range.AttributeName, f['range-value2'].value);
          condition += ' AND #r BETWEEN :r AND :r2';
        } else if (op === 'begins_with') {
          condition += ' AND begins_with(#r, :r)';
        } else {
          condition += ' AND #r ' + op + ' :r';
        }
      }
      request.KeyConditionExpression = condition;
      if (f.backward.checked) request.ScanIndexForward = false;
    }
    return { kind, request };
  }

  // How the server logged one of this page's requests (why the page ended, what touched it); null if not logged.
  async function loggedLine(requestId) {
    const answer = await admin('GET', '/_dynapage/console/requests?limit=50');
    if (!answer.ok) return null;
    return answer.data.requests.find((r) => r.request_id === requestId) || null;
  }

  async function readPage() {
    const read = state.read;
    const request = Object.assign({}, read.request);
    if (read.next) request.ExclusiveStartKey = read.next;
    const answer = await run(read.kind, () => dynamo(read.kind, request));
    if (!answer.ok) return false;
    const line = await loggedLine(answer.requestId);
    read.pages++;
    read.next = answer.data.LastEvaluatedKey || null;
    drawPage(read, request, answer, line);
    $('#read-next').disabled = $('#read-all').disabled = !read.next;
    say('Page ' + read.pages + ': ' + answer.data.Count + ' item(s)' + (read.next ? ', more to read.' : ', the end.'));
    return Boolean(read.next);
  }

  function drawPage(read, request, answer, line) {
    const d = answer.data;
    const items = d.Items || [];
    const table = state.descriptions[request.TableName];
    const keyNames = table.KeySchema.map((k) => k.AttributeName);
    const names = [...new Set([...keyNames, ...items.flatMap((i) => Object.keys(i))])];
    const end = line ? line.page_end : (d.LastEvaluatedKey ? 'continued' : 'end');
    const head = el('div', { class: 'page-head' },
      el('strong', {}, 'Page ' + read.pages), el('span', {}, d.Count + ' returned'),
      el('span', {}, d.ScannedCount + ' evaluated'),
      line ? el('span', {}, line.bytes_read + ' bytes read') : null,
      el('span', { class: 'end end-' + end }, 'ended: ' + end),
      line && line.injected ? el('span', { class: 'injected' }, 'injected: ' + line.injected) : null,
      request.ExclusiveStartKey ? el('span', { class: 'key' }, 'from ' + shownKey(request.ExclusiveStartKey)) : null,
      d.LastEvaluatedKey ? el('span', { class: 'key' }, 'LastEvaluatedKey ' + shownKey(d.LastEvaluatedKey)) : null);
    const rows = items.map((item) => el('tr', {},
      names.map((n) => el('td', {}, n in item ? shown(item[n]) : '')),
      el('td', { class: 'item-actions' },
        el('button', { type: 'button', onclick: () => editItem(item) }, 'Edit'), ' ',
        el('button', { type: 'button', class: 'danger', onclick: () => deleteItem(request.TableName, item) }, 'Delete'))));
    const grid = items.length ? el('table', {},
      el('thead', {}, el('tr', {}, names.map((n) => el('th', { scope: 'col' }, n)),
        el('th', { scope: 'col' }, el('span', { class: 'visually-hidden' }, 'Actions')))),
      el('tbody', {}, rows)) : el('p', {}, 'An empty page' + (d.LastEvaluatedKey ? ' that still continues.' : '.'));
    $('#pages').append(el('li', { 'data-page': read.pages, 'data-count': d.Count,
      'data-end': end, 'data-request-id': answer.requestId }, head, grid));
  }

  async function firstPage(event) {
    if (event) event.preventDefault();
    await watchRequests();
    const { kind, request } = readRequest();
    state.read = { kind, request, next: null, pages: 0 };
    $('#pages').replaceChildren();
    await readPage();
  }

  async function allPages() {
    let pages = 0;
    while (state.read && state.read.next && pages++ < 1000) {
      if (!await readPage()) break;
    }
  }

  function editItem(item) {
    $('#item-json').value = JSON.stringify(item, null, 1);
    const editor = $('#item-editor');
    editor.open = true;
    $('#item-json').focus();
  }

  async function putItem(event) {
    event.preventDefault();
    let item;
    try { item = JSON.parse($('#item-json').value); } catch (e) {
      say('The item is not JSON: ' + e.message, true);
      return;
    }
    const table = $('#read-table').value;
    const answer = await run('PutItem', () => dynamo('PutItem', { TableName: table, Item: item }));
    if (answer.ok) say('Put an item into ' + table + '.');
  }

  async function deleteItem(tableName, item) {
    const table = state.descriptions[tableName];
    const key = Object.fromEntries(table.KeySchema.map((k) => [k.AttributeName, item[k.AttributeName]]));
    if (!confirm('Delete the item ' + shownKey(key) + '?')) return;
    const answer = await run('DeleteItem', () => dynamo('DeleteItem', { TableName: tableName, Key: key }));
    if (answer.ok) say('Deleted the item ' + shownKey(key) + '.');
  }

  // ---- the timeline: requests, and conversations as chains of pages --------------------------------------------
  async function watchRequests() {
    const answer = await admin('GET', '/_dynapage/console/requests?limit=' + REQUESTS_SHOWN);
    return answer.ok ? answer.data : null;
  }

  // Links each paginated request to the one whose continuation it sent: the chains, oldest first.
  function chainsOf(requests) {
    const chains = [];
    const open = new Map();  // caller, operation and continuation handed out -> its chain
    const id = (r, token) => [r.access_key, r.region, r.operation, r.table, r.index, canonicalText(token)].join('\u0001');
    for (const r of requests) {
      if (!CHAINED.has(r.operation)) continue;
      let chain = r.start_key ? open.get(id(r, r.start_key)) : undefined;
      if (chain) {
        open.delete(id(r, r.start_key));
      } else {
        chain = { pages: [], midway: Boolean(r.start_key) };
        chains.push(chain);
      }
      chain.pages.push(r);
      if (r.next_key) open.set(id(r, r.next_key), chain);
    }
    return chains;
  }

  function pageBox(r) {
    const failed = r.status !== 200;
    const touched = Boolean(r.injected);
    return el('li', { class: 'chain-page' + (failed ? ' failed' : '') + (touched ? ' touched' : ''),
      'data-request-id': r.request_id, 'data-items': r.items_returned, 'data-end': r.page_end || '' },
    el('div', {}, el('strong', {}, r.operation), ' ', failed ? r.status + ' ' + (r.error || '') : ''),
    failed ? null : el('div', {}, r.items_returned + ' returned, ' + r.items_evaluated + ' evaluated'),
    r.bytes_read ? el('div', {}, r.bytes_read + ' bytes read') : null,
    r.page_end ? el('div', { class: 'end end-' + r.page_end }, 'ended: ' + r.page_end) : null,
    touched ? el('div', { class: 'injected' }, r.injected) : null,
    r.next_key ? el('div', { class: 'key', title: r.next_key }, 'next: ' + keyLabel(r.next_key)) : null);
  }

  function keyLabel(text) {
    try {
      const v = JSON.parse(text);
      if (typeof v === 'string') return v.length > 24 ? v.slice(0, 24) + '…' : v;
      return shownKey(v);
    } catch (e) { return text.slice(0, 40) + '…'; }
  }

  function drawTimeline(log, audit) {
    const requests = log.requests;
    $('#recording').textContent = log.recording === 'file'
      ? 'The request log (--request-log) keeps every request.'
      : 'Without --request-log, the requests are kept in memory while this view is open (the last 1000).';
    const abandoned = new Map();  // request id -> the audit's entry
    if (audit && audit.abandoned) for (const a of audit.abandoned) abandoned.set(a.request_id, a);
    const chains = chainsOf(requests).reverse();  // newest first
    $('#chains').replaceChildren(...(chains.length ? chains.map((chain) => {
      const first = chain.pages[0];
      const last = chain.pages[chain.pages.length - 1];
      const left = last.next_key ? abandoned.get(last.request_id) : undefined;
      const items = chain.pages.reduce((n, p) => n + p.items_returned, 0);
      const boxes = [];
      chain.pages.forEach((p, i) => {
        if (i) boxes.push(el('li', { class: 'link', 'aria-hidden': 'true' }, '→'));
        boxes.push(pageBox(p));
      });
      if (last.next_key) {
        boxes.push(el('li', { class: 'link', 'aria-hidden': 'true' }, '→'));
        boxes.push(el('li', { class: 'chain-page left' }, left
          ? 'abandoned: ' + (left.pages_left === null ? '?' : left.pages_left) + ' page(s), ' +
            (left.items_left === null ? '?' : left.items_left) + ' item(s) left'
          : 'not followed (yet)'));
      }
      return el('li', { class: 'chain' + (left ? ' abandoned' : ''), 'data-pages': chain.pages.length,
        'data-items': items, 'data-operation': first.operation, 'data-table': first.table || '' },
      el('div', { class: 'chain-head' }, el('strong', {}, first.operation + ' ' + (first.table || '') +
        (first.index ? ' index ' + first.index : '')), ' — ' + chain.pages.length + ' page(s), ' + items +
        ' item(s), ' + first.time.slice(11, 23) + (chain.midway ? ' (its first page is no longer in the log)' : '')),
      el('ol', { class: 'chain-pages', 'aria-label': 'pages' }, boxes));
    }) : [el('li', {}, 'No Query, Scan, PartiQL or GetRecords request yet.')]));
    const rows = requests.slice().reverse().map((r) => el('tr', {
      class: (r.status !== 200 ? 'failed' : '') + (r.injected ? ' touched' : ''), 'data-request-id': r.request_id },
    el('td', { class: 'mono' }, r.time.slice(11, 23)), el('td', {}, r.operation), el('td', {}, r.table || ''),
    el('td', {}, r.status === 200 ? '200' : r.status + ' ' + (r.error || '')), el('td', { class: 'num' }, r.latency_ms),
    el('td', { class: 'num' }, r.items_returned || r.items_written || ''), el('td', {}, r.injected || '')));
    $('#request-list tbody').replaceChildren(...rows);
  }

  async function refreshTimeline() {
    const log = await watchRequests();
    if (!log) return;
    const audit = await admin('GET', '/_dynapage/pagination');  // 409 without --audit-pagination
    drawTimeline(log, audit.ok ? audit.data : null);
  }

  // ---- the test bench ------------------------------------------------------------------------------------------
  async function loadBench() {
    const chaos = await admin('GET', '/_dynapage/chaos');
    if (chaos.ok) {
      const tables = Object.entries(chaos.data.tables || {});
      $('#chaos-state').textContent = chaos.data.seed !== null && chaos.data.seed !== undefined
        ? 'On for every table, seed ' + chaos.data.seed + '.'
        : tables.length ? 'On for ' + tables.map(([t, s]) => t + ' (seed ' + s + ')').join(', ') + '.' : 'Off.';
    }
    const faults = await admin('GET', '/_dynapage/faults');
    if (faults.ok) {
      $('#fault-list').replaceChildren(...(faults.data.rules.length ? faults.data.rules.map((rule) =>
        el('li', { class: 'mono' }, JSON.stringify(rule))) : [el('li', {}, 'No rules.')]));
    }
    const clock = await admin('POST', '/_dynapage/clock', {});
    if (clock.ok) $('#clock-state').textContent = 'The server\'s clock: ' + new Date(clock.data.epoch_ms).toISOString();
    await loadMetrics();
  }

  const METRICS = ['dynapage_tables', 'dynapage_items', 'dynapage_table_bytes', 'process_resident_memory_bytes',
    'dynapage_pages_total', 'dynapage_continuations_issued_total', 'dynapage_continuations_followed_total',
    'dynapage_faults_injected_total', 'dynapage_chaos_applied_total', 'dynapage_items_returned_total'];

  async function loadMetrics() {
    const answer = await admin('GET', '/metrics');
    if (!answer.ok) return;
    const values = new Map();
    for (const line of answer.text.split('\n')) {
      const match = /^([a-z_]+)(\{[^}]*\})? ([0-9.e+-]+)$/.exec(line);
      if (!match) continue;
      if (match[1] === 'dynapage_requests_total') {
        values.set('requests', (values.get('requests') || 0) + Number(match[3]));
      } else if (!match[2]) {
        values.set(match[1], Number(match[3]));
      }
    }
    const rows = ['requests', ...METRICS].filter((name) => values.has(name)).map((name) =>
      el('tr', {}, el('th', { scope: 'row' }, name === 'requests' ? 'dynapage_requests_total (sum)' : name),
        el('td', { class: 'num' }, values.get(name))));
    if (!values.has('requests')) {
      rows.push(el('tr', {}, el('td', { colspan: 2 }, 'Start dynapage with --metrics for the request counters.')));
    }
    $('#metrics tbody').replaceChildren(...rows);
  }

  async function benchCall(what, method, path, body) {
    const answer = await run(what, () => admin(method, path, body));
    if (answer.ok) say(what + ': done.');
    await loadBench();
    return answer;
  }

  function wireBench() {
    $('#chaos-form').addEventListener('submit', (event) => {
      event.preventDefault();
      const f = event.target.elements;
      const body = { seed: Number(f.seed.value) };
      if (f.table.value) body.table = f.table.value;
      benchCall('Page chaos on', 'POST', '/_dynapage/chaos', body);
    });
    $('#chaos-off').addEventListener('click', () => {
      const table = $('#chaos-form').elements.table.value;
      benchCall('Page chaos off', 'DELETE', '/_dynapage/chaos' + (table ? '?table=' + encodeURIComponent(table) : ''));
    });
    $('#fault-form').addEventListener('submit', (event) => {
      event.preventDefault();
      let rule;
      try { rule = JSON.parse($('#fault-json').value); } catch (e) {
        say('The rule is not JSON: ' + e.message, true);
        return;
      }
      benchCall('Adding the fault rule', 'POST', '/_dynapage/faults', rule);  // validated by the admin API
    });
    $('#faults-clear').addEventListener('click', () => benchCall('Removing the fault rules', 'DELETE', '/_dynapage/faults'));
    $('#reset-form').addEventListener('submit', (event) => {
      event.preventDefault();
      const table = event.target.elements.table.value;
      if (!confirm(table ? 'Empty table ' + table + '?' : 'Delete every table of this namespace?')) return;
      benchCall('Reset', 'POST', '/_dynapage/reset' + (table ? '?table=' + encodeURIComponent(table) : ''), {});
    });
    $('#clock-form').addEventListener('submit', (event) => {
      event.preventDefault();
      benchCall('Moving the clock', 'POST', '/_dynapage/clock?scope=all',
        { advance_ms: Number(event.target.elements.advance.value) });
    });
    $('#clock-reset').addEventListener('click', () =>
      benchCall('Resetting the clock', 'POST', '/_dynapage/clock?scope=all', { reset: true }));
    $('#ttl-sweep').addEventListener('click', async () => {
      const answer = await benchCall('TTL sweep', 'POST', '/_dynapage/ttl/sweep', {});
      if (answer.ok) say('TTL sweep: ' + answer.data.ExpiredItems + ' item(s) expired.');
    });
  }

  // ---- views ---------------------------------------------------------------------------------------------------
  const LOADERS = {
    namespaces: loadNamespaces, tables: loadTables, items: loadItemsView, timeline: refreshTimeline, bench: loadBench,
  };
  const POLLED = { timeline: refreshTimeline, bench: loadMetrics };

  // Polls the view's live data every POLL_MS while the page is visible; one poll at a time.
  function schedulePoll() {
    clearTimeout(state.pollTimer);
    const poll = POLLED[state.view];
    if (!poll || document.visibilityState !== 'visible') return;
    state.pollTimer = setTimeout(async () => {
      try { await poll(); } finally { schedulePoll(); }
    }, POLL_MS);
  }

  async function show(view) {
    if (!LOADERS[view]) view = 'namespaces';
    state.view = view;
    for (const section of document.querySelectorAll('main > section')) section.hidden = section.dataset.view !== view;
    for (const link of document.querySelectorAll('nav a')) {
      if (link.dataset.view === view) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
    document.body.dataset.loading = 'true';
    try {
      await LOADERS[view]();
    } finally {
      document.body.dataset.loading = 'false';
      document.body.dataset.view = view;
      schedulePoll();
    }
  }

  async function start() {
    let saved = null;
    try { saved = JSON.parse(localStorage.getItem('dynapage-console-namespace')); } catch (e) {}
    state.accessKey = (saved && saved.accessKey) || 'AKIDCONSOLE';
    state.region = (saved && saved.region) || 'us-east-1';
    const params = new URLSearchParams(location.search);  // ?access_key=…&region=… (a link to a namespace)
    if (params.get('access_key')) state.accessKey = params.get('access_key');
    if (params.get('region')) state.region = params.get('region');
    $('#access-key').value = state.accessKey;
    $('#region').value = state.region;
    $('#namespace-form').addEventListener('submit', (event) => {
      event.preventDefault();
      useNamespace($('#access-key').value.trim(), $('#region').value.trim());
    });
    $('#create-table-form').addEventListener('submit', createTable);
    $('#read-form').addEventListener('submit', firstPage);
    $('#read-table').addEventListener('change', chooseTable);
    $('#read-index').addEventListener('change', chooseIndex);
    $('#read-next').addEventListener('click', readPage);
    $('#read-all').addEventListener('click', allPages);
    $('#item-form').addEventListener('submit', putItem);
    wireBench();
    window.addEventListener('hashchange', () => show(location.hash.slice(1)));
    document.addEventListener('visibilitychange', schedulePoll);
    await loadNamespaces();
    await show(location.hash.slice(1) || 'namespaces');
  }

  document.addEventListener('DOMContentLoaded', start);
})();
