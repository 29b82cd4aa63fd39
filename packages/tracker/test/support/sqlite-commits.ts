import { openSync, readSync, closeSync } from 'node:fs';
import { endianness } from 'node:os';

/**
 * How many transactions have been committed to a SQLite file in WAL mode: the wal-index header's
 * iChange, "incremented with each transaction" (sqlite.org/walformat.html, the -shm file, native
 * byte order), which also counts on across a WAL restart. PRAGMA data_version cannot count
 * commits: it moves once for any number of them between two looks.
 */
export function commitCount(sqliteFile: string): number {
  const fd = openSync(`${sqliteFile}-shm`, 'r');
  try {
    const header = Buffer.alloc(12);
    readSync(fd, header, 0, 12, 0);
    return endianness() === 'LE' ? header.readUInt32LE(8) : header.readUInt32BE(8);
  } finally {
    closeSync(fd);
  }
}
