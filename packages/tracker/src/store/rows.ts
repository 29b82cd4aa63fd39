import type { Comment, CommentRows, Issue, Project, Site, Status, User } from '../model.js';

export type { CommentRows };

// The rows are the tracker's values (../model.ts, which imports nothing), under the store's names.
export type SiteRow = Site;
export type UserRow = User;
export interface TokenRow {
  token_hash: string;
  kind: string;
  scopes: string;
}
export type ProjectRow = Project;
export type StatusRow = Status;
export type IssueRow = Issue;
export type CommentRow = Comment;

export interface NewIssue {
  projectId: number;
  issueType: string;
  summary: string;
  description: string | null;
  statusId: number;
  parentId: number | null;
  assigneeId: number | null;
  reporterId: number;
  creatorId: number;
  now: string;
}

export interface IssuePatch {
  summary?: string;
  description?: string | null;
  assignee_id?: number | null;
  reporter_id?: number;
  status_id?: number;
}

/**
 * An issue with its project and the reading user's role there (undefined: not a member), and
 * whether it has sub-tasks (an index probe in the same statement, so a view of an issue without
 * any, nearly every one, needs no second read for them).
 */
export interface IssueWithProject {
  issue: IssueRow;
  project: ProjectRow;
  role: string | undefined;
  hasSubtasks: boolean;
}

/** An issue found with its project and the reader's role there, whether it has sub-tasks being known or not. */
export type IssueFound = Omit<IssueWithProject, 'hasSubtasks'> & { hasSubtasks?: boolean };

/** Where an issue is: its project's key and its number on a site, or its row id. */
export type IssueRef = { siteId: number; projectKey: string; number: number } | { id: number };

/** The issue's first read for its view (Issues.withFirstComments): with its first comment page where the dialect reads it in the same statement. */
export interface IssueWithComments extends IssueWithProject {
  comments?: CommentRows;
  /** Its sub-tasks, oldest first, where the dialect reads them in the same statement (PostgreSQL). */
  subtasks?: IssueRow[];
  /** Its parent (null: none), where the dialect reads it in the same statement (PostgreSQL). */
  parent?: IssueRow | null;
}

/** What an issue view shows beside the issue, each read only when shown: its sub-tasks, its parent, its first `comments` comments (0: none). */
export interface ViewWants {
  subtasks: boolean;
  parent: boolean;
  comments: number;
}

/**
 * The issue view's read model as the store reads it (Store.issueView, views.ts): the issue with its
 * project and the reader's role, and what the view shows beside it (ViewWants; what it does not
 * show is empty).
 */
export interface IssueViewRows {
  issue: IssueRow;
  project: ProjectRow;
  role: string | undefined;
  subtasks: IssueRow[];
  parent: IssueRow | undefined;
  comments: CommentRows | undefined;
}
