import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { access, chmod, link, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PRE_RECEIVE } from './protect-hook.js';

/**
 * What git tells the code host of the refs a push updated (ARCHITECTURE §14 "Refs from the
 * database"): receive-pack runs the post-receive hook only after it updated refs, and gives it
 * exactly the refs it updated (`old new ref` lines; a ref the pre-receive hook or git refused is
 * not among them). Through the git front the hook writes them to a file of this process's own
 * (JST_PUSH_LOG), read when receive-pack ends; a push made straight into the repository folder
 * (no JST_PUSH_LOG) appends them to the repository's spool, `jst-pushes`, read on the next use.
 */
export const POST_RECEIVE = `#!/bin/sh
# jst-tracker: records the refs git updated (docs/codehost.md "Refs"). Shell builtins only: a
# process costs a push more than the lines it copies. receive-pack waits for this hook before it
# ends, and the server reads the log only then.
if [ -n "$JST_PUSH_LOG" ]; then
  while IFS= read -r line; do printf '%s\\n' "$line"; done > "$JST_PUSH_LOG"
else
  while IFS= read -r line; do printf '%s\\n' "$line"; done >> "\${GIT_DIR:-.}/jst-pushes"
fi
`;

/** The file name of a repository's spool of pushes made straight into its folder. */
export const SPOOL = 'jst-pushes';

export interface PushedRef {
  ref: string;
  old: string;
  new: string;
}

let hooksDirs: { plain: string; protect: string } | null = null;

/**
 * The server's hooks folder (core.hooksPath of every receive-pack it runs): made once per process,
 * private to it. Two of them: with the pre-receive hook of branch protection (./protect-hook.ts)
 * for a push that rules bind (`protect`), without it otherwise, so an unprotected push starts no
 * hook process it does not need. The plain one also holds the push logs, one per push, named at
 * random, removed when read.
 */
export function serverHooksPath(protect = false): string {
  if (hooksDirs === null) {
    const root = mkdtempSync(join(tmpdir(), 'jst-tracker-hooks-'));
    const plain = join(root, 'plain');
    const guarded = join(root, 'protect');
    for (const dir of [plain, guarded]) {
      mkdirSync(dir);
      writeFileSync(join(dir, 'post-receive'), POST_RECEIVE);
      chmodSync(join(dir, 'post-receive'), 0o755);
    }
    writeFileSync(join(guarded, 'pre-receive'), PRE_RECEIVE);
    chmodSync(join(guarded, 'pre-receive'), 0o755);
    hooksDirs = { plain, protect: guarded };
  }
  return protect ? hooksDirs.protect : hooksDirs.plain;
}

/** A fresh push log path for one receive-pack (written by the hook, read by readPushLog). */
export function newPushLog(): string {
  return join(serverHooksPath(), `push-${randomBytes(12).toString('hex')}`);
}

const LINE = /^([0-9a-f]{40}|[0-9a-f]{64}) ([0-9a-f]{40}|[0-9a-f]{64}) (refs\/\S.*)$/;

/** git's `old new ref` lines; any other line is skipped. */
export function parsePushLines(text: string): PushedRef[] {
  const out: PushedRef[] = [];
  for (const line of text.split('\n')) {
    const m = LINE.exec(line);
    if (m) out.push({ old: m[1]!, new: m[2]!, ref: m[3]! });
  }
  return out;
}

/** The refs one push updated, from its log (none when the hook did not run: nothing was updated); the log is removed. */
export async function readPushLog(path: string): Promise<PushedRef[]> {
  try {
    return parsePushLines(await readFile(path, 'utf8'));
  } catch {
    return [];
  } finally {
    await rm(path, { force: true }).catch(() => undefined);
  }
}

/** A spool taken: its updates, and `done`, called once they are recorded (other readers wait for it). */
export interface TakenSpool {
  updates: PushedRef[];
  done(): Promise<void>;
}

const NOTHING: TakenSpool = { updates: [], done: async () => undefined };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const code = (e: unknown) => (e as NodeJS.ErrnoException).code;

/**
 * Takes a repository's spool (pushes made straight into its folder), one reader at a time across
 * processes: `link` to `jst-pushes.taking` (which fails when another reader holds it) then the
 * spool's name removed. A reader that finds it held waits until the holder has recorded the
 * updates (`done`), so no reader answers from rows a push already outdated; a holder gone for
 * more than STALE_MS is taken over. With no spool this is two failed system calls (made at once), no git.
 */
export async function takeSpool(gitDir: string): Promise<TakenSpool> {
  const spool = join(gitDir, SPOOL);
  const taking = join(gitDir, `${SPOOL}.taking`);
  // The usual answer (no spool, nobody taking one) from two failed system calls made at once: as
  // promises each went through libuv's thread pool, ~0.2 ms apiece on a small VM, on every read.
  if (!existsSync(spool) && !existsSync(taking)) return NOTHING;
  const started = Date.now();
  for (;;) {
    try {
      await link(spool, taking);
    } catch (e) {
      if (code(e) === 'ENOENT' && !(await exists(taking))) return NOTHING;
      if (code(e) !== 'ENOENT' && code(e) !== 'EEXIST') throw e;
      if (Date.now() - started > STALE_MS) {
        // Its holder is gone: take its file over under a name of our own.
        const mine = `${taking}.${randomBytes(6).toString('hex')}`;
        try {
          await rename(taking, mine);
        } catch {
          continue;
        }
        return readTaken(mine);
      }
      await sleep(5);
      continue;
    }
    await rm(spool, { force: true });
    return readTaken(taking);
  }
}

/** How long a reader waits for another to record a spool before taking it over. */
const STALE_MS = 10_000;

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

async function readTaken(path: string): Promise<TakenSpool> {
  let updates: PushedRef[];
  try {
    updates = parsePushLines(await readFile(path, 'utf8'));
  } catch (e) {
    await rm(path, { force: true });
    throw e;
  }
  return { updates, done: () => rm(path, { force: true }) };
}

/** Puts the post-receive hook in a repository's own hooks folder (for pushes made straight into it). */
export async function installRepoHook(gitDir: string): Promise<void> {
  const path = join(gitDir, 'hooks', 'post-receive');
  const current = await readFile(path, 'utf8').catch(() => null);
  if (current === POST_RECEIVE) return;
  await mkdir(join(gitDir, 'hooks'), { recursive: true });
  const tmp = `${path}.${randomBytes(6).toString('hex')}`;
  await writeFile(tmp, POST_RECEIVE);
  await chmod(tmp, 0o755);
  await rename(tmp, path);
}
