import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jstFolder, runJst } from '../support/jst-cli.js';
import { CLOUD_ID, EMAILS, TOKENS } from '../support/seed.js';
import { startTestTracker, type TestTracker } from '../support/tracker.js';

describe('jst client commands against a real jst-tracker (spec §1 operations 1-9)', () => {
  let t: TestTracker;
  let dir: string;
  const jst = (args: string[], input?: string) => runJst(args, { cwd: dir, ...(input !== undefined ? { input } : {}) });
  const json = async (args: string[]) => {
    const r = await jst([...args, '--json']);
    if (r.code !== 0) throw new Error(`jst ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
    return JSON.parse(r.stdout);
  };
  beforeAll(async () => {
    t = await startTestTracker('sqlite');
    dir = jstFolder(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('raw (ARCHITECTURE §3)', () => {
    it('prints the body pretty-printed and exits 0 on 2xx', async () => {
      const r = await jst(['--role', 'assigner', 'raw', 'GET', '/myself']);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).emailAddress).toBe(EMAILS.assigner);
      expect(r.stdout).toContain('\n  "accountId"');
    });
    it('takes BODY as JSON, @file or - (stdin)', async () => {
      const body = { fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: 'raw create' } };
      const a = await jst(['--role', 'assigner', 'raw', 'POST', '/issue', JSON.stringify(body)]);
      expect(JSON.parse(a.stdout).key).toMatch(/^ABC-\d+$/);
      writeFileSync(join(dir, 'body.json'), JSON.stringify(body));
      expect((await jst(['--role', 'assigner', 'raw', 'POST', '/issue', `@${join(dir, 'body.json')}`])).code).toBe(0);
      expect((await jst(['--role', 'assigner', 'raw', 'POST', '/issue', '-'], JSON.stringify(body))).code).toBe(0);
    });
    it('exits 1 on an HTTP error with the status line and body on stderr', async () => {
      const r = await jst(['--role', 'assigner', 'raw', 'GET', '/issue/ABC-99999']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^HTTP 404 Not Found/);
      expect(r.stderr).toContain('errorMessages');
      expect(r.stdout).toBe('');
    });
    it('exits 2 on usage errors: no --role, bad role, bad method, bad path, bad JSON', async () => {
      for (const args of [
        ['raw', 'GET', '/myself'],
        ['--role', 'boss', 'raw', 'GET', '/myself'],
        ['--role', 'assigner', 'raw', 'FETCH', '/myself'],
        ['--role', 'assigner', 'raw', 'GET', 'myself'],
        ['--role', 'assigner', 'raw', 'POST', '/issue', '{not json'],
      ]) {
        const r = await jst(args);
        expect(r.code, args.join(' ')).toBe(2);
        expect(r.stderr.length).toBeGreaterThan(0);
      }
    });
    it('exits 2 with the file and setting named when configuration is missing', async () => {
      const bare = jstFolder(t, { local: { TRACKER_EXECUTOR_TOKEN: '' } });
      const r = await runJst(['--role', 'executor', 'raw', 'GET', '/myself'], { cwd: bare });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('TRACKER_EXECUTOR_TOKEN');
      expect(r.stderr).toContain('local.env');
    });
    it('a setting the program does not know is reported with the closest known name, and the call still runs', async () => {
      const typo = jstFolder(t, { local: { WORKTREE_DIR: '/tmp' } });
      const r = await runJst(['--role', 'assigner', 'raw', 'GET', '/myself'], { cwd: typo });
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/warning: unknown setting WORKTREE_DIR in .*local\.env:\d+: did you mean WORKTREES_DIR\?/);
    });
    it('spec §5 rule 2: the three roles run raw concurrently, each seen as its own account', async () => {
      const roles = ['assigner', 'executor', 'reviewer'] as const;
      const results = await Promise.all(Array.from({ length: 9 }, (_, i) => jst(['--role', roles[i % 3]!, 'raw', 'GET', '/myself'])));
      results.forEach((r, i) => expect(JSON.parse(r.stdout).emailAddress).toBe(EMAILS[roles[i % 3]!]));
    });
    it('never prints a token, also not on a 401', async () => {
      const bad = jstFolder(t, { local: { TRACKER_ASSIGNER_TOKEN: 'secret-wrong-token-77' } });
      const r = await runJst(['--role', 'assigner', 'raw', 'GET', '/myself'], { cwd: bad });
      expect(r.code).toBe(1);
      expect(r.stdout + r.stderr).not.toContain('secret-wrong-token-77');
      const ok = await jst(['--role', 'assigner', 'raw', 'GET', '/myself']);
      expect(ok.stdout + ok.stderr).not.toContain(TOKENS.assigner);
    });
  });

  it('whoami and tenant (spec §1 operations 1 and 2); the cloudId is cached in .jst/', async () => {
    expect((await json(['--role', 'executor', 'whoami'])).emailAddress).toBe(EMAILS.executor);
    const ten = await json(['--role', 'assigner', 'tenant']);
    expect(ten).toEqual({ site: new URL(t.url).host, cloudId: CLOUD_ID, apiBase: `${t.url}/ex/jira/${CLOUD_ID}/rest/api/3` });
    expect(JSON.parse(readFileSync(join(dir, '.jst', 'cloud-id.json'), 'utf8'))).toEqual({ [new URL(t.url).host]: CLOUD_ID });
  });

  it('project list, exists (exit 0 / 1) and statuses (spec §1 operation 3, §4 client rule 2)', async () => {
    expect((await json(['--role', 'assigner', 'project', 'list'])).map((p: any) => p.key)).toEqual(['ABC', 'RST']);
    expect((await jst(['--role', 'assigner', 'project', 'exists', 'ABC'])).code).toBe(0);
    expect((await jst(['--role', 'assigner', 'project', 'exists', 'AB'])).code).toBe(1);
    expect((await jst(['--role', 'reviewer', 'project', 'exists', 'RST'])).code).toBe(1);
    expect((await json(['--role', 'assigner', 'project', 'statuses', 'ABC']))[0].statuses.map((s: any) => s.name)).toEqual([
      'To Do',
      'In Progress',
      'In Review',
      'Done',
    ]);
    expect((await jst(['--role', 'assigner', 'project', 'statuses', 'NOPE'])).code).toBe(1);
  });

  it('user search: the account IDs for a name or an e-mail; text on a terminal, JSON when piped; an empty query is exit 2 (spec §4)', async () => {
    const me = await json(['--role', 'executor', 'whoami']);
    expect((await json(['--role', 'assigner', 'user', 'search', EMAILS.executor])).map((u: any) => u.accountId)).toEqual([me.accountId]);
    const piped = await jst(['--role', 'assigner', 'user', 'search', EMAILS.executor]);
    expect(JSON.parse(piped.stdout)).toEqual([expect.objectContaining({ accountId: me.accountId })]);
    expect(await json(['--role', 'reviewer', 'user', 'search', 'nobody-by-this-name'])).toEqual([]);
    const empty = await jst(['--role', 'assigner', 'user', 'search', ' ']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('the query is empty');
    expect(empty.stdout).toBe('');
    const noRole = await jst(['user', 'search', EMAILS.executor]);
    expect(noRole.code).toBe(2);
    expect(noRole.stderr).toContain('needs --role');
  });

  it('issue create prints the key; text becomes one paragraph per line with nothing interpreted (spec §2 ADF)', async () => {
    writeFileSync(join(dir, 'desc.txt'), '## Scope\n\n- literal dash\n1. literal one\n');
    const r = await jst([
      '--role',
      'assigner',
      'issue',
      'create',
      '--type',
      'Task',
      '--summary',
      'CLI task',
      '--assignee',
      'executor',
      '--description-file',
      join(dir, 'desc.txt'),
    ]);
    expect(r.code).toBe(0);
    const key = r.stdout.trim();
    expect(key).toMatch(/^ABC-\d+$/);
    const issue = await json(['--role', 'executor', 'issue', 'view', key, '--fields', 'description,assignee,reporter']);
    expect(issue.fields.description.content.map((p: any) => p.content[0].text)).toEqual(['## Scope', '- literal dash', '1. literal one']);
    expect(issue.fields.assignee.emailAddress).toBe(EMAILS.executor);
    const sub = await jst(
      ['--role', 'assigner', 'issue', 'create', '--type', 'Subtask', '--parent', key, '--summary', 'child', '--description', '-'],
      'from stdin\n',
    );
    expect(sub.code).toBe(0);
    const parent = await json(['--role', 'assigner', 'issue', 'view', key, '--fields', 'executor']);
    expect(parent.fields.subtasks.map((s: any) => s.key)).toEqual([sub.stdout.trim()]);
    expect(Object.keys(parent.fields)).toContain('comment');
    const rev = await json(['--role', 'reviewer', 'issue', 'view', key, '--fields', 'reviewer']);
    expect(Object.keys(rev.fields)).not.toContain('comment');
  });

  it('issue create errors: usage exit 2, tracker refusal exit 1 with the vendor message', async () => {
    expect((await jst(['--role', 'assigner', 'issue', 'create', '--type', 'Epic', '--summary', 'x'])).code).toBe(2);
    expect((await jst(['--role', 'assigner', 'issue', 'create', '--type', 'Subtask', '--summary', 'x'])).code).toBe(2);
    writeFileSync(join(dir, 'bad.json'), '{"type":"doc","version":2,"content":[]}');
    expect((await jst(['--role', 'assigner', 'issue', 'create', '--type', 'Task', '--summary', 'x', '--adf-file', join(dir, 'bad.json')])).code).toBe(2);
    const refused = await jst(['--role', 'assigner', 'issue', 'create', '--type', 'Task', '--summary', 'x', '--project', 'SEC']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/HTTP 400/);
  });

  it('issue assign EMAIL | @me | none, compared by accountId (spec §4 client rules 4 and 8)', async () => {
    const key = (await jst(['--role', 'assigner', 'issue', 'create', '--type', 'Task', '--summary', 'assign me'])).stdout.trim();
    const me = await json(['--role', 'executor', 'whoami']);
    expect((await json(['--role', 'assigner', 'issue', 'assign', key, EMAILS.executor])).accountId).toBe(me.accountId);
    expect((await json(['--role', 'assigner', 'issue', 'assign', key, 'none'])).accountId).toBeNull();
    expect((await json(['--role', 'executor', 'issue', 'assign', key, '@me'])).accountId).toBe(me.accountId);
    const nobody = await jst(['--role', 'assigner', 'issue', 'assign', key, 'nobody@acme.test']);
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toContain('nobody@acme.test');
  });

  it('issue transitions / transition --to by destination name; none matching stops, listing the reachable ones (spec §4 client rule 5)', async () => {
    const key = (await jst(['--role', 'assigner', 'issue', 'create', '--type', 'Task', '--summary', 'move', '--project', 'RST'])).stdout.trim();
    expect((await json(['--role', 'executor', 'issue', 'transitions', key])).map((x: any) => x.to.name)).toEqual(['Doing']);
    const stop = await jst(['--role', 'executor', 'issue', 'transition', key, '--to', 'Finished']);
    expect(stop.code).toBe(1);
    expect(stop.stderr).toContain('"Doing"');
    expect((await json(['--role', 'executor', 'issue', 'view', key, '--fields', 'status'])).fields.status.name).toBe('Backlog');
    const ok = await json(['--role', 'executor', 'issue', 'transition', key, '--to', 'Doing']);
    expect(ok.transition.name).toBe('Start work');
  });

  it('comment add (file, ADF, stdin) and list --marker (spec §1 operation 6)', async () => {
    const key = (await jst(['--role', 'assigner', 'issue', 'create', '--type', 'Task', '--summary', 'talk'])).stdout.trim();
    writeFileSync(join(dir, 'c.txt'), 'Assignment report\nline two\n');
    expect((await jst(['--role', 'assigner', 'comment', 'add', key, '--body-file', join(dir, 'c.txt')])).code).toBe(0);
    expect((await jst(['--role', 'reviewer', 'comment', 'add', key, '-'], 'PR target branch: feature/x Worktree: /w\n')).code).toBe(0);
    writeFileSync(
      join(dir, 'c.json'),
      JSON.stringify({ type: 'doc', version: 1, content: [{ type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Notes' }] }] }),
    );
    expect((await jst(['--role', 'executor', 'comment', 'add', key, '--adf-file', join(dir, 'c.json')])).code).toBe(0);
    expect(await json(['--role', 'executor', 'comment', 'list', key])).toHaveLength(3);
    const marked = await json(['--role', 'executor', 'comment', 'list', key, '--marker', 'Assignment report']);
    expect(marked).toHaveLength(1);
    expect((await jst(['--role', 'executor', 'comment', 'add', key])).code).toBe(2);
  });

  it('issue delete asks for the key twice: --yes KEY, a mismatch is exit 2, no confirmation is exit 3 (spec §4 client rule 6)', async () => {
    const key = (await jst(['--role', 'assigner', 'issue', 'create', '--type', 'Task', '--summary', 'doomed'])).stdout.trim();
    const sub = (await jst(['--role', 'assigner', 'issue', 'create', '--type', 'Subtask', '--parent', key, '--summary', 'child'])).stdout.trim();
    expect((await jst(['--role', 'assigner', 'issue', 'delete', key])).code).toBe(3);
    expect((await jst(['--role', 'assigner', 'issue', 'delete', key, '--yes', 'ABC-1'])).code).toBe(2);
    const refused = await jst(['--role', 'assigner', 'issue', 'delete', key, '--yes', key]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/subtask/i);
    expect((await jst(['--role', 'executor', 'issue', 'delete', key, '--with-subtasks', '--yes', key])).code).toBe(1);
    expect((await jst(['--role', 'assigner', 'issue', 'delete', key, '--with-subtasks', '--yes', key])).code).toBe(0);
    expect((await jst(['--role', 'assigner', 'issue', 'view', sub])).code).toBe(1);
  });

  it('batch: JSON lines in, one answer line per request, over one connection', async () => {
    const input = ['{"method":"GET","path":"/myself","id":1}', '{"method":"GET","path":"/issue/ABC-99999"}', 'not json', ''].join('\n');
    const r = await jst(['--role', 'reviewer', 'batch'], input);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ id: 1, status: 200 });
    expect(lines[0].body.emailAddress).toBe(EMAILS.reviewer);
    expect(lines[1].status).toBe(404);
    expect(lines[2].status).toBe(0);
    expect(r.code).toBe(1);
  });

  it('--help on every command has examples; --version prints the version', async () => {
    for (const cmd of [
      ['raw'],
      ['whoami'],
      ['tenant'],
      ['project', 'list'],
      ['issue', 'create'],
      ['issue', 'delete'],
      ['comment', 'add'],
      ['user', 'search'],
      ['search'],
      ['batch'],
      ['healthcheck'],
      ['init'],
    ]) {
      const r = await jst([...cmd, '--help']);
      expect(r.code, cmd.join(' ')).toBe(0);
      expect(r.stdout, cmd.join(' ')).toContain('Examples:');
    }
    expect((await jst(['--version'])).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
