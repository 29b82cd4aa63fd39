import { describe, expect, it } from 'vitest';
import {
  APPROVED,
  CHANGES_REQUESTED,
  MARKER_ROLE,
  MARKERS,
  markerOfLine,
  parsePrTargetLine,
  PR_TARGET_MARKER,
  prTargetLine,
  REPORT_MARKER,
  REVIEW_TALLY,
  RUN_REPORT,
  TASK_MEMORY,
  verdictLine,
  verdictOf,
} from '../src/index.js';

describe("ARCHITECTURE §11: the marker vocabulary, each marker with its role's account", () => {
  it('every marker jst posts, with the role it counts from', () => {
    expect(MARKERS.map((m) => [m.text, m.role])).toEqual([
      ['PR target branch:', 'assigner'],
      ['Assignment report', 'assigner'],
      ['Run report', 'executor'],
      ['Task memory', 'executor'],
      ['Review tally', 'reviewer'],
      ['APPROVED — ', 'reviewer'],
      ['CHANGES REQUESTED — ', 'reviewer'],
    ]);
    expect(MARKER_ROLE).toEqual({
      [PR_TARGET_MARKER]: 'assigner',
      [REPORT_MARKER]: 'assigner',
      [TASK_MEMORY]: 'executor',
      [RUN_REPORT]: 'executor',
      [REVIEW_TALLY]: 'reviewer',
      verdict: 'reviewer',
    });
    expect(new Set(MARKERS.map((m) => m.kind)).size).toBe(MARKERS.length);
  });

  it('a line marker is the whole first line; a prefix marker starts it and carries a value', () => {
    expect(markerOfLine('Run report\nPull request: …')?.kind).toBe('run');
    expect(markerOfLine('  Task memory  ')?.kind).toBe('memory');
    expect(markerOfLine('Review tally\r\nABC-2: APPROVED — ok')?.kind).toBe('tally');
    expect(markerOfLine('Assignment report')?.kind).toBe('assignment');
    expect(markerOfLine('PR target branch: development Worktree: /w')?.kind).toBe('target');
    expect(markerOfLine('APPROVED — fine')?.kind).toBe('approved');
    expect(markerOfLine('CHANGES REQUESTED — fix it')?.kind).toBe('changes');
  });

  it('the marker words elsewhere, or followed by more on the first line, are no marker', () => {
    for (const text of [
      'Run report (draft)',
      'Task memory: x',
      'see the Assignment report',
      'APPROVED without the dash',
      'approved — x',
      'Withdrawn: APPROVED — x',
      'x\nRun report',
      '',
    ])
      expect(markerOfLine(text), text).toBeUndefined();
  });

  it('a verdict line reads back to its kind and summary', () => {
    expect(verdictOf(verdictLine('approved', 'Looks right'))).toEqual({ kind: 'approved', summary: 'Looks right', line: `${APPROVED}Looks right` });
    expect(verdictOf(`${verdictLine('changes-requested', 'Add a test')}\nbody`)).toEqual({
      kind: 'changes-requested',
      summary: 'Add a test',
      line: `${CHANGES_REQUESTED}Add a test`,
    });
    expect(verdictOf('Withdrawn: APPROVED — x')).toBeNull();
  });

  it('spec §1 rule 11: the PR target line reads back to its branch and worktree', () => {
    expect(parsePrTargetLine(prTargetLine('feature/ABC-1-x', '/w/ABC 1'))).toEqual({ branch: 'feature/ABC-1-x', worktree: '/w/ABC 1' });
    expect(parsePrTargetLine('PR target branch: development')).toEqual({ branch: 'development', worktree: null });
    expect(parsePrTargetLine('PR target branch:')).toBeNull();
    expect(parsePrTargetLine('the PR target branch: x')).toBeNull();
  });
});
