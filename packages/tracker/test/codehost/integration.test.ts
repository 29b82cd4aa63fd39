import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrationNotices } from '../../src/codehost/domain/integration.js';
import { parseSeed, startServer } from '../../src/index.js';
import { git } from '../../../../test/support/repo.js';
import { basic, storeKinds } from '../../../../test/support/tracker.js';
import { integrationSeed, jira, newIssue, pushOverHttp, statusOf, until } from './hooks-support.js';
import { CH_TOKENS, OWNER, REPO, startCodehostServer, type CodehostServer } from './support.js';

/**
 * ARCHITECTURE §22 "Integration with the tracker": a pushed issue branch, a pull request opened
 * from it and its merge move the issue as the seed's user through the tracker's own transitions,
 * so §21's conditions apply; a refused move never fails the push or the merge and is recorded.
 */
describe.each(await storeKinds())('ARCHITECTURE §22 integration with the tracker (%s)', (kind) => {
  let ch: CodehostServer;
  beforeAll(async () => {
    ch = await startCodehostServer(kind, { seed: integrationSeed() });
  }, 60_000);
  afterAll(async () => {
    await ch?.close();
  });

  const notices = async (branch: string) => {
    const repo = (await ch.server.codehost.store.repos.byName(OWNER, REPO))!;
    return integrationNotices(ch.server.codehost.host, repo, branch);
  };

  it('ARCHITECTURE §22 / §21: branch → In Progress, pull request → In Review, each with a comment linking it; a merge the Done condition refuses still merges, and the refusal is recorded', async () => {
    const key = await newIssue(ch.url, 'integration');
    const branch = `feature/${key}-flow`;
    git(ch.work, 'checkout', '--quiet', '-B', branch, 'main');
    git(ch.work, 'commit', '--quiet', '--allow-empty', '-m', 'work');
    await pushOverHttp(ch.url, ch.work, 'ada', branch);
    await until('In Progress', async () => (await statusOf(ch.url, key)) === 'In Progress');
    const pr = await ch.as('ada').request('POST /repos/{owner}/{repo}/pulls', { owner: OWNER, repo: REPO, title: key, head: branch, base: 'main' });
    await until('In Review', async () => (await statusOf(ch.url, key)) === 'In Review');
    const comments = (await jira(ch.url, 'assigner', 'GET', `/issue/${key}/comment`)).comments as any[];
    expect(JSON.stringify(comments.map((c) => c.body))).toContain(pr.data.html_url);
    const merged = await ch.as('rey').request('PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge', { owner: OWNER, repo: REPO, pull_number: pr.data.number });
    expect(merged.data.merged).toBe(true);
    const refused = await until('the refused move recorded', async () => (await notices(branch)).find((n) => n.event === 'merge' && n.outcome !== 'pending'));
    expect(refused.outcome).toBe('failed');
    expect(refused.message).toContain('Done');
    expect(await statusOf(ch.url, key)).toBe('In Review');
    expect((await notices(branch)).map((n) => [n.event, n.outcome])).toEqual([
      ['branch', 'moved'],
      ['open', 'moved'],
      ['merge', 'failed'],
    ]);
    // The pull request page shows the refusal above its tabs, to whoever may read the repository.
    const page = await fetch(`${ch.url}/${OWNER}/${REPO}/pull/${pr.data.number}`, {
      headers: { accept: 'text/html', authorization: basic('anyone', CH_TOKENS.vic) },
    });
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toMatch(new RegExp(`class="notice">[^<]*${key}[^<]*Done`));
  }, 60_000);

  it('spec §3 rule 3: a branch pushed for an issue not in To Do moves nothing (recorded as skipped)', async () => {
    const key = await newIssue(ch.url, 'already started');
    const transitions = (await jira(ch.url, 'assigner', 'GET', `/issue/${key}/transitions`)).transitions as any[];
    await jira(ch.url, 'assigner', 'POST', `/issue/${key}/transitions`, { transition: { id: transitions.find((t) => t.to.name === 'In Review').id } });
    const branch = `hotfix/${key}-late`;
    git(ch.work, 'checkout', '--quiet', '-B', branch, 'main');
    git(ch.work, 'commit', '--quiet', '--allow-empty', '-m', 'late');
    await pushOverHttp(ch.url, ch.work, 'ada', branch);
    const skipped = await until('the skip recorded', async () => (await notices(branch)).find((n) => n.outcome !== 'pending'));
    expect(skipped.outcome).toBe('skipped');
    expect(await statusOf(ch.url, key)).toBe('In Review');
  }, 60_000);
});

describe('ARCHITECTURE §22: the seed’s "tracker" is checked against the seed’s sites, naming the key', () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ site: 'nowhere.example' }, /\$\.codehost\.repos\[0\]\.tracker\.site: names no site/],
    [{ as: 'ghost@acme.test' }, /\$\.codehost\.repos\[0\]\.tracker\.as: names no user/],
    [{ onMerge: 'Shipped' }, /\$\.codehost\.repos\[0\]\.tracker\.onMerge: "Shipped" is a status no transition/],
    [{ when: 'now' }, /\$\.codehost\.repos\[0\]\.tracker/],
  ];
  for (const [link, message] of cases) {
    it(`refuses ${JSON.stringify(link)}`, async () => {
      await expect(
        startServer({ port: 0, dataDir: `/tmp/jst-int-seed-${process.pid}-${Math.random()}`, seed: parseSeed(integrationSeed(link)) }),
      ).rejects.toThrow(message);
    });
  }
});
