/**
 * The names jst and jst-tracker share: project keys, issue keys and the issue branches that carry
 * them (spec §1 rule 7, §2; ARCHITECTURE §5, §14). One rule each, read alike by jst (settings,
 * key arguments, the worktree's branch) and by the tracker (seed files, key lookups, JQL, the code
 * host's links from a pull request's head branch to its issue).
 */

/**
 * A project key, the vendor's rule: an upper-case letter, then one to nine upper-case letters,
 * digits or `_` (two to ten characters in all). Written in capitals only (a setting, a seed).
 */
const PROJECT = '[A-Z][A-Z0-9_]{1,9}';
/** An issue's number within its project: from 1, no leading zero (the tracker never makes ABC-0 or ABC-007). */
const NUMBER = '[1-9][0-9]*';

export const PROJECT_KEY = new RegExp(`^${PROJECT}$`);
/** An issue key in the tracker's form: the project key, a dash, the number (`ABC-12`). */
export const ISSUE_KEY = new RegExp(`^(${PROJECT})-(${NUMBER})$`);
/** The same key as a person may type it, in any letter case (ASCII letters only; a schema's `pattern`). */
export const ISSUE_KEY_ANY_CASE = new RegExp(ISSUE_KEY.source.replaceAll('A-Z', 'A-Za-z'));

export function isProjectKey(text: string): boolean {
  return PROJECT_KEY.test(text);
}

export interface IssueKey {
  /** The key in the tracker's form (upper case). */
  key: string;
  projectKey: string;
  number: number;
}

/**
 * An issue key typed in any letter case (`abc-12` names ABC-12, as the hosted tracker accepts it),
 * in the tracker's form; null when the text is not key-shaped. Nothing is trimmed.
 */
export function parseIssueKey(text: string): IssueKey | null {
  const m = ISSUE_KEY_ANY_CASE.exec(text);
  return m ? { key: m[0].toUpperCase(), projectKey: m[1]!.toUpperCase(), number: Number(m[2]) } : null;
}

/** Whether `text` names an issue by key, in any letter case. */
export const isIssueKey = (text: string): boolean => parseIssueKey(text) !== null;

export type IssueBranchKind = 'feature' | 'hotfix';

export interface IssueBranch {
  kind: IssueBranchKind;
  /** The issue key the branch carries, in the tracker's form. */
  key: string;
}

/** spec §1 rule 7: `feature/<KEY>-<slug>` (planned work) or `hotfix/<KEY>-<slug>` (an emergency fix). */
export const issueBranchName = (kind: IssueBranchKind, key: string, slug: string) => `${kind}/${key}-${slug}`;

/**
 * The issue a branch belongs to: `feature/<KEY>-…`, `hotfix/<KEY>-…` or the bare `feature/<KEY>`,
 * the key whole (ABC-1 is not ABC-12) and in any letter case, as the code host links a pull
 * request's head branch to its issue; null for any other branch.
 */
export function issueBranchOf(branch: string): IssueBranch | null {
  const m = /^(feature|hotfix)\/([^/-]+-[^/-]+)(?:-|$)/.exec(branch);
  const key = m ? parseIssueKey(m[2]!) : null;
  return key ? { kind: m![1] as IssueBranchKind, key: key.key } : null;
}
