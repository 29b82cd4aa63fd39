import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walkText } from '@jst/adf';
import { onTerminal } from '../support/terminal.js';
import { startTestTracker, type TestTracker } from '../support/tracker.js';
import { planWorld } from './plan-fixture.js';

describe('spec §1 rules 3 and 5 on a terminal', () => {
  let t: TestTracker;
  beforeAll(async () => {
    t = await startTestTracker('sqlite');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('asks for the request, then until scope, acceptance criteria and priority are settled; the answers land in the description', async () => {
    const w = planWorld(t);
    const { code, screen } = await onTerminal(
      w.repo.repo,
      ['plan'],
      [
        [/What should the assigner plan\? \(the request\) $/, 'Let admins rename a project'],
        [/one-line summary for the issue\? $/, 'Rename projects'],
        [/\(and what is not\)\? $/, 'Only the display name; keys never change'],
        [/ends the list\)\s+- $/, 'The new name shows everywhere'],
        [/- $/, 'Old links keep working'],
        [/- $/, ''],
        [/Lowest\)\? \[Medium\] $/, 'Medium'],
        [/\(a hotfix\)\? \[y\/N\] $/, 'n'],
        [/single issue\) \[0\] $/, '0'],
        [/Create one Task in ABC.*\[y\/N\] $/, 'y'],
      ],
    );
    expect(code, screen).toBe(0);
    expect(screen).toContain('Assignment report');
    const key = /Issue (ABC-\d+)/.exec(screen)![1]!;
    const issue = (await t.as('assigner').get(`/issue/${key}?fields=summary,description`)).body;
    expect(issue.fields.summary).toBe('Rename projects');
    const text = [...walkText(issue.fields.description)];
    for (const answer of [
      'Let admins rename a project',
      'Only the display name; keys never change',
      'The new name shows everywhere',
      'Old links keep working',
      'Medium',
    ])
      expect(text).toContain(answer);
    w.repo.cleanup();
  });

  it('spec §1 rule 7: on a terminal the hotfix path is named and a "no" creates nothing', async () => {
    const w = planWorld(t);
    const before = (await t.as('assigner').post('/search/jql', { jql: 'project = ABC', maxResults: 5000 })).body.issues.length;
    const { code, screen } = await onTerminal(
      w.repo.repo,
      ['plan', 'Checkout crashes in production'],
      [
        [/one-line summary for the issue\? $/, 'Fix checkout crash'],
        [/\(and what is not\)\? $/, 'The null check'],
        [/ends the list\)\s+- $/, 'Checkout works'],
        [/- $/, ''],
        [/Lowest\)\? \[Medium\] $/, 'Highest'],
        [/\(a hotfix\)\? \[y\/N\] $/, 'y'],
        [/HOTFIX path: one branch hotfix\/<KEY>-fix-checkout-crash cut from origin\/main.*\[y\/N\] $/, 'n'],
      ],
    );
    expect(code, screen).toBe(2);
    expect(screen).toMatch(/not confirmed, so nothing was created/);
    expect((await t.as('assigner').post('/search/jql', { jql: 'project = ABC', maxResults: 5000 })).body.issues.length).toBe(before);
    w.repo.cleanup();
  });
});
