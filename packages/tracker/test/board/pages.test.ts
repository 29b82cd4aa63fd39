import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adf, basic, createIssue, startTestTracker, storeKinds, type TestTracker } from '../../../../test/support/tracker.js';
import { CLOUD_ID, credentialOf, EMAILS, type Who } from '../../../../test/support/seed.js';

/** A board page over HTTP, as a browser asks for it (the site form). */
async function page(t: TestTracker, path: string, who?: Who | { authorization: string }, headers: Record<string, string> = {}) {
  const authorization = who === undefined ? undefined : typeof who === 'string' ? basic(credentialOf(who).email, credentialOf(who).token) : who.authorization;
  const res = await fetch(`${t.url}${path}`, { headers: { Accept: 'text/html', ...(authorization ? { Authorization: authorization } : {}), ...headers } });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const XSS = '<img src=x onerror=alert(1)>';

describe.each(await storeKinds())('ARCHITECTURE §12 board pages over HTTP (%s)', (kind) => {
  let t: TestTracker;
  let parent: string;
  let sub: string;
  let hostile: string;
  beforeAll(async () => {
    t = await startTestTracker(kind);
    parent = await createIssue(t, 'assigner', { summary: 'Board parent', assignee: { accountId: (await t.as('executor').get('/myself')).body.accountId } });
    sub = await createIssue(t, 'assigner', { summary: 'Board sub-task', issuetype: { name: 'Subtask' }, parent: { key: parent } });
    hostile = await createIssue(t, 'assigner', { summary: XSS, description: adf('<script>alert(2)</script>') });
    const ids = (await t.as('assigner').get(`/issue/${sub}/transitions`)).body.transitions as { id: string; to: { name: string } }[];
    expect((await t.as('assigner').post(`/issue/${sub}/transitions`, { transition: { id: ids.find((x) => x.to.name === 'Done')!.id } })).status).toBe(204);
    await t.as('assigner').post(`/issue/${parent}/comment`, { body: adf('Assignment report') });
    await t.as('assigner').post(`/issue/${hostile}/comment`, { body: adf('"><script>alert(3)</script>') });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('spec §5: without a credential the board and an issue page are 401 with a Basic challenge, and show no data', async () => {
    for (const path of ['/', `/browse/${parent}`, '/_board/version/ABC']) {
      const r = await page(t, path);
      expect(r.status, path).toBe(401);
      expect(r.headers.get('www-authenticate'), path).toBe('Basic realm="jst-tracker", charset="UTF-8"');
      expect(r.text).not.toContain('Board parent');
      expect(r.text).not.toContain(parent);
    }
  });

  it('spec §7: a wrong token is 401 and shows no data', async () => {
    const r = await page(t, '/', { authorization: basic(EMAILS.assigner, 'not-the-token') });
    expect(r.status).toBe(401);
    expect(r.text).not.toContain('Board parent');
  });

  it('spec §5 rule 4: a scoped token on the site domain gets 401 AUTHENTICATED_FAILED, as on the REST interface', async () => {
    const r = await page(t, '/', 'scopedRead');
    expect(r.status).toBe(401);
    expect(r.text).toContain('AUTHENTICATED_FAILED');
    expect(r.text).not.toContain('Board parent');
  });

  it("the board: columns are the workflow statuses in order; cards in their status column; a sub-task in its parent's lane with progress", async () => {
    const r = await page(t, '/?project=ABC', 'executor');
    expect(r.status).toBe(200);
    expect([...r.text.matchAll(/<h2 class="column-head">([^<]*)<\/h2>/g)].map((m) => m[1])).toEqual(['To Do', 'In Progress', 'In Review', 'Done']);
    expect(r.text).toMatch(
      new RegExp(
        `<article class="card " data-key="${parent}" data-status="To Do">[\\s\\S]*?<span class="progress"[^>]*>1/1</span>[\\s\\S]*?Board parent[\\s\\S]*?Task[\\s\\S]*?Eve Executor`,
      ),
    );
    expect(r.text).toContain(`<article class="card subtask" data-key="${sub}" data-status="Done">`);
    // The parent's lane holds both.
    const lane = r.text.slice(r.text.indexOf(`<h3 class="lane-title"><a href="/browse/${parent}">`));
    expect(lane.slice(0, lane.indexOf('</section>'))).toContain(`data-key="${sub}"`);
  });

  it('a restricted workflow gives its own columns, in workflow order', async () => {
    const r = await page(t, '/?project=RST', 'executor');
    expect([...r.text.matchAll(/<h2 class="column-head">([^<]*)<\/h2>/g)].map((m) => m[1])).toEqual(['Backlog', 'Doing', 'Checking', 'Finished']);
  });

  it('the filter box takes JQL; an error is shown as the search endpoint words it (400)', async () => {
    const ok = await page(t, `/?project=ABC&jql=${encodeURIComponent('status = Done')}`, 'executor');
    expect(ok.status).toBe(200);
    expect(ok.text).toContain(`data-key="${sub}"`);
    expect(ok.text).not.toContain(`data-key="${parent}"`);
    const bad = 'status = = Done';
    const rest = await t.as('executor', 'site').get(`/search/jql?jql=${encodeURIComponent(bad)}`);
    expect(rest.status).toBe(400);
    const r = await page(t, `/?project=ABC&jql=${encodeURIComponent(bad)}`, 'executor');
    expect(r.status).toBe(400);
    expect(r.text).toContain('role="alert"');
    const words = (rest.body.errorMessages as string[])[0]!;
    expect(r.text).toContain(words.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;'));
    expect(r.text).toContain(`value="status = = Done"`);
  });

  it('an invalid JQL filter shows its error and no board under it: no columns, no cards, no polling (400)', async () => {
    const r = await page(t, `/?project=ABC&jql=${encodeURIComponent('status = = Done')}`, 'executor');
    expect(r.status).toBe(400);
    expect(r.text).toContain('role="alert"');
    expect(r.text).not.toContain('class="column-head"');
    expect(r.text).not.toContain('<article class="card');
    for (const key of [parent, sub, hostile]) expect(r.text).not.toContain(`data-key="${key}"`);
    expect(r.text).not.toContain('data-poll=');
    expect(r.text).toContain('No issues are shown until the filter is fixed');
    // The filter stays in the box to be corrected, and the project picker still offers the project.
    expect(r.text).toContain('value="status = = Done"');
    expect(r.text).toMatch(/<option value="ABC" selected/);
  });

  it('spec §7: a project the viewer is not a member of is 404, and never listed', async () => {
    const r = await page(t, '/?project=SEC', 'executor');
    expect(r.status).toBe(404);
    expect((await page(t, '/', 'executor')).text).not.toContain('value="SEC"');
  });

  it('/browse/<KEY> opens the issue page: ADF description, comments, marker comments highlighted', async () => {
    const r = await page(t, `/browse/${parent}`, 'executor');
    expect(r.status).toBe(200);
    expect(r.text).toContain('<span class="summary">Board parent</span>');
    expect(r.text).toContain('<article class="comment marker marker-assignment">');
    expect(r.text).toContain(`<a href="/browse/${sub}">${sub}</a>`);
  });

  it('spec §7: an issue the viewer may not see is the same 404 page as one that does not exist', async () => {
    const hidden = await page(t, `/browse/${parent}`, 'outsider');
    const missing = await page(t, '/browse/ABC-99999', 'executor');
    expect(hidden.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(hidden.text).not.toContain('Board parent');
    const rest = await t.as('outsider', 'site').get(`/issue/${parent}`);
    expect(hidden.text).toContain((rest.body.errorMessages as string[])[0]);
    expect(hidden.text.replace(/Olga Outsider/g, '')).toBe(missing.text.replace(/Eve Executor/g, ''));
  });

  it('escaping: a summary, description or comment holding HTML or script shows as text', async () => {
    const board = await page(t, '/?project=ABC', 'executor');
    const issue = await page(t, `/browse/${hostile}`, 'executor');
    for (const text of [board.text, issue.text]) {
      expect(text).toContain('&lt;img src=x onerror=alert(1)&gt;');
      expect(text).not.toContain('<img');
      expect(text).not.toMatch(/<script>alert/);
    }
    expect(issue.text).toContain('&lt;script&gt;alert(2)&lt;/script&gt;');
    expect(issue.text).toContain('&quot;&gt;&lt;script&gt;alert(3)&lt;/script&gt;');
  });

  it('transition buttons only for a user with the transition permission', async () => {
    expect((await page(t, `/browse/${parent}`, 'executor')).text).toMatch(/<button type="button" class="transition" data-issue="ABC-\d+" data-transition="21"/);
    expect((await page(t, `/browse/${parent}`, 'viewer')).text).not.toContain('class="transition"');
  });

  it('headers: CSP without inline script or style, nosniff, frame denial, no referrer, no-store for pages with data', async () => {
    for (const path of ['/', `/browse/${parent}`]) {
      const r = await page(t, path, 'executor');
      const csp = r.headers.get('content-security-policy')!;
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('x-frame-options')).toBe('DENY');
      expect(r.headers.get('referrer-policy')).toBe('no-referrer');
      expect(r.headers.get('cache-control')).toBe('no-store');
      expect(r.headers.get('set-cookie')).toBeNull();
      // Nothing inline: no <script> with a body, no style attribute, no on* handler.
      expect(r.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(r.text).not.toMatch(/<[a-z][^>]*\s(?:style|on[a-z]+)=/i);
      expect(r.text).not.toContain(credentialOf('executor').token);
    }
    const js = await page(t, '/_board/assets/board.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toContain('text/javascript');
    expect(js.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await page(t, '/_board/assets/nope.js')).status).toBe(404);
  });

  it('polling: the version answers 304 to If-None-Match until the project changes, then a new ETag', async () => {
    const first = await page(t, '/_board/version/ABC', 'executor');
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect((await page(t, '/_board/version/ABC', 'executor', { 'If-None-Match': etag })).status).toBe(304);
    await t.as('assigner').post(`/issue/${parent}/comment`, { body: adf('a change') });
    const after = await page(t, '/_board/version/ABC', 'executor', { 'If-None-Match': etag });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    await t.as('assigner').put(`/issue/${sub}`, { fields: { summary: 'Renamed' } });
    expect((await page(t, '/_board/version/ABC', 'executor', { 'If-None-Match': after.headers.get('etag')! })).status).toBe(200);
    expect((await page(t, '/_board/version/SEC', 'executor')).status).toBe(404);
  });

  it("the REST interface adds the Basic challenge to a 401 only for the board's own calls", async () => {
    const plain = await fetch(`${t.siteApi}/issue/${parent}/transitions`, { method: 'POST' });
    expect(plain.status).toBe(401);
    expect(plain.headers.get('www-authenticate')).toBeNull();
    const board = await fetch(`${t.siteApi}/issue/${parent}/transitions`, { method: 'POST', headers: { 'X-Jst-Board': '1' } });
    expect(board.status).toBe(401);
    expect(board.headers.get('www-authenticate')).toBe('Basic realm="jst-tracker", charset="UTF-8"');
  });

  it("the gateway form serves no pages (it is an API host, as the vendor's gateway is)", async () => {
    const r = await page(t, `/ex/jira/${CLOUD_ID}/`, 'executor');
    expect(r.status).toBe(404);
    expect(r.text).not.toContain('Board parent');
  });
});
