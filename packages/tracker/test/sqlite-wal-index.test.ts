import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walIndexVersion } from '../src/store/sqlite/wal-index.js';

/**
 * ARCHITECTURE §19 (the read cache's data version on SQLite): the WAL index header read in place
 * of PRAGMA data_version moves with every commit of any connection, a checkpoint that restarts the
 * WAL included, and stays put while nothing is committed.
 */
describe('SQLite: the data version read from the WAL index', () => {
  let dir: string;
  let file: string;
  let writer: Database.Database;
  let other: Database.Database;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'jst-wal-index-'));
    file = join(dir, 'db.sqlite');
    writer = new Database(file);
    writer.pragma('journal_mode = WAL');
    writer.exec('create table t (x integer)');
    other = new Database(file);
  });
  afterAll(() => {
    writer.close();
    other.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('moves with every commit, by this connection or another, and only then', () => {
    const index = walIndexVersion(file)!;
    expect(index).toBeDefined();
    try {
      const dataVersion = other.prepare('pragma data_version').pluck();
      let version = index.read();
      for (let i = 0; i < 50; i++) {
        const db = i % 2 === 0 ? writer : other;
        const before = dataVersion.get();
        expect(index.read()).toBe(version);
        db.prepare('insert into t values (?)').run(i);
        const moved = index.read();
        expect(moved).not.toBe(version);
        version = moved;
        // SQLite's own data version (of a connection that did not write) agrees that something changed.
        if (db === writer) expect(dataVersion.get()).not.toBe(before);
      }
      // Reads change nothing.
      other.prepare('select count(*) from t').get();
      expect(index.read()).toBe(version);
      // A checkpoint that restarts the WAL, then a commit into the restarted WAL.
      writer.pragma('wal_checkpoint(TRUNCATE)');
      const afterCheckpoint = index.read();
      other.prepare('insert into t values (?)').run(-1);
      expect(index.read()).not.toBe(afterCheckpoint);
    } finally {
      index.close();
    }
  });

  it('is undefined without a WAL index (the caller asks SQLite instead)', () => {
    expect(walIndexVersion(join(dir, 'missing.sqlite'))).toBeUndefined();
  });
});
