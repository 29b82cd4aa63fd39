import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { html } from '../../src/kit/html.js';
import { adf, basic, storeKinds } from '../../../../test/support/tracker.js';
import { credentialOf } from '../../../../test/support/seed.js';
import { CH_TOKENS, OWNER, REPO, startCodehostServer, type CodehostServer } from '../codehost/support.js';

/**
 * docs/limits.md "Control characters on a page": C0 (but tab, newline, carriage return), DEL, C1
 * and the bidirectional overrides and isolates never reach a page raw; each shows as a visible
 * `\u202e` marker, in a titled span between tags, bare inside an attribute or `<title>`.
 */
const RAW = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
/** What an attacker writes: a file name that reads backwards, a terminal title, a bell, a C1 CSI, an isolate. */
const SPOOF = 'invoice\u202etxt.exe \u001b]0;owned\u0007 \u009b31m red \u2066iso\u2069';
const SHOWN = 'invoice<span class="ctl" title="control character U+202E">\\u202e</span>txt.exe';

describe('ARCHITECTURE §12: the html template shows control characters as markers', () => {
  it('between tags a titled span, in an attribute or <title> the bare marker; tab and newline stay', () => {
    expect(html`<p>${SPOOF}</p>`.text).toContain(SHOWN);
    expect(html`<p>${'a\tb\nc\rd'}</p>`.text).toBe('<p>a\tb\nc\rd</p>');
    expect(html`<a title="${'x\u202ey'}" href="/k">${'x\u202ey'}</a>`.text).toBe(
      '<a title="x\\u202ey" href="/k">x<span class="ctl" title="control character U+202E">\\u202e</span>y</a>',
    );
    expect(html`<title>${'x\u009by'} · t</title>`.text).toBe('<title>x\\u009by · t</title>');
    expect(html`<textarea name="q">${'\u0007'}</textarea>`.text).toBe('<textarea name="q">\\u0007</textarea>');
    for (const c of ['\u0000', '\u001b', '\u007f', '\u0085', '\u009f', '\u202a', '\u202d', '\u2067', '\u2069']) expect(html`<i>${c}</i>`.text).not.toMatch(RAW);
  });
});

describe.each(await storeKinds())('ARCHITECTURE §12, §14: control characters on the board, issue and review pages (%s)', (kind) => {
  let ch: CodehostServer;
  let key: string;
  let pull: number;
  const get = async (path: string, authorization: string) => {
    const res = await fetch(`${ch.url}${path}`, { headers: { accept: 'text/html', authorization } });
    return { status: res.status, text: await res.text() };
  };
  const tracker = basic(credentialOf('assigner').email, credentialOf('assigner').token);

  beforeAll(async () => {
    ch = await startCodehostServer(kind);
    const post = (path: string, body: unknown) =>
      fetch(`${ch.url}/rest/api/3${path}`, {
        method: 'POST',
        headers: { authorization: tracker, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const created = await post('/issue', {
      fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: 'Pay invoice\u202etxt.exe', description: adf(SPOOF) },
    });
    expect(created.status).toBe(201);
    key = ((await created.json()) as { key: string }).key;
    expect((await post(`/issue/${key}/comment`, { body: adf(SPOOF) })).status).toBe(201);
    const branch = `feature/${key}-spoof`;
    ch.commit(branch, { [`invoice\u202etxt.exe`]: `${SPOOF}\n` }, SPOOF);
    pull = (await ch.as('ada').rest.pulls.create({ owner: OWNER, repo: REPO, title: SPOOF, body: SPOOF, head: branch, base: 'main' })).data.number;
  });
  afterAll(async () => {
    await ch?.close();
  });

  it('the board and the issue page show every control character as a marker, none raw', async () => {
    for (const path of ['/?project=ABC', `/browse/${key}`]) {
      const r = await get(path, tracker);
      expect(r.status, path).toBe(200);
      expect(r.text, path).toContain('Pay invoice<span class="ctl" title="control character U+202E">\\u202e</span>txt.exe');
      expect(r.text, path).not.toMatch(RAW);
    }
    const issue = (await get(`/browse/${key}`, tracker)).text;
    expect(issue).toContain(SHOWN);
    expect(issue).toContain(
      '<span class="ctl" title="control character U+001B">\\u001b</span>]0;owned<span class="ctl" title="control character U+0007">\\u0007</span>',
    );
    expect(issue).toContain('<span class="ctl" title="control character U+009B">\\u009b</span>31m red');
    expect(issue).toContain('<title>');
    expect(/<title>([^<]*)<\/title>/.exec(issue)?.[1]).toContain('Pay invoice\\u202etxt.exe');
  });

  it("the review page shows the title, body, file name, diff line and commit message's control characters as markers, none raw", async () => {
    const r = await get(`/${OWNER}/${REPO}/pull/${pull}`, basic('anyone', CH_TOKENS.vic));
    expect(r.status).toBe(200);
    expect(r.text).not.toMatch(RAW);
    expect(r.text.split(SHOWN).length - 1).toBeGreaterThanOrEqual(4);
  });
});
