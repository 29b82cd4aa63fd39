/**
 * The refusals the git layer reports as values the REST side maps to GitHub's answers
 * (ARCHITECTURE §14: a conflict is `mergeable: false` and a 405; a lost race a 409).
 */

/** The head does not merge cleanly into the base; `files` names every conflicted path. */
export class MergeConflictError extends Error {
  readonly files: string[];
  constructor(files: string[]) {
    super(
      `Merge conflict in ${files.length === 0 ? 'the repository' : files.join(', ')}: ` +
        'update the head branch from the base branch, resolve the conflicts and push again.',
    );
    this.name = 'MergeConflictError';
    this.files = files;
  }
}

/** The base branch kept moving while a merge was being published; nothing was written. */
export class RefMovedError extends Error {
  constructor(branch: string, attempts: number) {
    super(`The base branch ${branch} moved during the merge ${attempts} times in a row; nothing was merged. Try the merge again.`);
    this.name = 'RefMovedError';
  }
}

/** An owner, repository, branch or commit name the git layer refuses before running git. */
export class GitNameError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GitNameError';
  }
}

/** git itself failed (not a refusal): the command, its exit status and the end of its stderr. */
export class GitCommandError extends Error {
  readonly exitCode: number | null;
  readonly stderr: string;
  constructor(command: string, exitCode: number | null, stderr: string) {
    super(`git ${command} failed (${exitCode === null ? 'killed' : `exit ${exitCode}`}): ${stderr.trim().slice(-500) || 'no message'}`);
    this.name = 'GitCommandError';
    this.exitCode = exitCode;
    this.stderr = stderr;
  }
}
