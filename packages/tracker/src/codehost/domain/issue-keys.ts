/** The tracker's issue keys as the code host meets them: in head branch names, for the board's development panel. */

const ISSUE_KEY = /^[A-Za-z][A-Za-z0-9_]*-\d+$/;

/** Whether `key` has an issue key's shape (`ABC-1`, any case). */
export function isIssueKey(key: string): boolean {
  return ISSUE_KEY.test(key);
}

/** The issue key a head branch carries (ARCHITECTURE §14: `feature/<KEY>-…`, `hotfix/<KEY>-…`), upper-case; null for any other branch. */
export function issueKeyOfBranch(branch: string): string | null {
  const m = /^(?:feature|hotfix)\/([A-Za-z][A-Za-z0-9_]*-\d+)(?:-|$)/.exec(branch);
  return m ? m[1]!.toUpperCase() : null;
}
