import { hashToken } from '../../kit/tokens.js';
import type { CodehostStore } from '../store/store.js';
import { CodehostError } from './errors.js';
import type { GitErrorKinds, GitRepos } from './git-port.js';
import type { EventListener } from './event-types.js';
import type { IssueMover } from './integration-types.js';
import { GIT, STORE, type HoldsParts } from './store-access.js';
import { tokenSalt } from './settings.js';

/** Why the code host is off when the server was started over PostgreSQL without a repository folder. */
export const NO_REPOS =
  'this jst-tracker was started with --database-url and without --repos, so it has no repository folder. Restart it with --repos DIR (docs/codehost.md).';

export interface CodeHostParts {
  store: CodehostStore;
  /** Null when the server runs without a repository folder (--database-url without --repos) or git is unfit. */
  git: GitRepos | null;
  gitErrors: GitErrorKinds;
  /** Why git is null, when it is for another reason than a missing --repos. */
  offReason?: string | undefined;
  now?: () => string;
}

/**
 * The state of the code host in one process (ARCHITECTURE §14, §20): its store and git, kept under
 * keys only the domain imports (store-access.ts), the salt of its token hashes and its clock. The
 * rules are the domain's functions over it, one module per aggregate (access.ts, repos.ts,
 * pulls.ts, merges.ts, reviews.ts, comments.ts); the routes and pages hold a CodeHost and call them.
 */
export class CodeHost implements HoldsParts {
  readonly [STORE]: CodehostStore;
  readonly [GIT]: GitRepos | null;
  readonly offReason: string;
  readonly gitErrors: GitErrorKinds;
  readonly now: () => string;
  /** Who hears what happened (domain/events.ts): set by the composition (webhooks, the tracker's integration). */
  listener: EventListener | null = null;
  /** Where a listener's failure is reported (the server's log); never the caller's answer. */
  report: (error: unknown) => void = () => undefined;
  /** Tells this process's delivery loop that deliveries were queued (set by the composition). */
  wake: () => void = () => undefined;
  /** Moves a tracker issue (domain/integration.ts), set by the composition; null: no integration. */
  mover: IssueMover | null = null;

  private constructor(
    parts: CodeHostParts,
    private readonly salt: string,
  ) {
    this[STORE] = parts.store;
    this[GIT] = parts.git;
    this.offReason = parts.offReason ?? NO_REPOS;
    this.gitErrors = parts.gitErrors;
    this.now = parts.now ?? (() => new Date().toISOString());
  }

  /** Opens the code host over its store, making the token salt on first use. */
  static async open(parts: CodeHostParts): Promise<CodeHost> {
    return new CodeHost(parts, await tokenSalt(parts.store));
  }

  /** Whether the code host serves repositories (false: every operation answers that it is off, and why). */
  get on(): boolean {
    return this[GIT] !== null;
  }

  /** The stored form of a token (ARCHITECTURE §4: tokens are kept only as hashes). */
  hash(token: string): string {
    return hashToken(this.salt, token);
  }
}

/** The code host's git, or the domain's 'off' error when it runs without one. */
export function gitOf(host: CodeHost): GitRepos {
  const git = host[GIT];
  if (!git) throw new CodehostError('off', `The code host is off: ${host.offReason}`);
  return git;
}
