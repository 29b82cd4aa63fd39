import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeKinds } from '../../../../test/support/tracker.js';
import { OWNER, REPO, startCodehostServer, type ChWho, type CodehostServer } from './support.js';

/**
 * ARCHITECTURE §22 "Fidelity": every timestamp of every code-host REST answer is GitHub's form,
 * UTC to the second (`2026-11-27T02:06:53Z`), never with milliseconds. Every operation is called
 * through Octokit (each answer also checked against GitHub's description) and every property of
 * every answer, at any depth, whose name is a time (`*_at`, `date`) is checked.
 */
const o = { owner: OWNER, repo: REPO };
const GITHUB_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

interface Seen {
  route: string;
  path: string;
  value: unknown;
}

/** Every time-named property under `value`, with its path. */
function timesIn(route: string, value: unknown, path = '$', out: Seen[] = []): Seen[] {
  if (Array.isArray(value)) value.forEach((v, i) => timesIn(route, v, `${path}[${i}]`, out));
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      if (/_at$|^date$/.test(k)) out.push({ route, path: `${path}.${k}`, value: v });
      timesIn(route, v, `${path}.${k}`, out);
    }
  return out;
}

describe.each(await storeKinds())('ARCHITECTURE §22: code-host timestamps to the second, as GitHub sends them (%s)', (kind) => {
  let ch: CodehostServer;
  const seen: Seen[] = [];
  const routes = new Set<string>();
  const as = (who: ChWho) => {
    const k = ch.as(who);
    k.hook.after('request', (response, options) => {
      const route = `${options.method} ${options.url}`;
      routes.add(route);
      timesIn(route, response.data, '$', seen);
    });
    return k;
  };

  beforeAll(async () => {
    ch = await startCodehostServer(kind);
    const ada = as('ada');
    const rey = as('rey');
    ch.commit('feature/times', { 'times.txt': 'one\n' });
    await ada.request('GET /');
    await ada.rest.users.getAuthenticated();
    await ada.rest.rateLimit.get();
    await ada.rest.repos.get(o);
    const { data: pr } = await ada.rest.pulls.create({ ...o, title: 'times', head: 'feature/times', base: 'main', body: 'b' });
    const pull_number = pr.number;
    await ada.rest.pulls.update({ ...o, pull_number, body: 'edited' });
    await ada.rest.pulls.list({ ...o, state: 'all' });
    await ada.rest.pulls.listCommits({ ...o, pull_number });
    await ada.rest.pulls.listFiles({ ...o, pull_number });
    await ada.rest.issues.createComment({ ...o, issue_number: pull_number, body: 'a comment' });
    await ada.rest.issues.listComments({ ...o, issue_number: pull_number });
    await rey.rest.pulls.createReview({ ...o, pull_number, event: 'APPROVE', body: 'fine' });
    await rey.rest.pulls.listReviews({ ...o, pull_number });
    await rey.rest.repos.updateBranchProtection({
      ...o,
      branch: 'main',
      required_status_checks: null,
      enforce_admins: false,
      required_pull_request_reviews: { required_approving_review_count: 1 },
      restrictions: null,
    });
    await rey.rest.repos.getBranchProtection({ ...o, branch: 'main' });
    await rey.rest.pulls.merge({ ...o, pull_number });
    await rey.rest.pulls.checkIfMerged({ ...o, pull_number });
    await rey.rest.pulls.get({ ...o, pull_number });
    await rey.rest.repos.deleteBranchProtection({ ...o, branch: 'main' });
    // A closed one, for closed_at without a merge.
    ch.commit('feature/closed', { 'closed.txt': 'x\n' });
    const { data: closed } = await ada.rest.pulls.create({ ...o, title: 'closed', head: 'feature/closed', base: 'main' });
    await ada.rest.pulls.update({ ...o, pull_number: closed.number, state: 'closed' });
  }, 120_000);
  afterAll(async () => {
    await ch?.close();
  });

  it('every operation was called', () => {
    expect(routes.size).toBeGreaterThanOrEqual(18);
  });

  it('each of created_at, updated_at, pushed_at, closed_at, merged_at, submitted_at and commit dates appears, and every one is YYYY-MM-DDTHH:MM:SSZ (or null)', () => {
    const names = new Set(seen.filter((s) => s.value !== null).map((s) => s.path.split('.').pop()));
    for (const n of ['created_at', 'updated_at', 'pushed_at', 'closed_at', 'merged_at', 'submitted_at', 'date']) expect(names, n).toContain(n);
    const wrong = seen.filter((s) => s.value !== null && !(typeof s.value === 'string' && GITHUB_TIME.test(s.value)));
    expect(wrong).toEqual([]);
    expect(seen.length).toBeGreaterThan(50);
  });
});
