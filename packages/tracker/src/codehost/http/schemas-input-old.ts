import { validationFailed, unprocessable, type GhErrorEntry } from './errors.js';
import { BODY_MAX, TITLE_MAX } from './limits.js';
import { isBranchName } from './seed.js';

/**
 * What each write operation of the code host accepts in its request body, in GitHub's words
 * (ARCHITECTURE §14): a wrong field is a 422 naming it, before anything is read or written.
 */

export const DOCS = {
  create: 'https://docs.github.com/rest/pulls/pulls#create-a-pull-request',
  update: 'https://docs.github.com/rest/pulls/pulls#update-a-pull-request',
  merge: 'https://docs.github.com/rest/pulls/pulls#merge-a-pull-request',
  review: 'https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request',
  comment: 'https://docs.github.com/rest/issues/comments#create-an-issue-comment',
};

type Entry = GhErrorEntry;
export const invalid = (field: string, resource = 'PullRequest'): Entry => ({ resource, field, code: 'invalid' });
const missing = (field: string, resource = 'PullRequest'): Entry => ({ resource, field, code: 'missing_field' });
const tooLong = (field: string, max: number, resource = 'PullRequest'): Entry => ({
  resource,
  field,
  code: 'custom',
  message: `${field} is too long (maximum is ${max} characters)`,
});

/** Git's answer when a branch name cannot name a branch (never asked of git). */
export const branchOrNull = (name: string) => (isBranchName(name) ? name : null);

/** POST …/pulls: a title, a head and a base; body and draft optional. */
export function checkCreatePull(input: {
  title?: unknown;
  head?: unknown;
  base?: unknown;
  body?: unknown;
  draft?: unknown;
}): asserts input is { title: string; head: string; base: string; body?: string | null; draft?: boolean | null } {
  const errors: Entry[] = [];
  const title = input.title;
  if (title === undefined || title === null || (typeof title === 'string' && title.trim() === '')) errors.push(missing('title'));
  else if (typeof title !== 'string') errors.push(invalid('title'));
  else if ([...title].length > TITLE_MAX) errors.push(tooLong('title', TITLE_MAX));
  for (const field of ['head', 'base'] as const) {
    const v = input[field];
    if (v === undefined || v === null || v === '') errors.push(missing(field));
    else if (typeof v !== 'string') errors.push(invalid(field));
  }
  if (input.body !== undefined && input.body !== null && typeof input.body !== 'string') errors.push(invalid('body'));
  if (typeof input.body === 'string' && [...input.body].length > BODY_MAX) errors.push(tooLong('body', BODY_MAX));
  if (input.draft !== undefined && input.draft !== null && typeof input.draft !== 'boolean') errors.push(invalid('draft'));
  if (errors.length > 0) throw validationFailed(errors, DOCS.create);
}

/** PATCH …/pulls/{n}: each of title, body, state and base optional. */
export function checkUpdatePull(input: { title?: unknown; body?: unknown; state?: unknown; base?: unknown }): void {
  const errors: Entry[] = [];
  if (input.title !== undefined && (typeof input.title !== 'string' || input.title.trim() === '')) errors.push(invalid('title'));
  if (typeof input.title === 'string' && [...input.title].length > TITLE_MAX) errors.push(tooLong('title', TITLE_MAX));
  if (input.body !== undefined && input.body !== null && typeof input.body !== 'string') errors.push(invalid('body'));
  if (typeof input.body === 'string' && [...input.body].length > BODY_MAX) errors.push(tooLong('body', BODY_MAX));
  if (input.state !== undefined && input.state !== 'open' && input.state !== 'closed') errors.push(invalid('state'));
  if (input.base !== undefined && (typeof input.base !== 'string' || input.base === '')) errors.push(invalid('base'));
  if (errors.length > 0) throw validationFailed(errors, DOCS.update);
}

/** PUT …/pulls/{n}/merge: the merge method (default merge); the title, message and head sha optional. */
export function checkMerge(input: { merge_method?: unknown; commit_title?: unknown; commit_message?: unknown; sha?: unknown }): 'merge' | 'squash' | 'rebase' {
  const errors: Entry[] = [];
  const method = input.merge_method ?? 'merge';
  if (method !== 'merge' && method !== 'squash' && method !== 'rebase') errors.push(invalid('merge_method'));
  for (const field of ['commit_title', 'commit_message', 'sha'] as const) {
    const v = input[field];
    if (v !== undefined && v !== null && typeof v !== 'string') errors.push(invalid(field));
  }
  if (typeof input.commit_title === 'string' && input.commit_title.length > BODY_MAX) errors.push(tooLong('commit_title', BODY_MAX));
  if (typeof input.commit_message === 'string' && input.commit_message.length > BODY_MAX) errors.push(tooLong('commit_message', BODY_MAX));
  if (errors.length > 0) throw validationFailed(errors, DOCS.merge);
  return method as 'merge' | 'squash' | 'rebase';
}

/** POST …/pulls/{n}/reviews: the body ('' when absent). This operation's 422 carries plain-text entries (GitHub's validation_failed_simple). */
export function checkReview(input: { event?: unknown; body?: unknown; commit_id?: unknown }): string {
  const errors: string[] = [];
  const events = ['APPROVE', 'REQUEST_CHANGES', 'COMMENT'];
  if (input.event !== undefined && input.event !== null && !events.includes(input.event as string))
    errors.push('event must be one of APPROVE, REQUEST_CHANGES, COMMENT');
  if (input.body !== undefined && input.body !== null && typeof input.body !== 'string') errors.push('body must be a string');
  if (
    input.commit_id !== undefined &&
    input.commit_id !== null &&
    (typeof input.commit_id !== 'string' || !/^([0-9a-f]{40}|[0-9a-f]{64})?$/.test(input.commit_id))
  )
    errors.push('commit_id must be a commit SHA');
  if (errors.length > 0) throw unprocessable(errors, DOCS.review);
  const body = (input.body as string | null | undefined) ?? '';
  if ([...body].length > BODY_MAX) throw unprocessable([`Body is too long (maximum is ${BODY_MAX} characters)`], DOCS.review);
  return body;
}

/** POST …/issues/{n}/comments: a non-empty body. */
export function checkComment(input: { body?: unknown }): string {
  if (input.body === undefined || input.body === null || input.body === '') throw validationFailed([missing('body', 'IssueComment')], DOCS.comment);
  if (typeof input.body !== 'string') throw validationFailed([invalid('body', 'IssueComment')], DOCS.comment);
  if ([...input.body].length > BODY_MAX)
    throw validationFailed(
      [{ resource: 'IssueComment', field: 'body', code: 'custom', message: `Body is too long (maximum is ${BODY_MAX} characters)` }],
      DOCS.comment,
    );
  return input.body;
}
