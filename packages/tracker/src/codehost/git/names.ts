import { GitNameError } from './errors.js';

/**
 * Names checked before they reach a path or a git command line (ARCHITECTURE §14: git lives in
 * `<repos>/<owner>/<repo>.git`; nothing may resolve outside it).
 */

const REPO_NAME = /^[A-Za-z0-9_.-]{1,100}$/;

/** GitHub's charset for owners and repositories; no leading '.', no '..', no name ending `.git`. */
export function checkRepoName(kind: 'owner' | 'repository', value: string): void {
  if (!REPO_NAME.test(value) || value.startsWith('.') || value.includes('..') || (kind === 'repository' && value.toLowerCase().endsWith('.git'))) {
    throw new GitNameError(
      `The ${kind} name ${JSON.stringify(value.slice(0, 120))} is not valid: use 1 to 100 of A-Z a-z 0-9 _ . -, ` +
        `not starting with a dot, without '..'${kind === 'repository' ? ' and not ending in .git' : ''}.`,
    );
  }
}

/** The longest branch name taken (bytes), as file systems hold a ref's last component. */
export const MAX_BRANCH_BYTES = 255;

/** Why `refs/heads/<name>` breaks git check-ref-format's rules (with --branch), or null when it is fine. */
export function branchNameProblem(name: string): string | null {
  if (name.length === 0) return 'it is empty';
  if (Buffer.byteLength(name, 'utf8') > MAX_BRANCH_BYTES) return `it is longer than ${MAX_BRANCH_BYTES} bytes`;
  if (name.startsWith('-')) return "it starts with '-'";
  if (name === '@' || name === 'HEAD') return `it is "${name}"`;
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name)) return 'it holds a space, a control character or one of ~ ^ : ? * [ \\';
  if (name.includes('..')) return "it holds '..'";
  if (name.includes('@{')) return "it holds '@{'";
  if (name.startsWith('/') || name.endsWith('/') || name.includes('//')) return "it starts or ends with '/' or holds '//'";
  if (name.endsWith('.')) return "it ends with '.'";
  for (const part of name.split('/')) {
    if (part.startsWith('.')) return "a part of it starts with '.'";
    if (part.endsWith('.lock')) return "a part of it ends with '.lock'";
  }
  return null;
}

export function checkBranchName(name: string): void {
  const problem = branchNameProblem(name);
  if (problem !== null) {
    throw new GitNameError(`The branch name ${JSON.stringify(name.slice(0, 120))} is not valid: ${problem} (git check-ref-format's rules).`);
  }
}

const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

export function checkSha(value: string): void {
  if (!SHA.test(value)) throw new GitNameError(`${JSON.stringify(value.slice(0, 80))} is not a full commit SHA (40 lowercase hex digits).`);
}
