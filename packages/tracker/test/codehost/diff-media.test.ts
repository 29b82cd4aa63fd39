import { execFileSync } from 'node:child_process';
import { Octokit } from '@octokit/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_GIT_ENV } from '../../../../test/support/repo.js';
import { storeKinds } from '../../../../test/support/tracker.js';
import { CH_TOKENS, OWNER, REPO, startCodehostServer, type CodehostServer } from './support.js';

/**
 * ARCHITECTURE §22/§23: `GET /repos/{o}/{r}/pulls/{n}` answers the diff and patch media types (what
 * `gh pr diff` and Octokit's `mediaType: { format: 'diff' }` ask for) with what git itself prints,
 * whole, or 406 "too large" as GitHub answers a diff over its limit.
 */
const o = { owner: OWNER, repo: REPO };
/** git's output untrimmed (the test support's `git` trims it). */
const raw = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: FIXTURE_GIT_ENV, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

describe.each(await storeKinds())('ARCHITECTURE §22: the diff and patch media types of GET /pulls/{n} (%s)', (kind) => {
  let ch: CodehostServer;
  let plain: (who: keyof typeof CH_TOKENS) => Octokit;
  let number: number;
  beforeAll(async () => {
    ch = await startCodehostServer(kind);
    plain = (who) => new Octokit({ baseUrl: ch.api, auth: CH_TOKENS[who], request: { retries: 0 } });
    ch.commit('feature/diffs', { 'src/a.ts': 'export const a = 1;\n', 'README.md': 'hello\nworld' }, 'Add a, touch README');
    ch.commit('feature/diffs', { 'src/a.ts': 'export const a = 2;\nexport const b = 3;\n' }, 'Refine a');
    const { data } = await plain('ada').pulls.create({ ...o, title: 'Diffs', head: 'feature/diffs', base: 'main' });
    number = data.number;
    raw(ch.work, 'fetch', '--quiet', 'origin');
  });
  afterAll(async () => {
    await ch?.close();
  });

  const fetchAs = (accept: string, who: keyof typeof CH_TOKENS = 'vic', n = number) =>
    fetch(`${ch.api}/repos/${OWNER}/${REPO}/pulls/${n}`, { headers: { authorization: `token ${CH_TOKENS[who]}`, accept } });

  it("Octokit's mediaType { format: 'diff' } gets `git diff base...head`, as text", async () => {
    const expected = raw(ch.work, 'diff', 'origin/main...origin/feature/diffs');
    const { data } = await plain('vic').request('GET /repos/{owner}/{repo}/pulls/{pull_number}', { ...o, pull_number: number, mediaType: { format: 'diff' } });
    expect(typeof data).toBe('string');
    expect(data).toBe(expected);
    expect(expected).toContain('\\ No newline at end of file');
  });

  it("Octokit's mediaType { format: 'patch' } gets `git format-patch --stdout base..head`", async () => {
    const expected = raw(ch.work, 'format-patch', '--stdout', 'origin/main..origin/feature/diffs');
    const { data } = await plain('vic').request('GET /repos/{owner}/{repo}/pulls/{pull_number}', { ...o, pull_number: number, mediaType: { format: 'patch' } });
    expect(data).toBe(expected);
    expect(expected).toContain('Subject: [PATCH 1/2] Add a, touch README');
  });

  for (const [accept, kindOf] of [
    ['application/vnd.github.diff', 'diff'],
    ['application/vnd.github.v3.diff', 'diff'],
    ['application/vnd.github.patch', 'patch'],
    ['application/vnd.github.v3.patch', 'patch'],
  ] as const) {
    it(`Accept: ${accept} answers the ${kindOf}, Content-Type ${accept}; charset=utf-8`, async () => {
      const expected =
        kindOf === 'diff'
          ? raw(ch.work, 'diff', 'origin/main...origin/feature/diffs')
          : raw(ch.work, 'format-patch', '--stdout', 'origin/main..origin/feature/diffs');
      const res = await fetchAs(accept);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(`${accept}; charset=utf-8`);
      expect(res.headers.get('x-github-media-type')).toBe(`github.v3; format=${kindOf}`);
      expect(await res.text()).toBe(expected);
    });
  }

  it('without a diff media type the answer stays JSON', async () => {
    const res = await fetchAs('application/vnd.github+json');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await res.json()) as { number: number }).number).toBe(number);
  });

  it('a stranger gets 404 for the diff as for the pull request; an unknown number is 404', async () => {
    const stranger = await fetchAs('application/vnd.github.v3.diff', 'olga');
    expect(stranger.status).toBe(404);
    expect(await stranger.text()).not.toContain('diff --git');
    expect((await fetchAs('application/vnd.github.v3.diff', 'vic', 999)).status).toBe(404);
  });

  it('a diff with a file over the 8 MiB blob budget is 406 too_large, never a cut diff', async () => {
    ch.commit('feature/huge', { 'huge.txt': 'a line of text that repeats\n'.repeat(330_000) }, 'A 9 MB file');
    const { data } = await plain('ada').pulls.create({ ...o, title: 'Huge', head: 'feature/huge', base: 'main' });
    for (const accept of ['application/vnd.github.v3.diff', 'application/vnd.github.patch']) {
      const res = await fetchAs(accept, 'vic', data.number);
      expect(res.status).toBe(406);
      const body = (await res.json()) as { message: string; errors: Array<{ code: string; field: string }> };
      expect(body.message).toContain('larger than 8 MiB');
      expect(body.errors[0]).toMatchObject({ resource: 'PullRequest', field: 'diff', code: 'too_large' });
    }
    // GET …/files still lists it, without a patch (never diffed), beside the others.
    const files = await plain('vic').pulls.listFiles({ ...o, pull_number: data.number });
    expect(files.data.find((f) => f.filename === 'huge.txt')).toMatchObject({ status: 'added', additions: 0 });
    expect(files.data.find((f) => f.filename === 'huge.txt')!.patch).toBeUndefined();
  });
});
