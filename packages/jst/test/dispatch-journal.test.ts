import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { alive, Journal, readJournal, stateOf } from '../src/dispatch/dispatch-journal.js';

describe('ARCHITECTURE §15: the dispatch journal', () => {
  it('ARCHITECTURE §15: an attempt is on disk before its process exists, written whole (temporary file, then rename)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jst-journal-'));
    const file = join(dir, 'dispatch-journal.json');
    const j = new Journal(file, true);
    const a = j.begin({ key: 'ABC-2', round: 1, role: 'executor', handOff: 'start', worktree: '/w', log: join(dir, 'dispatch', 'ABC-2-1.log') });
    expect(readJournal(file).agents['ABC-2#1']!.attempts).toEqual([{ startedAt: a.startedAt, pid: null, endedAt: null, exitCode: null }]);
    a.pid = 4242;
    a.exitCode = 1;
    j.update();
    j.begin({ key: 'ABC-2', round: 1, role: 'executor', handOff: 'start', worktree: '/w', log: join(dir, 'dispatch', 'ABC-2-1.log') });
    expect(readJournal(file).agents['ABC-2#1']!.attempts.map((x) => x.exitCode)).toEqual([1, null]);
    expect(readdirSync(dir)).toEqual(['dispatch-journal.json']);
    // --dry-run: read, never written.
    new Journal(join(dir, 'other.json'), false).begin({
      key: 'ABC-3',
      round: 1,
      role: 'executor',
      handOff: 'start',
      worktree: '/w',
      log: join(dir, 'dispatch', 'ABC-2-1.log'),
    });
    expect(readdirSync(dir)).toEqual(['dispatch-journal.json']);
  });

  it('ARCHITECTURE §15: a journal that is not JSON, or has no agents, is exit 2 naming the file, never reset', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jst-journal-'));
    const file = join(dir, 'dispatch-journal.json');
    writeFileSync(file, '{"agents": ');
    expect(() => readJournal(file)).toThrow(expect.objectContaining({ exitCode: 2, message: expect.stringContaining(`${file} is not valid JSON`) }));
    writeFileSync(file, '[]');
    expect(() => readJournal(file)).toThrow(expect.objectContaining({ exitCode: 2, message: expect.stringContaining('has no "agents" object') }));
    expect(readFileSync(file, 'utf8')).toBe('[]');
  });

  it('ARCHITECTURE §15: an attempt with no exit is running while its process lives, and unknown (counted as failed) once it is gone', () => {
    const gone = spawnSync('true').pid;
    const attempt = { startedAt: '', pid: process.pid, endedAt: null, exitCode: null };
    expect(alive(process.pid)).toBe(true);
    expect(stateOf(attempt, false)).toBe('running');
    expect(stateOf({ ...attempt, pid: gone }, false)).toBe('unknown');
    expect(stateOf({ ...attempt, pid: null }, false)).toBe('unknown');
    expect(stateOf({ ...attempt, pid: null }, true)).toBe('running');
    expect(stateOf({ ...attempt, exitCode: 0 }, false)).toBe('succeeded');
    expect(stateOf({ ...attempt, exitCode: 127 }, false)).toBe('failed');
  });
});
