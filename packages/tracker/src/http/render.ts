import type { Static } from '@sinclair/typebox';
import { jiraDate, publicId } from '../domain/ids.js';
import { ISSUE_TYPES } from '../domain/issue-input.js';
import type { Comment, Issue, Project, Status, User } from '../domain/model.js';
import type { Caller } from '../domain/tracker.js';
import type { WorkflowTransition } from '../domain/workflow.js';
import type { Comment as CommentSchema } from './schemas/comments.js';

/** JSON shapes of the vendor's OpenAPI (`spec/jira-openapi`), built from domain values (domain/model.ts). */

const avatarUrls = (base: string, kind: string, id: string) => ({
  '48x48': `${base}/secure/${kind}avatar?size=large&id=${id}`,
  '24x24': `${base}/secure/${kind}avatar?size=small&id=${id}`,
  '16x16': `${base}/secure/${kind}avatar?size=xsmall&id=${id}`,
  '32x32': `${base}/secure/${kind}avatar?size=medium&id=${id}`,
});

/**
 * spec §2: `emailAddress` is shown only to the user it belongs to (as a Jira site with the
 * default privacy setting does), so an assignee's address appears only when it is the caller.
 */
export function renderUser(caller: Caller, user: User, withLocale = true) {
  return {
    self: `${caller.baseUrl}/rest/api/3/user?accountId=${user.account_id}`,
    accountId: user.account_id,
    accountType: 'atlassian',
    ...(user.id === caller.user.id ? { emailAddress: user.email } : {}),
    avatarUrls: avatarUrls(caller.baseUrl, 'user', user.account_id),
    displayName: user.display_name,
    active: user.active === 1,
    timeZone: 'Etc/UTC',
    ...(withLocale ? { locale: 'en_US' } : {}),
  };
}

/** UserDetails (comment authors, issue people) has no `locale` in the vendor's schema. */
export const renderUserDetails = (caller: Caller, user: User) => renderUser(caller, user, false);

export function renderProject(caller: Caller, project: Project) {
  const id = publicId(project.id);
  return {
    expand: 'description,lead,issueTypes,url,projectKeys,permissions,insight',
    self: `${caller.baseUrl}/rest/api/3/project/${id}`,
    id,
    key: project.key,
    name: project.name,
    avatarUrls: avatarUrls(caller.baseUrl, 'project', id),
    projectTypeKey: 'software',
    simplified: false,
    style: 'classic',
    isPrivate: false,
    properties: {},
  };
}

export const CATEGORIES = {
  new: { id: 2, key: 'new', colorName: 'blue-gray', name: 'To Do' },
  indeterminate: { id: 4, key: 'indeterminate', colorName: 'yellow', name: 'In Progress' },
  done: { id: 3, key: 'done', colorName: 'green', name: 'Done' },
} as const;

export function renderStatus(caller: Caller, status: Status) {
  const id = publicId(status.id);
  const cat = CATEGORIES[status.category as keyof typeof CATEGORIES] ?? CATEGORIES.indeterminate;
  return {
    self: `${caller.baseUrl}/rest/api/3/status/${id}`,
    description: '',
    iconUrl: `${caller.baseUrl}/images/icons/statuses/generic.png`,
    name: status.name,
    id,
    statusCategory: { self: `${caller.baseUrl}/rest/api/3/statuscategory/${cat.id}`, ...cat },
  };
}

export function renderIssueType(caller: Caller, name: string) {
  const t = ISSUE_TYPES.find((x) => x.name === name) ?? ISSUE_TYPES[0];
  return {
    self: `${caller.baseUrl}/rest/api/3/issuetype/${t.id}`,
    id: t.id,
    description: t.description,
    iconUrl: `${caller.baseUrl}/secure/viewavatar?size=medium&avatarType=issuetype&id=${t.id}`,
    name: t.name,
    subtask: t.subtask,
    avatarId: Number(t.id),
    hierarchyLevel: t.hierarchyLevel,
  };
}

export const issueSelf = (caller: Caller, issue: Issue) => `${caller.baseUrl}/rest/api/3/issue/${publicId(issue.id)}`;

export function renderCreated(caller: Caller, issue: Issue) {
  return { id: publicId(issue.id), key: issue.key, self: issueSelf(caller, issue) };
}

/**
 * JSON text of a value that depends only on the site address (`caller.baseUrl`) and on `owner`,
 * an object the tracker keeps while it is current (a cached status or user row): serialised
 * once per address, not per request. Host headers are the client's to choose, so an owner keeps
 * a few addresses at most.
 */
const jsonMemo = new WeakMap<object, Map<string, string>>();
const MEMO_ADDRESSES = 8;
function memoJson(owner: object, key: string, render: () => unknown): string {
  let byKey = jsonMemo.get(owner);
  if (!byKey) jsonMemo.set(owner, (byKey = new Map<string, string>()));
  let text = byKey.get(key);
  if (text === undefined) {
    text = JSON.stringify(render());
    if (byKey.size >= MEMO_ADDRESSES) byKey.clear();
    byKey.set(key, text);
  }
  return text;
}

export const statusJson = (caller: Caller, status: Status) => memoJson(status, caller.baseUrl, () => renderStatus(caller, status));

export const issueTypeJson = (caller: Caller, name: string) =>
  memoJson(ISSUE_TYPES.find((x) => x.name === name) ?? ISSUE_TYPES[0], caller.baseUrl, () => renderIssueType(caller, name));

/** UserDetails as JSON text; the e-mail address shows only to its owner (renderUser), so the caller is part of the key. */
export const userDetailsJson = (caller: Caller, user: User) =>
  memoJson(user, user.id === caller.user.id ? `${caller.baseUrl}\0self` : caller.baseUrl, () => renderUserDetails(caller, user));

/**
 * A comment as JSON text, its stored ADF body spliced in as it is: the body was written by
 * JSON.stringify after validation (domain/issue-input.ts), so parsing and serialising it again
 * would give back the same text. The issue view's comments are rendered this way; renderComment
 * (one comment's routes) parses this, so both have one shape.
 */
export function commentJson(caller: Caller, issue: Issue, comment: Comment, author: User | undefined): string {
  const id = publicId(comment.id);
  const who = author ? userDetailsJson(caller, author) : undefined;
  return (
    `{"self":${JSON.stringify(`${caller.baseUrl}/rest/api/3/issue/${publicId(issue.id)}/comment/${id}`)},"id":"${id}",${who ? `"author":${who},` : ''}` +
    `"body":${comment.body},${who ? `"updateAuthor":${who},` : ''}"created":${JSON.stringify(jiraDate(comment.created_at))},` +
    `"updated":${JSON.stringify(jiraDate(comment.updated_at))},"jsdPublic":true}`
  );
}

export function renderComment(caller: Caller, issue: Issue, comment: Comment, author: User | undefined): Static<typeof CommentSchema> {
  return JSON.parse(commentJson(caller, issue, comment, author)) as Static<typeof CommentSchema>;
}

export function renderTransition(caller: Caller, t: WorkflowTransition, to: Status, available = true) {
  return {
    id: t.id,
    name: t.name,
    to: renderStatus(caller, to),
    hasScreen: false,
    isGlobal: t.from === null,
    isInitial: false,
    isAvailable: available,
    isConditional: t.only !== undefined,
  };
}
