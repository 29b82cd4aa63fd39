import { describe, expect, it } from 'vitest';
import * as P from '../src/index.js';

describe("ARCHITECTURE §11: the marker vocabulary, each marker with its role's account", () => {
  it('every marker jst posts, with the role it counts from', () => {
    expect(P.MARKERS.map((m) => [m.text, m.role])).toEqual([
      ['PR target branch:', 'assigner'],
      ['Assignment report', 'assigner'],
      ['Run report', 'executor'],
      ['Task memory', 'executor'],
      ['Review tally', 'reviewer'],
      ['APPROVED — ', 'reviewer'],
      ['CHANGES REQUESTED — ', 'reviewer'],
    ]);
    // MARKER_ROLE (which jst's readers are typed by) says the same, a verdict's under `verdict`.
    for (const m of P.MARKERS) expect(m.text in P.MARKER_ROLE ? P.MARKER_ROLE[m.text as P.Marker] : P.MARKER_ROLE.verdict, m.text).toBe(m.role);
    expect(Object.keys(P.MARKER_ROLE)).toHaveLength(P.MARKERS.length - 1);
    expect(new Set(P.MARKERS.map((m) => m.kind)).size).toBe(P.MARKERS.length);
  });

  it('a line marker is the whole first line; a prefix marker starts it and carries a value', () => {
    expect(P.markerOfLine('Run report\nPull request: …')?.kind).toBe('run');
    expect(P.markerOfLine('  Task memory  ')?.kind).toBe('memory');
    expect(P.markerOfLine('Review tally\r\nABC-2: APPROVED — ok')?.kind).toBe('tally');
    expect(P.markerOfLine('Assignment report')?.kind).toBe('assignment');
    expect(P.markerOfLine('PR target branch: development Worktree: /w')?.kind).toBe('target');
    expect(P.markerOfLine('APPROVED — fine')?.kind).toBe('approved');
    expect(P.markerOfLine('CHANGES REQUESTED — fix it')?.kind).toBe('changes');
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
      expect(P.markerOfLine(text), text).toBeUndefined();
  });

  it('a verdict line reads back to its kind and summary', () => {
    expect(P.verdictOf(P.verdictLine('approved', 'Looks right'))).toEqual({ kind: 'approved', summary: 'Looks right', line: `${P.APPROVED}Looks right` });
    expect(P.verdictOf(`${P.verdictLine('changes-requested', 'Add a test')}\nbody`)).toEqual({
      kind: 'changes-requested',
      summary: 'Add a test',
      line: `${P.CHANGES_REQUESTED}Add a test`,
    });
    expect(P.verdictOf('Withdrawn: APPROVED — x')).toBeNull();
  });

  it('spec §1 rule 11: the PR target line reads back to its branch and worktree', () => {
    expect(P.parsePrTargetLine(P.prTargetLine('feature/ABC-1-x', '/w/ABC 1'))).toEqual({ branch: 'feature/ABC-1-x', worktree: '/w/ABC 1' });
    expect(P.parsePrTargetLine('PR target branch: development')).toEqual({ branch: 'development', worktree: null });
    expect(P.parsePrTargetLine('PR target branch:')).toBeNull();
    expect(P.parsePrTargetLine('the PR target branch: x')).toBeNull();
  });
});
