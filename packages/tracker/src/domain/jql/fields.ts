import type { IssueColumn, SortKey, TextColumn } from '../../store/search.js';
import type { Operator } from './ast.js';

/** How a field's values are resolved and compared. */
export type FieldKind = 'project' | 'issue' | 'issuetype' | 'status' | 'statusCategory' | 'user' | 'parent' | 'text' | 'date';

export interface JqlField {
  kind: FieldKind;
  operators: readonly Operator[];
  /** The column compared, for fields stored in one column. */
  column?: IssueColumn;
  /** The columns a `~` searches. */
  text?: readonly TextColumn[];
  /** The column that is NULL when the field IS EMPTY; fields without one are never empty. */
  emptyColumn?: IssueColumn | TextColumn;
  /** How ORDER BY sorts by this field; absent when it cannot sort. */
  sort?: SortKey;
}

const EQUALITY: readonly Operator[] = ['=', '!=', 'in', 'not in', 'is', 'is not'];
const ORDERED: readonly Operator[] = [...EQUALITY, '<', '<=', '>', '>='];
const CONTAINS: readonly Operator[] = ['~', '!~', 'is', 'is not'];

const issueKey: JqlField = { kind: 'issue', operators: ORDERED, sort: 'key' };
const issueType: JqlField = { kind: 'issuetype', operators: EQUALITY, column: 'issue_type', sort: 'issue_type' };
const created: JqlField = { kind: 'date', operators: ORDERED, column: 'created_at', sort: 'created_at' };
const updated: JqlField = { kind: 'date', operators: ORDERED, column: 'updated_at', sort: 'updated_at' };

/** The fields a query may name (lower-case; Jira's names and aliases). */
export const JQL_FIELDS: Readonly<Record<string, JqlField>> = {
  project: { kind: 'project', operators: EQUALITY, column: 'project_id', sort: 'project' },
  key: issueKey,
  issuekey: issueKey,
  id: { ...issueKey, sort: 'id' },
  issuetype: issueType,
  type: issueType,
  status: { kind: 'status', operators: EQUALITY, column: 'status_id', sort: 'status_id' },
  statuscategory: { kind: 'statusCategory', operators: EQUALITY, column: 'status_id' },
  assignee: { kind: 'user', operators: EQUALITY, column: 'assignee_id', emptyColumn: 'assignee_id' },
  reporter: { kind: 'user', operators: EQUALITY, column: 'reporter_id' },
  creator: { kind: 'user', operators: EQUALITY, column: 'creator_id' },
  parent: { kind: 'parent', operators: EQUALITY, column: 'parent_id', emptyColumn: 'parent_id' },
  summary: { kind: 'text', operators: CONTAINS, text: ['summary'], sort: 'summary' },
  description: { kind: 'text', operators: CONTAINS, text: ['description'], emptyColumn: 'description' },
  // Jira's master text field: here the summary and the description's text.
  text: { kind: 'text', operators: ['~', '!~'], text: ['summary', 'description'] },
  created,
  createddate: created,
  updated,
  updateddate: updated,
};

/** Jira has at most 7 fields in an ORDER BY (documented on the operation's `jql` parameter). */
export const MAX_SORT_FIELDS = 7;
