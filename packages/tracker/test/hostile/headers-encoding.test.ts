import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertErrorCollection } from '../../../../test/support/openapi.js';
import { credentialOf } from '../../../../test/support/seed.js';
import { storeKinds, type TestTracker } from '../../../../test/support/tracker.js';
import { trackerWithFixture, type Fixture } from './fixture.js';
import { ROUTES, WHO, type WriteRoute } from './routes.js';
import {
  assertProperty,
  authOf,
  fcParams,
  jsonHeaders,
  LIMIT,
  noteStatus,
  observableState,
  rawSocket,
  RUNS,
  sendChecked,
  storeFingerprint,
  timeoutFor,
  TIME_BOUND_MS,
  wellFormed,
} from './support.js';

/**
 * Issue 4 "Hostile input", the bytes around and inside a request: arbitrary headers
 * (Content-Type variants, Authorization garbage, encodings, forwarding headers), request heads
 * of arbitrary bytes on a raw socket (broken framing, lying lengths, bare CR/LF, NUL), bodies
 * with invalid UTF-8, and strings up to and past the 1 MiB body limit.
 */

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json;charset=UTF-8',
  'APPLICATION/JSON',
  'application/json; charset="utf-8"',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/vnd.api+json',
  'application/json-patch+json',
  'application/merge-patch+json',
  'text/plain',
  'text/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  '',
  ';',
  'application/json; boundary=x',
  'application/json, text/plain',
  '*/*',
  'application/*',
  'application/json; charset=utf-8; charset=latin1',
  ' application/json',
  'application/json ',
  'application/jsonp',
];

/** Header values node:http will send: visible ASCII, space, tab and Latin-1 bytes. */
const headerValue = fc.string({
  unit: fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff })).map((c) => String.fromCharCode(c)),
  maxLength: 60,
});
const headerName = fc.stringMatching(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,20}$/);

/** Authorization values: the real one, someone else's, garbage, Basic with broken base64 or no colon, Bearer, odd spacing. */
export const authorizationGarbage = (valid: string) =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constant(valid) },
    { weight: 1, arbitrary: headerValue },
    { weight: 1, arbitrary: headerValue.map((v) => `Basic ${v}`) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 40 }).map((b) => `Basic ${Buffer.from(b).toString('base64')}`) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 })).map(([u, p]) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'Basic',
        'Basic ',
        'basic',
        'BASIC ' + valid.slice(6),
        valid.toLowerCase(),
        valid.replace('Basic ', 'Basic  '),
        `${valid} `,
        `${valid}=`,
        valid.slice(0, -2),
        `${valid}${valid.slice(6)}`,
        'Bearer x',
        'Digest username="a"',
        `Basic ${Buffer.from(':').toString('base64')}`,
        `Basic ${Buffer.from('a@b:').toString('base64')}`,
        `Basic ${Buffer.from(':tok').toString('base64')}`,
        'Basic ====',
        'Basic !!!!',
        `Basic ${'A'.repeat(4000)}`,
      ),
    },
  );

describe.each(await storeKinds())('spec §7 rule 1, hostile input: headers, raw request bytes, invalid UTF-8 and 1 MiB strings (%s)', (kind) => {
  let t: TestTracker;
  let fx: Fixture;
  trackerWithFixture(kind, (tracker, fixture) => {
    t = tracker;
    fx = fixture;
  });

  const urlOf = (route: WriteRoute, form: 'gateway' | 'site' = 'gateway') =>
    `${form === 'gateway' ? t.api : t.siteApi}${route.path.replace('{k}', fx.targets.task)}`;

  it(
    'every route: arbitrary Content-Type, Accept, Authorization, encodings and extra headers never get a 5xx, and nothing is written without a valid credential',
    async () => {
      const routes = Object.values(ROUTES);
      await assertProperty(
        fc.asyncProperty(
          fc.constantFrom(...routes),
          fc.nat(),
          fc.constantFrom(...WHO).chain((who) => fc.tuple(fc.constant(who), authorizationGarbage(authOf(who)))),
          fc.constantFrom('gateway', 'site'),
          fc.oneof(
            { weight: 3, arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'Application/JSON;Charset="UTF-8"') },
            { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
            { weight: 1, arbitrary: headerValue },
          ),
          fc.option(fc.oneof(fc.constantFrom('application/json', 'application/xml', 'text/html', '*/*', ''), headerValue)),
          fc.option(fc.constantFrom('gzip', 'br', 'deflate', 'identity', 'x-unknown', 'gzip, identity')),
          fc.array(
            fc.tuple(
              fc.oneof(
                fc.constantFrom(
                  'X-Forwarded-For',
                  'X-Forwarded-Host',
                  'X-Forwarded-Proto',
                  'X-Atlassian-Token',
                  'x-atlassian-force-account-id',
                  'Cookie',
                  'Origin',
                  'Expect',
                  'Connection',
                  'Upgrade',
                  'TE',
                  'Range',
                  'If-Match',
                  'X-HTTP-Method-Override',
                ),
                headerName,
              ),
              headerValue,
            ),
            { maxLength: 5 },
          ),
          async (route, pick, [who, auth], form, contentType, accept, encoding, extra) => {
            const valid = route.valid(fx);
            const body = valid[pick % valid.length];
            const headers: Record<string, string> = { Authorization: auth, 'Content-Type': contentType };
            if (accept !== null) headers.Accept = accept;
            if (encoding !== null) headers['Content-Encoding'] = encoding;
            for (const [name, value] of extra) if (!/^(content-length|transfer-encoding|host|authorization|content-type)$/i.test(name)) headers[name] = value;
            const watched = [fx.targets.task, fx.targets.parent];
            const before = await observableState(t, watched);
            const r = await sendChecked({
              method: route.method,
              url: urlOf(route, form),
              headers,
              ...(body === undefined ? {} : { body: JSON.stringify(body) }),
            });
            if (r.status >= 400) {
              expect(await observableState(t, watched)).toEqual(before);
            } else {
              // A 2xx on an authenticated route means the header carried exactly the caller's credential.
              const { email, token } = credentialOf(who);
              const b64 = /^Basic\s+(\S+)\s*$/i.exec(auth)?.[1];
              expect(
                b64 === undefined ? null : Buffer.from(b64, 'base64').toString('utf8'),
                `${route.name} → ${r.status} with Authorization ${auth.slice(0, 60)}`,
              ).toBe(`${email}:${token}`);
              await fx.ensure();
            }
          },
        ),
      );
    },
    timeoutFor(RUNS, 400),
  );

  it(
    'raw request heads of arbitrary bytes (broken request lines, bare CR/LF, NUL, duplicate or lying lengths, bad chunking) get a 4xx ErrorCollection or a closed connection, never a 5xx or a hang, and write nothing unaccepted',
    async () => {
      const path = new URL(t.api).pathname;
      const valid = JSON.stringify({ body: { type: 'doc', version: 1, content: [{ type: 'paragraph', content: [{ type: 'text', text: 'raw' }] }] } });
      const piece = fc.oneof(
        fc.uint8Array({ maxLength: 12 }).map((b) => Buffer.from(b).toString('latin1')),
        fc.constantFrom(
          '\r',
          '\n',
          '\r\n',
          '\0',
          ' ',
          '\t',
          ':',
          '\u00ff',
          '\r\n ',
          'HTTP/1.1',
          'Content-Length: 5',
          'Content-Length: -1',
          'Content-Length: 99999999999',
          'Transfer-Encoding: chunked',
          'Transfer-Encoding: chunked, identity',
          'Content-Length: 1\r\nContent-Length: 2',
          `Authorization: ${authOf('assigner')}`,
          'Host:',
          'Expect: 100-continue',
          'Expect: teapot',
          'Upgrade: h2c\r\nConnection: Upgrade',
        ),
      );
      await assertProperty(
        fc.asyncProperty(
          fc.oneof(
            { weight: 4, arbitrary: fc.constant('POST') },
            { weight: 1, arbitrary: fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH', 'CONNECT', 'G\0T', '', 'post', 'PRI') },
          ),
          fc.constantFrom(
            `${path}/issue/${fx.targets.task}/comment`,
            `${path}/myself`,
            '*',
            '/',
            `${path}/issue/${fx.targets.task}/comment?x=\u00e9`,
            `${path}/issue/ABC-1 /comment`,
            'http://x/rest/api/3/myself',
            '%',
          ),
          fc.oneof(
            { weight: 4, arbitrary: fc.constant('HTTP/1.1') },
            { weight: 1, arbitrary: fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1 extra', 'HTTP/9', '') },
          ),
          fc.oneof({ weight: 1, arbitrary: fc.constant([]) }, { weight: 2, arbitrary: fc.array(piece, { maxLength: 6 }) }),
          fc.constantFrom('length', 'chunked', 'lying', 'none', 'chunk-garbage'),
          async (method, target, version, junk, framing) => {
            const lines = [`${method} ${target} ${version}`, 'Host: 127.0.0.1', `Authorization: ${authOf('assigner')}`, 'Content-Type: application/json'];
            lines.push(...junk.join('').split('\n'));
            let body = '';
            if (framing === 'length') {
              lines.push(`Content-Length: ${Buffer.byteLength(valid)}`);
              body = valid;
            }
            if (framing === 'lying') {
              lines.push(`Content-Length: ${Buffer.byteLength(valid) + 50}`);
              body = valid;
            }
            if (framing === 'chunked') {
              lines.push('Transfer-Encoding: chunked');
              body = `${Buffer.byteLength(valid).toString(16)}\r\n${valid}\r\n0\r\n\r\n`;
            }
            if (framing === 'chunk-garbage') {
              lines.push('Transfer-Encoding: chunked');
              body = `zz\r\n${valid}\r\n`;
            }
            const before = await storeFingerprint(t);
            const r = await rawSocket(t.url, Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), Buffer.from(body)]));
            noteStatus(r.status);
            const what = `${JSON.stringify(lines).slice(0, 300)} → ${r.head.slice(0, 200)} ${r.text.slice(0, 200)}`;
            expect(r.ms, what).toBeLessThan(TIME_BOUND_MS);
            expect(r.status === 0 || (r.status >= 100 && r.status < 500), what).toBe(true);
            if (r.status >= 400 && r.text !== '') assertErrorCollection(r.body);
            // After an answer that closes the connection, nothing more is written to it.
            if (/\r\nconnection: *close/i.test(r.head)) expect(r.trailing, what).toEqual([]);
            const after = (await storeFingerprint(t)) as typeof before & { comments: { n: number } };
            if (r.status >= 400) expect(after, what).toEqual(before);
            if (r.status === 0) {
              // Closed without an answer (the client half-closed, or framing broke after a whole
              // request): the outcome is unknown to the client, so the write may have happened, but
              // only whole: nothing but one more comment.
              expect({ ...after, comments: before.comments }, what).toEqual(before);
              expect(after.comments.n - (before as typeof after).comments.n, what).toBeLessThanOrEqual(1);
            }
          },
        ),
      );
    },
    timeoutFor(RUNS, 300),
  );

  it(
    'invalid UTF-8 anywhere in a JSON body is read as U+FFFD (as a WHATWG decoder does) or refused, never stored raw, never a 5xx',
    async () => {
      const invalid = fc.oneof(
        fc.constantFrom(
          [0xff],
          [0xfe],
          [0x80],
          [0xc3],
          [0xc3, 0x28],
          [0xe2, 0x82],
          [0xe2, 0x28, 0xa1],
          [0xc0, 0xaf],
          [0xe0, 0x80, 0xaf],
          [0xed, 0xa0, 0x80],
          [0xed, 0xbf, 0xbf],
          [0xf4, 0x90, 0x80, 0x80],
          [0xf8, 0x88, 0x80, 0x80, 0x80],
          [0xf0, 0x9f, 0x98],
        ),
        fc.array(fc.integer({ min: 0x80, max: 0xff }), { minLength: 1, maxLength: 6 }),
      );
      const targets = [
        { route: ROUTES.create!, body: (s: string) => `{"fields":{"project":{"key":"ABC"},"issuetype":{"name":"Task"},"summary":"${s}"}}` },
        {
          route: ROUTES.comment!,
          body: (s: string) => `{"body":{"type":"doc","version":1,"content":[{"type":"paragraph","content":[{"type":"text","text":"${s}"}]}]}}`,
        },
        { route: ROUTES.edit!, body: (s: string) => `{"fields":{"summary":"${s}"}}` },
        { route: ROUTES.searchPost!, body: (s: string) => `{"jql":"summary ~ \\"${s}\\""}` },
        { route: ROUTES.assign!, body: (s: string) => `{"accountId":"${s}"}` },
        { route: ROUTES.transition!, body: (s: string) => `{"transition":{"id":"${s}"}}` },
      ];
      await assertProperty(
        fc.asyncProperty(
          fc.constantFrom(...targets),
          fc.string({ maxLength: 10 }).map((s) => s.replace(/["\\\u0000-\u001f]/g, '')),
          invalid,
          fc.nat({ max: 10 }),
          fc.boolean(),
          async ({ route, body }, text, bad, at, inKey) => {
            const cut = Math.min(at, text.length);
            const marker = '\u0001MARK\u0001';
            const template = inKey
              ? body(`${text.slice(0, cut)}${text.slice(cut)}`).replace('{"', `{"${marker}`)
              : body(`${text.slice(0, cut)}${marker}${text.slice(cut)}`);
            const [head, tail] = template.split(marker) as [string, string];
            const bytes = Buffer.concat([Buffer.from(head), Buffer.from(bad), Buffer.from(tail)]);
            const decoded = new TextDecoder().decode(bytes);
            const watched = [fx.targets.task];
            const before = await observableState(t, watched);
            const r = await sendChecked({ method: route.method, url: urlOf(route), headers: jsonHeaders('assigner'), body: bytes });
            if (r.status >= 400) {
              expect(await observableState(t, watched)).toEqual(before);
              return;
            }
            const sent = JSON.parse(decoded);
            if ((route === ROUTES.create || route === ROUTES.edit) && typeof sent.fields?.summary === 'string') {
              const key = route === ROUTES.create ? (r.body as { key: string }).key : fx.targets.task;
              const read = await sendChecked({ method: 'GET', url: `${t.api}/issue/${key}?fields=summary`, headers: jsonHeaders('assigner') });
              expect((read.body as any).fields.summary).toBe(wellFormed(sent.fields.summary));
            }
            if (route === ROUTES.comment) {
              const read = await sendChecked({
                method: 'GET',
                url: `${t.api}/issue/${fx.targets.task}/comment?orderBy=-created&maxResults=1`,
                headers: jsonHeaders('assigner'),
              });
              expect((read.body as any).comments[0].id).toBe((r.body as { id: string }).id);
              expect((read.body as any).comments[0].body).toEqual(sent.body);
            }
            await fx.ensure();
          },
        ),
      );
    },
    timeoutFor(RUNS, 300),
  );

  it(
    'strings up to and past 1 MiB in every field (ASCII, multi-byte, escaped) are 413 past the limit, 2xx/4xx below it, never a 5xx; an accepted one reads back whole',
    async () => {
      const fields = [
        {
          route: ROUTES.comment!,
          body: (s: string) => ({ body: { type: 'doc', version: 1, content: [{ type: 'paragraph', content: [{ type: 'text', text: s }] }] } }),
        },
        {
          route: ROUTES.create!,
          body: (s: string) => ({
            fields: {
              project: { key: 'ABC' },
              issuetype: { name: 'Task' },
              summary: 'big description',
              description: { type: 'doc', version: 1, content: [{ type: 'codeBlock', content: [{ type: 'text', text: s }] }] },
            },
          }),
        },
        { route: ROUTES.create!, body: (s: string) => ({ fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: s } }) },
        {
          route: ROUTES.edit!,
          body: (s: string) => ({
            fields: { summary: 'big', description: { type: 'doc', version: 1, content: [{ type: 'paragraph', content: [{ type: 'text', text: s }] }] } },
          }),
        },
        { route: ROUTES.searchPost!, body: (s: string) => ({ jql: `summary ~ "${s}"` }) },
        { route: ROUTES.searchPost!, body: (s: string) => ({ jql: 'project = ABC', nextPageToken: s }) },
        { route: ROUTES.assign!, body: (s: string) => ({ accountId: s }) },
        { route: ROUTES.transition!, body: (s: string) => ({ transition: { id: s } }) },
      ];
      const runs = Math.max(4, Math.round(RUNS / 3));
      await assertProperty(
        fc.asyncProperty(
          fc.constantFrom(...fields),
          fc.constantFrom('x', 'é', '👍', '\\', '"', 'ab '),
          fc.constantFrom(-600, -300, -120, -1, 0, 1, 64, 4096),
          fc.constantFrom(1, 0.5, 0.25),
          async ({ route, body }, unit, delta, share) => {
            const overhead = Buffer.byteLength(JSON.stringify(body('')));
            const unitBytes = Buffer.byteLength(JSON.stringify(unit)) - 2;
            const count = Math.max(1, Math.floor((LIMIT * share - overhead + (share === 1 ? delta : 0)) / unitBytes));
            const value = unit.repeat(count);
            const text = JSON.stringify(body(value));
            const watched = [fx.targets.task];
            const before = await observableState(t, watched);
            const r = await sendChecked({ method: route.method, url: urlOf(route), headers: jsonHeaders('assigner'), body: text });
            if (Buffer.byteLength(text) > LIMIT) expect(r.status).toBe(413);
            if (r.status >= 400) {
              expect(await observableState(t, watched)).toEqual(before);
              return;
            }
            if (route === ROUTES.comment) {
              const read = await sendChecked({
                method: 'GET',
                url: `${t.api}/issue/${fx.targets.task}/comment?orderBy=-created&maxResults=1`,
                headers: jsonHeaders('assigner'),
              });
              expect((read.body as any).comments[0].body.content[0].content[0].text.length).toBe(value.length);
            }
            await fx.ensure();
          },
        ),
        fcParams(runs),
      );
    },
    timeoutFor(RUNS, 1500),
  );

  it('a lone UTF-16 surrogate in a summary (an emoji cut in half) is stored as one U+FFFD on both stores', async () => {
    const r = await sendChecked({
      method: 'POST',
      url: `${t.api}/issue`,
      headers: jsonHeaders('assigner'),
      body: '{"fields":{"project":{"key":"ABC"},"issuetype":{"name":"Task"},"summary":"cut \\ud83d here \\udc4d"}}',
    });
    expect(r.status).toBe(201);
    const read = await sendChecked({
      method: 'GET',
      url: `${t.api}/issue/${(r.body as { key: string }).key}?fields=summary`,
      headers: jsonHeaders('assigner'),
    });
    expect((read.body as any).fields.summary).toBe('cut \uFFFD here \uFFFD');
  });

  it('a request the HTTP parser refuses, or with headers over the size limit, is answered 400/431 with an ErrorCollection', async () => {
    const bad = await rawSocket(t.url, Buffer.from('GET /rest/api/3/myself HTTP/1.1\r\nHost: x\r\nBroken header line\r\n\r\n'));
    expect(bad.status).toBe(400);
    assertErrorCollection(bad.body);
    const huge = await rawSocket(t.url, Buffer.from(`GET /rest/api/3/myself HTTP/1.1\r\nHost: x\r\nX-Pad: ${'p'.repeat(20_000)}\r\n\r\n`));
    expect(huge.status).toBe(431);
    assertErrorCollection(huge.body);
    const longUrl = await rawSocket(t.url, Buffer.from(`GET /rest/api/3/user/search?query=${'q'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`));
    expect(longUrl.status).toBe(431);
    assertErrorCollection(longUrl.body);
  });
});
