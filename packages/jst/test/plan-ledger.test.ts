import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { completedPlan, LEDGER_FILE, recordCompleted } from '../src/plan/plan-journal.js';

/** ARCHITECTURE §13 "Plans are not repeated by accident": what the journal keeps of completed runs. */
describe('the record of completed plans (.jst/plan-journal.done.json)', () => {
  const dirs: string[] = [];
  const dir = () => {
    const d = mkdtempSync(join(tmpdir(), 'jst-ledger-'));
    dirs.push(d);
    return d;
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const plan = (requestHash: string, keys: string[]) => ({
    requestHash,
    finishedAt: new Date().toISOString(),
    keys,
    branches: [],
    worktrees: [],
    report: 'Assignment report',
    handOff: [],
  });

  it('answers the newest completed run of the same request, and nothing for another', () => {
    const d = dir();
    expect(completedPlan(d, 'a')).toBeNull();
    recordCompleted(d, plan('a', ['ABC-1']));
    recordCompleted(d, plan('b', ['ABC-2']));
    recordCompleted(d, plan('a', ['ABC-3']));
    expect(completedPlan(d, 'a')?.keys).toEqual(['ABC-3']);
    expect(completedPlan(d, 'b')?.keys).toEqual(['ABC-2']);
    expect(completedPlan(d, 'c')).toBeNull();
  });

  it('keeps the newest 200 runs', () => {
    const d = dir();
    for (let i = 0; i < 205; i++) recordCompleted(d, plan(`h${i}`, [`ABC-${i + 1}`]));
    expect(completedPlan(d, 'h0')).toBeNull();
    expect(completedPlan(d, 'h204')?.keys).toEqual(['ABC-205']);
  });

  it('an unreadable record is an error naming the file and what deleting it does, never a silent second plan', () => {
    const d = dir();
    writeFileSync(join(d, LEDGER_FILE), '{ not json');
    expect(() => completedPlan(d, 'a')).toThrow(new RegExp(`${LEDGER_FILE}.*unreadable`));
  });
});
