import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIXTURE_GIT_ENV, git } from '../../../../../test/support/repo.js';

export { git, FIXTURE_GIT_ENV };

/** A temporary folder removed by `cleanup`. */
export function tempDir(prefix: string): { path: string; cleanup(): void } {
  const path = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

/** Files to write (text or bytes) or remove (null). */
export type Changes = Record<string, string | Buffer | null>;

/**
 * A work tree whose `origin` is a bare repository folder (pushes straight to disk, not over HTTP):
 * how the tests put commits into the code host's repositories.
 */
export class Work {
  constructor(readonly dir: string) {}

  static clone(bare: string, into: string, branch: string): Work {
    git(dirname(into), 'init', '--quiet', `--initial-branch=${branch}`, into);
    const w = new Work(into);
    w.git('config', 'user.name', 'Work Tree');
    w.git('config', 'user.email', 'work@example.test');
    w.git('config', 'commit.gpgsign', 'false');
    w.git('remote', 'add', 'origin', bare);
    return w;
  }

  git(...args: string[]): string {
    return git(this.dir, ...args);
  }

  /** Writes the changes and commits them; returns the new commit's SHA. */
  commit(changes: Changes, message: string, author?: { name: string; email: string; date?: string }): string {
    for (const [file, content] of Object.entries(changes)) {
      const p = join(this.dir, file);
      if (content === null) unlinkSync(p);
      else {
        mkdirSync(dirname(p), { recursive: true });
        writeFileSync(p, content);
      }
    }
    this.git('add', '-A');
    const env =
      author === undefined
        ? FIXTURE_GIT_ENV
        : {
            ...FIXTURE_GIT_ENV,
            GIT_AUTHOR_NAME: author.name,
            GIT_AUTHOR_EMAIL: author.email,
            ...(author.date ? { GIT_AUTHOR_DATE: author.date } : {}),
          };
    execFileSync('git', ['commit', '--quiet', '--allow-empty', '-m', message], { cwd: this.dir, env, stdio: 'pipe' });
    return this.git('rev-parse', 'HEAD');
  }

  /** Starts `branch` at `from` (a branch or SHA) and checks it out. */
  branch(branch: string, from: string): void {
    this.git('checkout', '--quiet', '-B', branch, from);
  }

  push(...refspecs: string[]): void {
    this.git('push', '--quiet', 'origin', ...refspecs);
  }
}

/** In a bare repository: `git merge-base --is-ancestor A D`. */
export function isAncestor(bare: string, a: string, d: string): boolean {
  try {
    execFileSync('git', ['--git-dir', bare, 'merge-base', '--is-ancestor', a, d], { env: FIXTURE_GIT_ENV, stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

/** `git show <rev>:<path>` in a bare repository, or null when the path is not there. */
export function fileAt(bare: string, rev: string, path: string): string | null {
  try {
    return execFileSync('git', ['--git-dir', bare, 'show', `${rev}:${path}`], { env: FIXTURE_GIT_ENV, encoding: 'utf8', stdio: 'pipe' });
  } catch {
    return null;
  }
}

export function bareGit(bare: string, ...args: string[]): string {
  return execFileSync('git', ['--git-dir', bare, ...args], { env: FIXTURE_GIT_ENV, encoding: 'utf8', stdio: 'pipe' }).trim();
}

const ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));

/** Builds packages/tracker (incrementally): the worker processes in ./fixtures run the built code. */
export function buildTrackerDist(): void {
  const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-b', 'packages/tracker'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`building packages/tracker failed:\n${r.stdout}${r.stderr}`);
}

/**
 * A new repository `<owner>/<prefix><n>` made by `repos` (its default branch `development`), with
 * a work tree under `dir` that pushed one commit of `files` to it.
 */
export function repoMaker(
  repos: { ensure(owner: string, name: string, branch: string): Promise<void>; dir(owner: string, name: string): string },
  dir: string,
  prefix: string,
  files: Changes,
): () => Promise<{ name: string; bare: string; work: Work; base: string }> {
  let n = 0;
  return async () => {
    const name = `${prefix}${++n}`;
    await repos.ensure('demo', name, 'development');
    const bare = repos.dir('demo', name);
    const work = Work.clone(bare, join(dir, `work-${name}`), 'development');
    const base = work.commit(files, 'initial');
    work.push('development');
    return { name, bare, work, base };
  };
}
