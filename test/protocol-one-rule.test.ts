import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { issueKeyArg } from '../packages/jst/src/core/issue-key.js';
import { issueKeyFromBranch } from '../packages/jst/src/phase/handover.js';
import * as jst from '../packages/jst/src/phase/markers.js';
import { issueKeyOfBranch } from '../packages/tracker/src/codehost/domain/issue-keys.js';
import { parseIssueKey } from '../packages/tracker/src/domain/ids.js';
import { markerOf } from '../packages/tracker/src/http/board/markers.js';

/**
 * ARCHITECTURE §16: what jst and jst-tracker must spell alike is @jst/protocol's, so the two programs
 * read every key, branch and marker the same way. Each side is asked through its own module.
 */

const letters = fc.constantFrom(...'ABCabcXYZxyz019_-/'.split(''));
const keyish = fc.tuple(fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,11}$/), fc.stringMatching(/^[0-9]{1,4}$/)).map(([p, n]) => `${p}-${n}`);
const branchish = fc.oneof(
  fc
    .tuple(fc.constantFrom('feature/', 'hotfix/', 'Feature/', 'release/', ''), keyish, fc.constantFrom('', '-x', '-a-b', 'x', '/y'))
    .map((parts) => parts.join('')),
  fc.array(letters, { maxLength: 20 }).map((a) => a.join('')),
);

describe('ARCHITECTURE §16: jst and jst-tracker read keys, branches and markers by one rule (@jst/protocol)', () => {
  it('spec §1 rule 7: a branch names the same issue for jst (its worktree) and for the code host (the board) (property)', () => {
    fc.assert(fc.property(branchish, (branch) => (issueKeyFromBranch(branch)?.key ?? null) === issueKeyOfBranch(branch)));
    expect(issueKeyFromBranch('feature/abc-1-x')?.key).toBe('ABC-1');
    expect(issueKeyOfBranch('feature/abc-1-x')).toBe('ABC-1');
  });

  it('spec §2: a key jst normalises is one the tracker looks up, and the same one (property)', () => {
    fc.assert(
      fc.property(fc.oneof(keyish, fc.string({ maxLength: 12 })), (text) => {
        const tracker = parseIssueKey(text);
        const jst = issueKeyArg(text);
        return tracker === null ? jst === text.trim() : jst === `${tracker.projectKey}-${tracker.number}`;
      }),
    );
  });

  it('ARCHITECTURE §11, §12: every marker jst writes is one the board highlights, from the same role', () => {
    const doc = (text: string) => JSON.stringify(jst.markedBody(text.split('\n')[0]!, text.split('\n').slice(1)).adf);
    const written: [string, string][] = [
      [`${jst.REPORT_MARKER}\nRequest: x`, jst.MARKER_ROLE[jst.REPORT_MARKER]],
      [`${jst.RUN_REPORT}\nPull request: x`, jst.MARKER_ROLE[jst.RUN_REPORT]],
      [`${jst.TASK_MEMORY}\nnote`, jst.MARKER_ROLE[jst.TASK_MEMORY]],
      [`${jst.REVIEW_TALLY}\nABC-2: APPROVED — ok`, jst.MARKER_ROLE[jst.REVIEW_TALLY]],
      [jst.verdictLine('approved', 'ok'), jst.MARKER_ROLE.verdict],
      [jst.verdictLine('changes-requested', 'fix'), jst.MARKER_ROLE.verdict],
    ];
    for (const [text, role] of written) expect(markerOf(doc(text))?.role, text).toBe(role);
  });

  it('ARCHITECTURE §11, §12: a first line jst does not count is no marker on the board either', () => {
    for (const text of ['Run report (draft)', 'Task memory: x', 'Review tally so far', 'Withdrawn: APPROVED — x', 'APPROVED —']) {
      expect([jst.RUN_REPORT, jst.TASK_MEMORY, jst.REVIEW_TALLY, jst.REPORT_MARKER]).not.toContain(jst.firstLine(text));
      expect(jst.verdictOf(text)).toBeNull();
      expect(markerOf(JSON.stringify(jst.markedBody(text, []).adf)), text).toBeUndefined();
    }
  });
});
