import type { ChRepo, ChUser } from './model.js';
import type { CommentView, PullView, RepoAccess, ReviewView } from './views.js';

/**
 * What happened on the code host, as its domain tells it (ARCHITECTURE §22): the pull request,
 * review, comment and merge operations and a push's ref updates announce one of these after their
 * write. Whoever listens (the composition: webhooks' payloads, the tracker's integration) is given
 * it; a listener's failure never fails the operation that announced it.
 */
export type HostEvent =
  | {
      kind: 'pull_request';
      action: 'opened' | 'closed' | 'reopened' | 'edited' | 'synchronize';
      access: RepoAccess;
      view: PullView;
      changes?: Record<string, { from: string }>;
      /** synchronize: the head before and after. */
      before?: string;
      after?: string;
    }
  | { kind: 'pull_request_review'; action: 'submitted'; access: RepoAccess; view: PullView; review: ReviewView }
  | { kind: 'issue_comment'; action: 'created'; access: RepoAccess; view: PullView; comment: CommentView }
  | { kind: 'refs'; repo: ChRepo; pusher: ChUser | null; updates: RefUpdate[] };

/** One branch's move in a push (`before`/`after` null: created/deleted). */
export interface RefUpdate {
  branch: string;
  before: string | null;
  after: string | null;
}

export type EventListener = (event: HostEvent) => Promise<void>;
