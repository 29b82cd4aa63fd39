import { execFile, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CH_TOKENS, OWNER, REPO, startCodehostServer, type CodehostServer } from '../codehost/support.js';

/**
 * ARCHITECTURE §22 "Fidelity": a second GitHub client, PyGithub (Debian's python3-github, 1.55),
 * unchanged, reads the code host over TLS: a repository, its pull requests with reviews, comments,
 * commits and files, and every date on them (PyGithub 1.55 parses only GitHub's form, to the
 * second), then writes a comment. Each value is compared with what Octokit reads. Skips with a
 * notice when no python3 imports `github`; JST_REQUIRE_PYGITHUB=1 (set by .ci/run) fails instead.
 */
const SCRIPT = fileURLToPath(new URL('./pygithub_client.py', import.meta.url));
const required = process.env.JST_REQUIRE_PYGITHUB === '1';

/** The first python3 that imports `github` (the system one: pyenv's python3 does not have Debian's packages). */
function findPython(): { python: string; version: string } | null {
  for (const python of [process.env.JST_PYTHON, '/usr/bin/python3', 'python3'].filter((p): p is string => !!p)) {
    const r = spawnSync(python, ['-c', "from importlib.metadata import version; print(version('PyGithub'))"], { encoding: 'utf8' });
    if (r.status === 0) return { python, version: r.stdout.trim() };
  }
  return null;
}

const found = findPython();
if (!found) {
  if (required)
    throw new Error('JST_REQUIRE_PYGITHUB=1 but no python3 can import github: install it with `apt-get install -y python3-github` (or set JST_PYTHON).');
  process.stderr.write(
    'notice: python3 with PyGithub not found; the PyGithub test is skipped (apt-get install -y python3-github, or JST_REQUIRE_PYGITHUB=1 to fail instead)\n',
  );
}

const o = { owner: OWNER, repo: REPO };

describe.skipIf(!found)(`ARCHITECTURE §22: PyGithub ${found?.version ?? ''} reads the code host over TLS`, () => {
  let ch: CodehostServer;
  let out: any;
  let merged: number;
  let closed: number;

  beforeAll(async () => {
    ch = await startCodehostServer('sqlite', { tls: true });
    const ada = ch.as('ada');
    const rey = ch.as('rey');
    ch.commit('feature/py-one', { 'one.txt': 'one\n' });
    ch.commit('feature/py-two', { 'two.txt': 'two\n' });
    merged = (await ada.rest.pulls.create({ ...o, title: 'Merged one', head: 'feature/py-one', base: 'main', body: 'first' })).data.number;
    await ada.rest.issues.createComment({ ...o, issue_number: merged, body: 'a comment' });
    await rey.rest.pulls.createReview({ ...o, pull_number: merged, event: 'APPROVE', body: 'approved' });
    await rey.rest.pulls.merge({ ...o, pull_number: merged });
    closed = (await ada.rest.pulls.create({ ...o, title: 'Closed two', head: 'feature/py-two', base: 'main' })).data.number;
    await ada.rest.pulls.update({ ...o, pull_number: closed, state: 'closed' });
    const cfg = { api: `${ch.url}/api/v3`, token: CH_TOKENS.ada, ca: ch.caFile, repo: `${OWNER}/${REPO}` };
    const { stdout } = await promisify(execFile)(found!.python, [SCRIPT], {
      timeout: 90_000,
      // The configuration (a token among it) in the environment, not on the command line a failure prints.
      env: { ...process.env, JST_PYGITHUB_CONFIG: JSON.stringify(cfg), REQUESTS_CA_BUNDLE: '', CURL_CA_BUNDLE: '' },
    });
    out = JSON.parse(stdout);
  }, 120_000);
  afterAll(async () => {
    await ch?.close();
  });

  it('the user and the repository, with their dates as Octokit reads them', async () => {
    const { data: me } = await ch.as('ada').rest.users.getAuthenticated();
    const { data: repo } = await ch.as('ada').rest.repos.get(o);
    expect(out.user).toEqual({ login: 'ada', created_at: me.created_at });
    expect(out.repo).toEqual({
      full_name: `${OWNER}/${REPO}`,
      default_branch: 'main',
      created_at: repo.created_at,
      updated_at: repo.updated_at,
      pushed_at: repo.pushed_at,
    });
  });

  it('the pull requests: state, merged, created_at, updated_at, closed_at, merged_at', async () => {
    expect(out.pulls.map((p: any) => [p.number, p.title, p.state, p.merged])).toEqual([
      [merged, 'Merged one', 'closed', true],
      [closed, 'Closed two', 'closed', false],
    ]);
    for (const p of out.pulls) {
      const { data } = await ch.as('rey').rest.pulls.get({ ...o, pull_number: p.number });
      expect([p.created_at, p.updated_at, p.closed_at, p.merged_at]).toEqual([data.created_at, data.updated_at, data.closed_at, data.merged_at]);
      expect(p.closed_at).not.toBeNull();
    }
    expect(out.pulls[0].merged_at).not.toBeNull();
    expect(out.pulls[1].merged_at).toBeNull();
  });

  it('reviews (submitted_at), comments (created_at, updated_at), commits (author and committer dates) and files', async () => {
    const [one] = out.pulls;
    const { data: reviews } = await ch.as('rey').rest.pulls.listReviews({ ...o, pull_number: merged });
    expect(one.reviews).toEqual([{ user: 'rey', state: 'APPROVED', body: 'approved', submitted_at: reviews[0]!.submitted_at }]);
    const { data: comments } = await ch.as('rey').rest.issues.listComments({ ...o, issue_number: merged });
    expect(one.comments).toEqual([{ user: 'ada', body: 'a comment', created_at: comments[0]!.created_at, updated_at: comments[0]!.updated_at }]);
    const { data: commits } = await ch.as('rey').rest.pulls.listCommits({ ...o, pull_number: merged });
    expect(one.commits).toEqual(commits.map((c) => ({ sha: c.sha, author_date: c.commit.author!.date, committer_date: c.commit.committer!.date })));
    expect(one.files).toEqual(['one.txt']);
  });

  it('a comment PyGithub writes is there for Octokit; a missing pull request is GitHub’s 404', async () => {
    const { data: comments } = await ch.as('rey').rest.issues.listComments({ ...o, issue_number: merged });
    const written = comments.find((c) => c.id === out.written.id);
    expect(written).toMatchObject({ body: 'written by PyGithub', user: { login: 'ada' }, created_at: out.written.created_at });
    expect(out.missing).toEqual({ status: 404, message: 'Not Found' });
  });
});
