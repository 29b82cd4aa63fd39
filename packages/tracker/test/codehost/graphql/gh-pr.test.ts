import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ghAvailable, ghHarness, ghVersion, type Gh } from '../../../../../test/support/gh.js';
import { CH_TOKENS, OWNER, REPO, startCodehostServer, type CodehostServer } from '../support.js';

/**
 * ARCHITECTURE §23: Debian's gh (2.23), unchanged, drives pull requests on the code host over TLS
 * through GraphQL at /api/graphql (and REST where gh uses REST): every `gh pr` command and the
 * original toolkit's exact forms, each result read back through Octokit.
 */
const o = { owner: OWNER, repo: REPO };

describe.skipIf(!ghAvailable())(`ARCHITECTURE §23: ${ghVersion()} pr and repo commands against the code host`, () => {
  let s: CodehostServer;
  let ada: Gh;
  let rey: Gh;
  let vic: Gh;
  let olga: Gh;
  let R: string;
  let bodyFile: string;
  let number: number;

  beforeAll(async () => {
    s = await startCodehostServer('sqlite', { tls: true });
    const harness = (who: keyof typeof CH_TOKENS) => ghHarness({ url: s.url, caFile: s.caFile!, token: CH_TOKENS[who] });
    [ada, rey, vic, olga] = await Promise.all([harness('ada'), harness('rey'), harness('vic'), harness('olga')]);
    R = ada.repo(`${OWNER}/${REPO}`);
    s.commit('feature/gh', { 'gh.txt': 'from gh\n' });
    s.commit('develop', { 'dev.txt': 'dev\n' });
    bodyFile = join(ada.home, 'body.md');
    writeFileSync(bodyFile, 'Body from a file\n\nwith `code` and <b>markup</b>\n');
  }, 120_000);
  afterAll(async () => {
    for (const g of [ada, rey, vic, olga]) g?.dispose();
    await s?.close();
  });

  const ok = async (gh: Gh, args: string[]) => {
    const r = await gh(args);
    expect(r.code, `gh ${args.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(0);
    return r.stdout;
  };

  it('gh repo view (RepositoryInfo), gh api graphql (viewer)', async () => {
    expect(await ok(ada, ['repo', 'view', R])).toContain(`name:\t${OWNER}/${REPO}`);
    const json = JSON.parse(await ok(ada, ['repo', 'view', R, '--json', 'name,defaultBranchRef,viewerPermission']));
    expect(json).toEqual({ name: REPO, defaultBranchRef: { name: 'main' }, viewerPermission: 'WRITE' });
    expect(JSON.parse(await ok(ada, ['api', 'graphql', '-f', 'query=query { viewer { login } }']))).toEqual({ data: { viewer: { login: 'ada' } } });
  });

  it('gh pr create --base B --head H --title T --body-file F, then list --head H --base B --state all --json number,state,url', async () => {
    const url = (await ok(ada, ['pr', 'create', '-R', R, '--base', 'main', '--head', 'feature/gh', '--title', 'Made by gh', '--body-file', bodyFile])).trim();
    const { data } = await s.as('ada').rest.pulls.list({ ...o, head: `${OWNER}:feature/gh` });
    expect(data).toHaveLength(1);
    number = data[0]!.number;
    expect(data[0]).toMatchObject({ title: 'Made by gh', body: 'Body from a file\n\nwith `code` and <b>markup</b>\n', html_url: url, base: { ref: 'main' } });
    const listed = JSON.parse(await ok(ada, ['pr', 'list', '-R', R, '--head', 'feature/gh', '--base', 'main', '--state', 'all', '--json', 'number,state,url']));
    expect(listed).toEqual([{ number, state: 'OPEN', url }]);
    expect(await ok(ada, ['pr', 'list', '-R', R])).toContain('Made by gh');
  });

  it('gh pr review N --comment --body-file F; another user requests changes, then approves; view --json state,reviews', async () => {
    await ok(ada, ['pr', 'review', String(number), '-R', R, '--comment', '--body-file', bodyFile]);
    await ok(rey, ['pr', 'review', String(number), '-R', R, '--request-changes', '--body', 'please fix']);
    await ok(rey, ['pr', 'review', String(number), '-R', R, '--approve', '--body', 'fine now']);
    const own = await ada(['pr', 'review', String(number), '-R', R, '--approve']);
    expect(own.code).not.toBe(0);
    expect(own.stderr).toContain('Can not approve your own pull request');
    const reviews = (await s.as('ada').rest.pulls.listReviews({ ...o, pull_number: number })).data;
    expect(reviews.map((r) => [r.user?.login, r.state])).toEqual([
      ['ada', 'COMMENTED'],
      ['rey', 'CHANGES_REQUESTED'],
      ['rey', 'APPROVED'],
    ]);
    const view = JSON.parse(await ok(ada, ['pr', 'view', String(number), '-R', R, '--json', 'state,reviews']));
    expect(view.state).toBe('OPEN');
    expect(view.reviews.map((r: { author: { login: string }; state: string; body: string }) => [r.author.login, r.state, r.body])).toEqual([
      ['ada', 'COMMENTED', 'Body from a file\n\nwith `code` and <b>markup</b>\n'],
      ['rey', 'CHANGES_REQUESTED', 'please fix'],
      ['rey', 'APPROVED', 'fine now'],
    ]);
    const text = await ok(ada, ['pr', 'view', String(number), '-R', R]);
    expect(text).toContain('title:\tMade by gh');
    expect(text).toContain('rey (Approved)');
  });

  it('gh pr comment, edit (title, body, base), checks, status', async () => {
    const url = (await ok(ada, ['pr', 'comment', String(number), '-R', R, '--body', 'a comment from gh'])).trim();
    const comments = (await s.as('ada').rest.issues.listComments({ ...o, issue_number: number })).data;
    expect(comments.map((c) => c.body)).toEqual(['a comment from gh']);
    expect(url).toBe(comments[0]!.html_url);
    await ok(ada, ['pr', 'edit', String(number), '-R', R, '--title', 'Renamed by gh', '--body', 'new body', '--base', 'develop']);
    expect((await s.as('ada').rest.pulls.get({ ...o, pull_number: number })).data).toMatchObject({
      title: 'Renamed by gh',
      body: 'new body',
      base: { ref: 'develop' },
    });
    await ok(ada, ['pr', 'edit', String(number), '-R', R, '--base', 'main']);
    // No statuses or checks are kept: gh says so, as it does for a GitHub pull request without any.
    const checks = await ada(['pr', 'checks', String(number), '-R', R]);
    expect(checks.stderr).toContain("no checks reported on the 'feature/gh' branch");
    const status = await ok(ada, ['pr', 'status', '-R', R]);
    expect(status).toContain(`#${number}  Renamed by gh [feature/gh]`);
  });

  it('gh pr close and reopen', async () => {
    await ok(ada, ['pr', 'close', String(number), '-R', R]);
    expect((await s.as('ada').rest.pulls.get({ ...o, pull_number: number })).data.state).toBe('closed');
    await ok(ada, ['pr', 'reopen', String(number), '-R', R]);
    expect((await s.as('ada').rest.pulls.get({ ...o, pull_number: number })).data.state).toBe('open');
  });

  it('gh pr diff N [--name-only] (REST diff media type)', async () => {
    const diff = await ada(['pr', 'diff', String(number), '-R', R]);
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).toContain('+from gh');
    expect((await ok(ada, ['pr', 'diff', String(number), '-R', R, '--name-only'])).trim()).toBe('gh.txt');
  });

  it("a reader's merge is refused (FORBIDDEN), a stranger sees no repository; gh pr merge --merge merges", async () => {
    const refused = await vic(['pr', 'merge', String(number), '-R', R, '--merge']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('vic does not have the correct permissions to execute `MergePullRequest`');
    const stranger = await olga(['pr', 'view', String(number), '-R', R]);
    expect(stranger.code).not.toBe(0);
    expect(stranger.stderr).toContain(`Could not resolve to a Repository with the name '${OWNER}/${REPO}'.`);
    expect((await s.as('ada').rest.pulls.get({ ...o, pull_number: number })).data.merged).toBe(false);
    await ok(ada, ['pr', 'merge', String(number), '-R', R, '--merge']);
    const merged = (await s.as('ada').rest.pulls.get({ ...o, pull_number: number })).data;
    expect(merged).toMatchObject({ merged: true, merged_by: { login: 'ada' } });
    const view = JSON.parse(await ok(ada, ['pr', 'view', String(number), '-R', R, '--json', 'state,mergedBy,mergeCommit']));
    expect(view).toMatchObject({ state: 'MERGED', mergedBy: { login: 'ada' }, mergeCommit: { oid: merged.merge_commit_sha } });
  });
});
