import { runGit } from './run.js';

/** A person on a commit as GitHub shows one: the date in UTC, `2011-04-14T16:00:49Z`. */
export interface GitPerson {
  name: string;
  email: string;
  date: string;
}

export interface CommitInfo {
  sha: string;
  tree: string;
  parents: string[];
  /** The whole message, trailing newlines removed (as GitHub shows it). */
  message: string;
  author: GitPerson;
  committer: GitPerson;
}

/** GitHub's timestamp form from git's strict ISO 8601 (`2026-11-26T05:34:30+01:00` → `2026-11-26T04:34:30Z`). */
export function githubDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const FORMAT = ['%H', '%T', '%P', '%an', '%ae', '%aI', '%cn', '%ce', '%cI', '%B'].join('%x00');
const FIELDS = 10;

/** The commits named, in the order given (one `git log --no-walk=unsorted` for all of them). */
export async function readCommits(gitDir: string, shas: string[], timeoutMs: number): Promise<CommitInfo[]> {
  if (shas.length === 0) return [];
  const { stdout } = await runGit(gitDir, ['log', '--no-walk=unsorted', '--no-color', '--no-mailmap', '-z', `--format=${FORMAT}`, '--stdin'], {
    input: `${shas.join('\n')}\n`,
    timeoutMs,
  });
  const parts = stdout.toString('utf8').split('\0');
  const commits: CommitInfo[] = [];
  for (let i = 0; i + FIELDS <= parts.length; i += FIELDS) {
    const f = parts.slice(i, i + FIELDS);
    commits.push({
      sha: f[0]!,
      tree: f[1]!,
      parents: f[2] === '' ? [] : f[2]!.split(' '),
      author: { name: f[3]!, email: f[4]!, date: githubDate(f[5]!) },
      committer: { name: f[6]!, email: f[7]!, date: githubDate(f[8]!) },
      message: f[9]!.replace(/\n+$/, ''),
    });
  }
  return commits;
}

/** A commit's author as git stores it, for replaying it unchanged (`date` in git's raw `<epoch> <zone>`). */
export interface RawCommit {
  sha: string;
  tree: string;
  parents: string[];
  authorName: string;
  authorEmail: string;
  authorDate: string;
  message: string;
}

const RAW_FORMAT = ['%H', '%T', '%P', '%an', '%ae', '%ad', '%B'].join('%x00');
const RAW_FIELDS = 7;

export async function readRawCommits(gitDir: string, shas: string[], timeoutMs: number): Promise<RawCommit[]> {
  if (shas.length === 0) return [];
  const { stdout } = await runGit(
    gitDir,
    ['log', '--no-walk=unsorted', '--no-color', '--no-mailmap', '-z', '--date=raw', `--format=${RAW_FORMAT}`, '--stdin'],
    { input: `${shas.join('\n')}\n`, timeoutMs },
  );
  const parts = stdout.toString('utf8').split('\0');
  const out: RawCommit[] = [];
  for (let i = 0; i + RAW_FIELDS <= parts.length; i += RAW_FIELDS) {
    const f = parts.slice(i, i + RAW_FIELDS);
    out.push({
      sha: f[0]!,
      tree: f[1]!,
      parents: f[2] === '' ? [] : f[2]!.split(' '),
      authorName: f[3]!,
      authorEmail: f[4]!,
      authorDate: f[5]!,
      message: f[6]!,
    });
  }
  return out;
}
