import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_GIT_ENV } from '../../../../test/support/repo.js';
import { basic, storeKinds } from '../../../../test/support/tracker.js';
import { CH_TOKENS, OWNER, REPO, startCodehostServer, type ChWho, type CodehostServer } from './support.js';

/**
 * ARCHITECTURE §22 "Pages": the `.diff` and `.patch` of a pull request are what git prints (checked
 * against `git diff` and `git format-patch` in a clone), whole or refused; every diff page checks its
 * commit ids and masks what the viewer may not read; the cut notices link the `.diff`.
 */
const o = { owner: OWNER, repo: REPO };
const raw = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: FIXTURE_GIT_ENV, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
const auth = (who: string) => ({ authorization: basic('anyone', who in CH_TOKENS ? CH_TOKENS[who as ChWho] : who) });

describe.each(await storeKinds())('ARCHITECTURE §22 the diff pages over HTTP (%s)', (kind) => {
  let ch: CodehostServer;
  let n: number;
  let first: string;
  let second: string;
  let base: string;
  const get = async (path: string, who: string | null = 'vic') => {
    const res = await fetch(`${ch.url}${path}`, { headers: who === null ? {} : auth(who), redirect: 'manual' });
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
  };
  const pull = (rest = '') => `/${OWNER}/${REPO}/pull/${n}${rest}`;

  beforeAll(async () => {
    ch = await startCodehostServer(kind);
    first = ch.commit('feature/pages', { 'src/a.ts': 'export const a = 1;\n', 'tail.txt': 'no newline' }, 'First change');
    second = ch.commit('feature/pages', { 'src/a.ts': 'export const a = 2;\n', 'big.txt': 'line of the big file\n'.repeat(25_000) }, 'Second change');
    n = (await ch.as('ada').rest.pulls.create({ ...o, title: 'Pages', head: 'feature/pages', base: 'main' })).data.number;
    raw(ch.work, 'fetch', '--quiet', 'origin');
    base = raw(ch.work, 'rev-parse', 'origin/main').trim();
  });
  afterAll(async () => {
    await ch?.close();
  });

  it('.diff is `git diff base...head` and .patch is `git format-patch --stdout base..head`, text/plain; charset=utf-8', async () => {
    const diff = await get(pull('.diff'));
    expect(diff.status).toBe(200);
    expect(diff.type).toBe('text/plain; charset=utf-8');
    expect(diff.text).toBe(raw(ch.work, 'diff', 'origin/main...origin/feature/pages'));
    const patch = await get(pull('.patch'), 'ada');
    expect(patch.status).toBe(200);
    expect(patch.text).toBe(raw(ch.work, 'format-patch', '--stdout', 'origin/main..origin/feature/pages'));
  });

  it("the pull request's advertised diff_url and patch_url answer (with the page's sign-in)", async () => {
    const { data } = await ch.as('vic').rest.pulls.get({ ...o, pull_number: n });
    for (const [url, ext] of [
      [data.diff_url, 'diff'],
      [data.patch_url, 'patch'],
    ] as const) {
      expect(url).toBe(`${ch.url}${pull(`.${ext}`)}`);
      const res = await fetch(url, { headers: auth('vic') });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe((await get(pull(`.${ext}`))).text);
    }
  });

  it('the .patch applies in a clone as git am takes it (the same commits result)', async () => {
    const patch = await get(pull('.patch'));
    raw(ch.work, 'checkout', '--quiet', '-B', 'apply-here', 'origin/main');
    execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.test', 'am', '--quiet'], { cwd: ch.work, env: FIXTURE_GIT_ENV, input: patch.text });
    expect(raw(ch.work, 'rev-parse', 'HEAD^{tree}')).toBe(raw(ch.work, 'rev-parse', 'origin/feature/pages^{tree}'));
  });

  it("the files page cuts a file's diff over 20,000 lines and links the .diff; the list names every file with +/−", async () => {
    const r = await get(pull('/files'));
    expect(r.status).toBe(200);
    expect(r.text).toContain('data-cut="patch_too_large"');
    expect(r.text).toContain('Large diffs are not rendered by default');
    expect(r.text).toContain(`href="${pull('.diff')}"`);
    expect(r.text).toMatch(/<td><a href="#diff-\d+">big.txt<\/a><\/td><td class="file-status">added<\/td><td class="adds">\+25000<\/td>/);
    expect(r.text).toContain('No newline at end of file');
  });

  it('the commits page lists the commits; a commit of the pull request, the repository commit and the range pages show their change', async () => {
    const commits = await get(pull('/commits'));
    expect(commits.status).toBe(200);
    expect(commits.text).toContain(`href="${pull(`/commits/${first}`)}"`);
    const one = await get(pull(`/commits/${first.slice(0, 7)}`));
    expect(one.status).toBe(200);
    expect(one.text).toContain('First change');
    expect(one.text).toContain('+export const a = 1;');
    const commit = await get(`/${OWNER}/${REPO}/commit/${second}`);
    expect(commit.status).toBe(200);
    expect(commit.text).toContain('+export const a = 2;');
    expect(commit.text).toContain('-export const a = 1;');
    const range = await get(pull(`/files/${first}..${second.slice(0, 10)}`));
    expect(range.status).toBe(200);
    expect(range.text).toContain('-export const a = 1;');
    expect(range.text).not.toContain('tail.txt');
    const compare = await get(`/${OWNER}/${REPO}/compare/main...feature/pages`);
    expect(compare.status).toBe(200);
    expect(compare.text).toContain('First change');
    expect(compare.text).toContain('tail.txt');
  });

  it('"changes since your last review" on the conversation links the range page, which answers with what changed since', async () => {
    await ch.as('rey').rest.pulls.createReview({ ...o, pull_number: n, event: 'COMMENT', body: 'first look', commit_id: first });
    const conversation = await get(pull(), 'rey');
    const href = /<a href="([^"]+)">Changes since your last review<\/a>/.exec(conversation.text)?.[1];
    expect(href).toBe(pull(`/files/${first}..${second}`));
    const r = await get(href!, 'rey');
    expect(r.status).toBe(200);
    expect(r.text).toContain('-export const a = 1;');
    expect(r.text).not.toContain('tail.txt');
  });

  it('bad or unknown commit ids, numbers and ranges are the masked 404 page, never a git error', async () => {
    const missing = await get(`/${OWNER}/nope/pull/1/files`);
    expect(missing.status).toBe(404);
    const paths = [
      pull(`/commits/${'0'.repeat(40)}`),
      pull(`/commits/${base}`), // in the repository, but no commit of the pull request
      pull('/commits/--help'),
      pull('/commits/HEAD'),
      pull(`/files/${first}...${second}`),
      pull(`/files/${'f'.repeat(40)}..${second}`),
      pull('/files/main..HEAD'),
      `/${OWNER}/${REPO}/commit/${'a'.repeat(40)}`,
      `/${OWNER}/${REPO}/commit/-p`,
      `/${OWNER}/${REPO}/commit/${'a'.repeat(41)}`,
      `/${OWNER}/${REPO}/compare/main...nope`,
      `/${OWNER}/${REPO}/compare/main`,
      `/${OWNER}/${REPO}/compare/..main`,
      `/${OWNER}/${REPO}/compare/main...--output=x`,
      `/${OWNER}/${REPO}/compare/main...feature%2F..%2F..%2Fetc`,
      `/${OWNER}/${REPO}/pull/999.diff`,
      `/${OWNER}/${REPO}/pull/01/files`,
    ];
    for (const path of paths) {
      const r = await get(path);
      expect(r.status, path).toBe(404);
      expect(r.text, path).toBe(missing.text);
    }
  });

  it('a NUL in the address is a 400 page that says so, on the diff pages as on the review page (never a 500)', async () => {
    for (const path of [`/${OWNER}/${REPO}/compare/main...%00`, `/${OWNER}/${REPO}/commit/%00`, pull('/commits/%00'), `/${OWNER}/${REPO}/pull/%00`]) {
      const r = await get(path);
      expect(r.status, path).toBe(400);
      expect(r.text, path).toContain('NUL character');
      expect(r.text, path).not.toContain('export const');
    }
  });

  it('a stranger gets the masked 404 on every diff page and text; no credential is 401', async () => {
    const missing = await get(`/${OWNER}/nope/pull/1/files`, 'olga');
    for (const path of [
      pull('.diff'),
      pull('.patch'),
      pull('/files'),
      pull('/commits'),
      pull(`/commits/${first}`),
      pull(`/files/${first}..${second}`),
      `/${OWNER}/${REPO}/commit/${first}`,
      `/${OWNER}/${REPO}/compare/main...feature/pages`,
    ]) {
      const r = await get(path, 'olga');
      expect(r.status, path).toBe(404);
      expect(r.text, path).toBe(missing.text);
      expect((await get(path, null)).status, path).toBe(401);
    }
  });

  it('a .diff over its budget is an honest 406, never a cut patch', async () => {
    ch.commit('feature/huge', { 'huge.txt': 'a line of text that repeats\n'.repeat(330_000) }, 'A 9 MB file');
    const h = (await ch.as('ada').rest.pulls.create({ ...o, title: 'Huge', head: 'feature/huge', base: 'main' })).data.number;
    for (const ext of ['diff', 'patch']) {
      const r = await get(`/${OWNER}/${REPO}/pull/${h}.${ext}`);
      expect(r.status).toBe(406);
      expect(r.type).toBe('text/plain; charset=utf-8');
      expect(r.text).toContain('larger than 8 MiB');
      expect(r.text).not.toContain('a line of text');
    }
    const files = await get(`/${OWNER}/${REPO}/pull/${h}/files`);
    expect(files.status).toBe(200);
    expect(files.text).toContain('data-cut="too_large"');
  });
});
