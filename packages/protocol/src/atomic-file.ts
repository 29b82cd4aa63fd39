import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Writes `value` as JSON (two-space indented, a final newline) so that a reader, or a run killed at
 * any point, finds the old file or the new one whole, never half of one, and the new one survives a
 * crash of the machine once this returns: a temporary file in the same folder (named after the file
 * and this process, ending `.tmp`), written and fsynced, renamed over the file, then the folder
 * fsynced so the rename itself is on disk (where the platform allows a folder to be opened: not on
 * Windows). The folder is made when missing. The journals of `jst plan` and `jst dispatch` are
 * written so (ARCHITECTURE §7, §15).
 */
export function writeJsonAtomic(file: string, value: unknown): void {
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, `${JSON.stringify(value, null, 2)}\n`);
    fsyncPath(tmp);
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
  if (process.platform !== 'win32') fsyncPath(dir);
}

function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
