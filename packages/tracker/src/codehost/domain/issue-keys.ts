/** The tracker's issue keys as the code host meets them: in head branch names, for the board's development panel. */
import { isIssueKey, issueBranchOf } from '@jst/protocol';

/** Whether `key` has an issue key's shape (`ABC-1`, any case): @jst/protocol's grammar, jst's too. */
export { isIssueKey };

/** The issue key a head branch carries (ARCHITECTURE §14: `feature/<KEY>-…`, `hotfix/<KEY>-…`), upper-case; null for any other branch. */
export function issueKeyOfBranch(branch: string): string | null {
  return issueBranchOf(branch)?.key ?? null;
}
