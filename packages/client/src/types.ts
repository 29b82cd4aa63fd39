/** The parts of the vendor's shapes (spec §2) the toolkit reads. Other fields pass through untyped. */
export interface User {
  accountId: string;
  displayName?: string;
  emailAddress?: string;
  active?: boolean;
  [k: string]: unknown;
}

export interface Project {
  id?: string;
  key: string;
  name: string;
  projectTypeKey?: string;
  style?: string;
  [k: string]: unknown;
}

export interface ProjectPage {
  startAt: number;
  maxResults: number;
  total?: number;
  isLast?: boolean;
  nextPage?: string;
  values: Project[];
}

export type ProjectStatuses = { id: string; name: string; subtask: boolean; statuses: { id: string; name: string }[] }[];

/** GET /priority: the tracker's issue priorities. */
export interface Priority {
  id?: string;
  name: string;
  isDefault?: boolean;
  [k: string]: unknown;
}

export interface Status {
  id?: string;
  name: string;
  statusCategory?: { key?: string };
}

export interface IssueLink {
  id: string;
  key: string;
  self?: string;
  fields?: { summary?: string; status?: Status };
}

export interface Comment {
  id: string;
  author?: User;
  body: unknown;
  created?: string;
  [k: string]: unknown;
}

export interface CommentPage {
  startAt: number;
  maxResults: number;
  total: number;
  comments: Comment[];
}

export interface Issue {
  id: string;
  key: string;
  self?: string;
  fields: {
    summary?: string;
    description?: unknown;
    issuetype?: { name: string; subtask?: boolean };
    project?: Project;
    status?: Status;
    parent?: IssueLink;
    subtasks?: IssueLink[];
    comment?: { comments: Comment[]; total?: number };
    assignee?: User | null;
    reporter?: User | null;
    creator?: User | null;
    [k: string]: unknown;
  };
}

export interface IssueFields {
  project: { key: string };
  issuetype: { name: string };
  summary: string;
  description?: unknown;
  assignee?: { accountId: string } | null;
  parent?: { key: string };
  [k: string]: unknown;
}

export interface CreatedIssue {
  id: string;
  key: string;
  self: string;
}

/** `to` is optional here because the answer is not checked field by field: a transition without a destination matches no status. */
export interface Transition {
  id: string;
  name: string;
  to?: { id?: string; name: string };
  /** false: offered only when asked with includeUnavailableTransitions, because a workflow condition refuses the caller. */
  isAvailable?: boolean;
}

export interface SearchResults {
  issues: Issue[];
  nextPageToken?: string | null;
  isLast?: boolean;
}

/** The executor's and reviewer's field sets (spec §4 endpoint 5). */
export const EXECUTOR_FIELDS = ['summary', 'description', 'issuetype', 'status', 'parent', 'subtasks', 'comment'] as const;
export const REVIEWER_FIELDS = ['summary', 'description', 'issuetype', 'status', 'parent', 'subtasks'] as const;
