import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestTracker, storeKinds, type Reply, type TestTracker } from '../../../../test/support/tracker.js';
import { assertErrorCollection } from '../../../../test/support/openapi.js';
import { EMAILS, TOKENS } from '../../../../test/support/seed.js';

const LIMIT = 1024 * 1024;
const task = (summary = 'A task', extra: Record<string, unknown> = {}) => ({
  fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary, ...extra },
});
const JSON_CT = { 'Content-Type': 'application/json' };

/** One request over a raw socket (for what fetch cannot send); the server closes after answering. */
function rawHttp(url: string, head: string, body: Buffer | string = ''): Promise<{ status: number; body: any }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const sock = net.connect(Number(port), hostname);
    let data = '';
    sock.on('data', (d) => {
      data += d.toString('utf8');
    });
    sock.on('error', (e) => (data ? undefined : reject(e)));
    sock.on('close', () => {
      const at = data.indexOf('\r\n\r\n');
      const text = data.slice(at + 4);
      resolve({ status: Number(data.split(' ')[1]), body: text ? JSON.parse(text) : undefined });
    });
    sock.write(Buffer.concat([Buffer.from(`${head.trim().replace(/\n/g, '\r\n')}\r\nConnection: close\r\n\r\n`), Buffer.from(body)]));
  });
}

describe.each(await storeKinds())('spec §7 / NOTES ErrorCollection: hostile and malformed input (%s)', (kind) => {
  let t: TestTracker;
  /** The number of the last issue created in ABC: a rejected write must not advance it. */
  let last = 0;
  const auth = basic(EMAILS.assigner, TOKENS.assigner);
  const send = (method: string, path: string, body?: string | Uint8Array, headers: Record<string, string> = JSON_CT) =>
    t.as('assigner').raw(path, { method, headers, ...(body !== undefined ? { body } : {}) });
  const created = (r: Reply) => {
    expect(r.status, r.text).toBe(201);
    last = Number(String(r.body.key).split('-')[1]);
    return r.body.key as string;
  };
  /** Nothing was written: the next key is still free, and ABC-1 reads as before. */
  const nothingWritten = async () => {
    expect((await t.as('assigner').get(`/issue/ABC-${last + 1}`)).status).toBe(404);
    const first = await t.as('assigner').get('/issue/ABC-1?fields=summary,status,assignee');
    expect(first.body.fields).toEqual({ summary: 'The first issue', status: expect.objectContaining({ name: 'To Do' }), assignee: null });
  };

  beforeAll(async () => {
    t = await startTestTracker(kind);
    created(await t.as('assigner').post('/issue', task('The first issue')));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('spec §7 / NOTES (ErrorCollection): malformed JSON is 400 in the vendor shape, nothing written', async () => {
    for (const body of ['{"fields":', '{fields: {}}', "{'fields': {}}", '{"fields":{},}', 'nul', '{"a":1}{"b":2}']) {
      const r = await send('POST', '/issue', body);
      expect(r.status, body).toBe(400);
      expect(r.body.errorMessages[0]).toMatch(/not valid JSON/);
    }
    expect((await send('PUT', '/issue/ABC-1', '{"fields":{"summary":"x"')).status).toBe(400);
    await nothingWritten();
  });

  it('NOTES ErrorCollection: a body over 1 MiB is 413 with a clear message (garbage, valid JSON, or chunked without a length)', async () => {
    const garbage = await send('POST', '/issue', 'x'.repeat(LIMIT + 1));
    const json = await send('POST', '/issue', JSON.stringify(task('y'.repeat(1.1 * LIMIT))));
    const chunks = [JSON.stringify(task('z')).slice(0, -2), ', "pad": "', 'p'.repeat(LIMIT), '"}}'];
    const chunked = await rawHttp(
      t.api,
      `POST ${new URL(t.api).pathname}/issue HTTP/1.1\nHost: x\nAuthorization: ${auth}\nContent-Type: application/json\nTransfer-Encoding: chunked`,
      chunks.map((c) => `${Buffer.byteLength(c).toString(16)}\r\n${c}\r\n`).join('') + '0\r\n\r\n',
    );
    for (const r of [garbage, json, chunked]) {
      expect(r.status).toBe(413);
      assertErrorCollection(r.body);
      expect(r.body.errorMessages[0]).toBe(`The request body is larger than the limit of ${LIMIT} bytes (jst-tracker serve --body-limit).`);
    }
    await nothingWritten();
  });

  it('a body of exactly 1 MiB is not refused for its size', async () => {
    const text = JSON.stringify(task('At the limit'));
    created(await send('POST', '/issue', text + ' '.repeat(LIMIT - Buffer.byteLength(text))));
  });

  it('spec §4 (Content-Type: application/json): a body that is not JSON (text/plain, a form, XML, no Content-Type) is 415, nothing written', async () => {
    const valid = JSON.stringify(task('wrong type'));
    for (const type of ['text/plain', 'text/plain; charset=utf-8', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=x']) {
      const r = await send('POST', '/issue', type.startsWith('application/x-www') ? 'fields=1' : valid, { 'Content-Type': type });
      expect(r.status, type).toBe(415);
      expect(r.body.errorMessages[0]).toMatch(/Content-Type: application\/json/);
    }
    const untyped = await rawHttp(
      t.api,
      `POST ${new URL(t.api).pathname}/issue HTTP/1.1\nHost: x\nAuthorization: ${auth}\nContent-Length: ${valid.length}`,
      valid,
    );
    expect(untyped.status).toBe(415);
    assertErrorCollection(untyped.body);
    await nothingWritten();
  });

  it('spec §4: application/json with a UTF-8 charset parameter (any spelling) is accepted', async () => {
    for (const type of ['application/json; charset=utf-8', 'Application/JSON;Charset="UTF-8"', 'application/vnd.api+json']) {
      created(await send('POST', '/issue', JSON.stringify(task(`typed ${type}`)), { 'Content-Type': type }));
    }
  });

  it('NOTES ErrorCollection: an unknown route is 404 with an ErrorCollection, on every address form', async () => {
    for (const url of [`${t.api}/no-such-thing`, `${t.siteApi}/issues`, `${t.url}/rest/api/1/myself`, `${t.url}/ex/jira`]) {
      const res = await fetch(url, { headers: { Authorization: auth } });
      expect(res.status, url).toBe(404);
      const body = (await res.json()) as any;
      assertErrorCollection(body);
      expect(body.errorMessages[0]).toMatch(/No such resource/);
    }
  });

  it('an unsupported method on a known path is a 4xx and changes nothing', async () => {
    for (const [method, path] of [
      ['PATCH', '/issue/ABC-1'],
      ['PUT', '/issue'],
      ['DELETE', '/myself'],
      ['POST', '/issue/ABC-1/assignee'],
    ]) {
      const r = await send(method!, path!, JSON.stringify({ fields: { summary: 'patched' }, accountId: null }));
      expect(r.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
    }
    await nothingWritten();
  });

  it('a method a known path does not answer is 405 with an Allow header (as the hosted service does); an unknown path stays 404', async () => {
    for (const [method, path, allow] of [
      ['PATCH', '/issue/ABC-1', 'DELETE, GET, HEAD, PUT'],
      ['DELETE', '/myself', 'GET, HEAD'],
      ['PUT', '/issue', 'POST'],
      ['PATCH', '/issue/ABC-1/transitions', 'GET, HEAD, POST'],
    ] as const) {
      const r = await send(method, path, JSON.stringify({ fields: { summary: 'patched' } }));
      expect(r.status, `${method} ${path}`).toBe(405);
      expect(r.headers.get('allow'), `${method} ${path}`).toBe(allow);
      assertErrorCollection(r.body);
      expect(r.body.errorMessages[0]).toContain(`Allowed: ${allow}.`);
    }
    expect((await send('PATCH', '/no/such/thing', '{}')).status).toBe(404);
    await nothingWritten();
  });

  it('spec §7: a JSON array, number, string or null as the body of a write is 400, nothing written', async () => {
    for (const body of ['[]', '[{"fields":{}}]', '42', '"fields"', 'null', 'true']) {
      for (const [method, path] of [
        ['POST', '/issue'],
        ['PUT', '/issue/ABC-1'],
        ['POST', '/issue/ABC-1/comment'],
        ['POST', '/issue/ABC-1/transitions'],
        ['PUT', '/issue/ABC-1/assignee'],
      ]) {
        expect((await send(method!, path!, body)).status, `${method} ${path} ${body}`).toBe(400);
      }
    }
    await nothingWritten();
    expect((await t.as('assigner').get('/issue/ABC-1/comment')).body.total).toBe(0);
  });

  it('__proto__ and constructor keys neither crash the server nor pollute prototypes', async () => {
    const bodies = [
      '{"__proto__":{"polluted":1},"fields":{"project":{"key":"ABC"},"issuetype":{"name":"Task"},"summary":"proto top"}}',
      '{"fields":{"__proto__":{"polluted":1},"project":{"key":"ABC"},"issuetype":{"name":"Task"},"summary":"proto fields"}}',
      '{"constructor":{"prototype":{"polluted":1}},"fields":{"project":{"key":"ABC"},"issuetype":{"name":"Task"},"summary":"ctor"}}',
      '{"fields":{"project":{"key":"ABC","__proto__":{"key":"SEC"}},"issuetype":{"name":"constructor"},"summary":"x"}}',
    ];
    for (const body of bodies) {
      const r = await send('POST', '/issue', body);
      expect([201, 400], body).toContain(r.status);
      if (r.status === 201) expect((await t.as('assigner').get(`/issue/${created(r)}?fields=project`)).body.fields.project.key).toBe('ABC');
    }
    for (const [method, path, body] of [
      ['POST', '/issue/ABC-1/transitions', '{"transition":{"id":"__proto__"}}'],
      ['POST', '/issue/ABC-1/transitions', '{"transition":{"id":"constructor"}}'],
      ['PUT', '/issue/ABC-1/assignee', '{"accountId":"__proto__"}'],
      ['PUT', '/issue/ABC-1', '{"fields":{"constructor":{}}}'],
    ]) {
      expect((await send(method!, path!, body)).status, body).toBe(400);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    await nothingWritten();
  });

  it('spec §7 (invalid transition id → 400): a transition id that is an object or an array is 400, not a crash', async () => {
    for (const id of ['{"toString":1}', '[21]', `${'['.repeat(5000)}${']'.repeat(5000)}`]) {
      expect((await send('POST', '/issue/ABC-1/transitions', `{"transition":{"id":${id}}}`)).status).toBe(400);
    }
    await nothingWritten();
  });

  it('spec §4 endpoint 13: DELETE with Content-Type: application/json and an empty body works (curl sends that)', async () => {
    const a = created(await t.as('assigner').post('/issue', task('delete me (empty body)')));
    expect((await send('DELETE', `/issue/${a}`, '')).status).toBe(204);
    expect((await t.as('assigner').get(`/issue/${a}`)).status).toBe(404);
    const b = created(await t.as('assigner').post('/issue', task('delete me (no length)')));
    const r = await rawHttp(t.api, `DELETE ${new URL(t.api).pathname}/issue/${b} HTTP/1.1\nHost: x\nAuthorization: ${auth}\nContent-Type: application/json`);
    expect(r.status).toBe(204);
    expect((await t.as('assigner').get(`/issue/${b}`)).status).toBe(404);
  });

  it('NOTES (startAt/maxResults): query parameter abuse is 400 or clamped, never a 5xx', async () => {
    const pages = ['/user/search?query=a', '/project/search?query=', '/issue/ABC-1/comment?orderBy=created'];
    for (const page of pages) {
      for (const bad of ['startAt=-1', 'maxResults=abc', 'maxResults=-5', 'startAt=1.5', 'startAt=1e3', 'maxResults=0x10']) {
        const r = await t.as('assigner').get(`${page}&${bad}`);
        expect(r.status, `${page}&${bad}`).toBe(400);
        expect(r.body.errorMessages[0]).toMatch(/startAt|maxResults/);
      }
      const huge = await t.as('assigner').get(`${page}&maxResults=99999999999999999999`);
      expect(huge.status).toBe(200);
      if (!Array.isArray(huge.body)) expect(huge.body.maxResults).toBeLessThanOrEqual(5000);
      const far = await t.as('assigner').get(`${page}&startAt=99999999999999999999`);
      expect(far.status).toBe(200);
      expect(Array.isArray(far.body) ? far.body : (far.body.values ?? far.body.comments)).toEqual([]);
      expect((await t.as('assigner').get(`${page}&startAt=0&startAt=1&maxResults=2&maxResults=`)).status).toBe(200);
    }
    expect((await t.as('assigner').get('/issue/ABC-1/comment?orderBy=__proto__')).status).toBe(400);
    expect((await t.as('assigner').get('/issue/ABC-1?fields=__proto__,constructor,toString')).body.fields).toEqual({});
    expect((await t.as('assigner').del('/issue/ABC-1?deleteSubtasks=maybe')).status).toBe(400);
    expect((await t.as('assigner').put('/issue/ABC-1?returnIssue=yes', { fields: { summary: 'never' } })).status).toBe(400);
    await nothingWritten();
  });

  it('spec §7 (issue missing → 404): ids and issue numbers beyond 32 bits are 404, not a database error', async () => {
    for (const path of [
      '/issue/99999999999999',
      '/issue/ABC-999999999999',
      '/issue/ABC-2147483648',
      '/issue/99999999999999/comment',
      '/issue/99999999999999/transitions',
    ]) {
      expect((await t.as('assigner').get(path)).status, path).toBe(404);
    }
    expect((await t.as('assigner').get('/project/99999999999999/statuses')).status).toBe(404);
    const r = await t.as('assigner').post('/issue', task('x', { issuetype: { name: 'Subtask' }, parent: { id: '99999999999999' } }));
    expect(r.body.errors.parent).toBeDefined();
    await nothingWritten();
  });

  it('invalid UTF-8 bytes in a body are replaced (U+FFFD) or refused, never stored raw', async () => {
    const head = '{"fields":{"project":{"key":"ABC"},"issuetype":{"name":"Task"},"summary":"bad ';
    const body = Buffer.concat([Buffer.from(head), Buffer.from([0xff, 0xfe, 0xc3, 0x20]), Buffer.from('end"}}')]);
    const r = await send('POST', '/issue', body);
    expect([201, 400]).toContain(r.status);
    if (r.status === 201) {
      const read = await t.as('assigner').get(`/issue/${created(r)}?fields=summary`);
      expect(read.body.fields.summary).toMatch(/^bad \uFFFD+ end$/);
    }
  });

  it('ARCHITECTURE §8 (one behaviour on both stores): a NUL character (\\u0000 in a body, %00 in a URL, in a credential) is refused alike on every store', async () => {
    for (const body of [JSON.stringify(task('a\u0000b')), JSON.stringify({ fields: { project: { key: 'A\u0000BC' } } })]) {
      expect((await send('POST', '/issue', body)).body.errorMessages[0]).toMatch(/NUL/);
    }
    expect((await send('PUT', '/issue/ABC-1/assignee', '{"accountId":"a\\u0000b"}')).status).toBe(400);
    expect(
      (
        await send(
          'POST',
          '/issue/ABC-1/comment',
          JSON.stringify({ body: { type: 'doc', version: 1, content: [{ type: 'paragraph', content: [{ type: 'text', text: '\u0000' }] }] } }),
        )
      ).status,
    ).toBe(400);
    for (const path of ['/user/search?query=a%00b', '/user/search?accountId=%00', '/project/search?query=%00', '/project/A%00BC/statuses', '/issue/ABC%00-1']) {
      expect((await t.as('assigner').get(path)).status, path).toBe(400);
    }
    const nulUser = await t.as('assigner').raw('/myself', { headers: { Authorization: basic(`${EMAILS.assigner}\u0000`, TOKENS.assigner) } });
    expect(nulUser.status).toBe(401);
    await nothingWritten();
  });

  it('NOTES ErrorCollection: a malformed URL is 400 and an over-long path parameter 414, both as ErrorCollection', async () => {
    expect((await t.as('assigner').get('/issue/%E0%A4%A')).status).toBe(400);
    const long = await t.as('assigner').get(`/issue/ABC-${'1'.repeat(300)}`);
    expect(long.status).toBe(414);
    expect(long.body.errorMessages[0]).toMatch(/longer than 200/);
  });

  it('ARCHITECTURE §17: a JQL over 100,000 characters is 400 saying the limit (docs/limits.md), not that it must be a string', async () => {
    const long = `summary ~ "${'a'.repeat(100_000)}"`;
    const inBody = await t.as('assigner').post('/search/jql', { jql: long });
    expect(inBody.status).toBe(400);
    assertErrorCollection(inBody.body);
    expect(inBody.body.errorMessages).toEqual(["'jql' is longer than 100000 characters."]);
    // In the query string such a JQL is over the URL's own limit first (431, docs/limits.md).
    // A value of the wrong type still says what it must be.
    expect((await t.as('assigner').post('/search/jql', { jql: 5 })).body.errorMessages).toEqual(["'jql' must be a string."]);
  });

  it('ARCHITECTURE §8 (per-project counter): after every rejected write the project counter continues with the next key', async () => {
    const expected = `ABC-${last + 1}`;
    expect(created(await t.as('assigner').post('/issue', task('after the abuse')))).toBe(expected);
    await nothingWritten();
  });
});
