import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isIssueKey, isProjectKey, issueBranchName, issueBranchOf, parseIssueKey } from '../src/index.js';

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('');
const projectKey = fc
  .tuple(fc.constantFrom(...UPPER), fc.array(fc.constantFrom(...UPPER, ...'0123456789_'.split('')), { minLength: 1, maxLength: 9 }))
  .map(([first, rest]) => first + rest.join(''));
const issueNumber = fc.integer({ min: 1, max: 2 ** 31 - 1 });
const slug = fc.stringMatching(/^[a-z0-9]+(-[a-z0-9]+)*$/);

describe('spec §2 (PROJECT_KEY), ARCHITECTURE §5: one project-key grammar for jst settings and tracker seeds', () => {
  it('a project key is an upper-case letter and one to nine upper-case letters, digits or _', () => {
    for (const key of ['AB', 'ABC', 'A1', 'A_B', 'ABCDEFGHIJ']) expect(isProjectKey(key), key).toBe(true);
    for (const key of ['A', 'abc', 'Abc', '1AB', '_AB', 'ABCDEFGHIJK', 'AB-1', ' ABC', 'ABC ', 'ÄBC', '']) expect(isProjectKey(key), key).toBe(false);
  });

  it('every generated key of the grammar is one (property)', () => {
    fc.assert(fc.property(projectKey, (key) => isProjectKey(key)));
  });
});

describe('spec §2 (an issue key is <PROJECT_KEY>-<number>): one issue-key grammar, read in any letter case and written in capitals', () => {
  it('PROJECT-n with n from 1 and no leading zero; any case names the key in capitals', () => {
    expect(parseIssueKey('ABC-12')).toEqual({ key: 'ABC-12', projectKey: 'ABC', number: 12 });
    expect(parseIssueKey('abc-12')).toEqual({ key: 'ABC-12', projectKey: 'ABC', number: 12 });
    for (const text of ['ABC-0', 'ABC-007', 'ABC', 'ABC-', '-1', 'A-1', 'ABC-1x', ' ABC-1', 'ABC-1 ', 'ABC-1-2', '10001', 'ABCDEFGHIJK-1', 'abſ-1', 'ıab-1'])
      expect(parseIssueKey(text), text).toBeNull();
  });

  it('a key round-trips through its parts, in any letter case (property)', () => {
    fc.assert(
      fc.property(projectKey, issueNumber, fc.boolean(), (project, n, lower) => {
        const key = `${project}-${n}`;
        const parsed = parseIssueKey(lower ? key.toLowerCase() : key);
        return parsed !== null && parsed.key === key && parsed.projectKey === project && parsed.number === n && isIssueKey(key);
      }),
    );
  });

  it('anything that parses is printed back in capitals, and parses again to itself (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 16 }), (text) => {
        const parsed = parseIssueKey(text);
        return parsed === null || (parsed.key === text.toUpperCase() && parseIssueKey(parsed.key)?.key === parsed.key);
      }),
    );
  });
});

describe('spec §1 rule 7, ARCHITECTURE §14: one issue-branch grammar for jst and the code host', () => {
  it('feature/<KEY>-<slug>, hotfix/<KEY>-<slug> and the bare feature/<KEY> carry the key; the key is whole', () => {
    expect(issueBranchOf('feature/ABC-1-add-login')).toEqual({ kind: 'feature', key: 'ABC-1' });
    expect(issueBranchOf('hotfix/ABC-12-fix')).toEqual({ kind: 'hotfix', key: 'ABC-12' });
    expect(issueBranchOf('feature/ABC-1')).toEqual({ kind: 'feature', key: 'ABC-1' });
    expect(issueBranchOf('feature/ABC-12-x')?.key).not.toBe('ABC-1');
    for (const branch of [
      'main',
      'development',
      'feature/',
      'feature/ABC',
      'feature/ABC-1x',
      'feature/ABC-0-x',
      'release/ABC-1-x',
      'Feature/ABC-1',
      'x/feature/ABC-1',
      'feature/x/ABC-1',
    ])
      expect(issueBranchOf(branch), branch).toBeNull();
  });

  it('a key in lower case in the branch is the same issue: feature/abc-1-x is ABC-1 for jst as for the code host', () => {
    expect(issueBranchOf('feature/abc-1-x')).toEqual({ kind: 'feature', key: 'ABC-1' });
    expect(issueBranchOf('hotfix/Abc-7')).toEqual({ kind: 'hotfix', key: 'ABC-7' });
  });

  it('the branch jst plan names is read back to its key (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom('feature' as const, 'hotfix' as const), projectKey, issueNumber, slug, (kind, project, n, s) => {
        const key = `${project}-${n}`;
        const read = issueBranchOf(issueBranchName(kind, key, s));
        return read !== null && read.kind === kind && read.key === key;
      }),
    );
  });
});
