import type { Kysely, Transaction } from 'kysely';
import { after, type Maybe } from '../maybe.js';
import type { StoreContext } from './adapter.js';
import type { Prepare, Prepared } from './prepared.js';
import type { IssuePatch, IssueRef, IssueRow, IssueWithComments, IssueWithProject, NewIssue } from './rows.js';
import type { Database, Tx } from './schema.js';

/** The issues: created with their project's next key, read with their project, updated by compare-and-set, held and deleted. */

const ISSUE_COLUMNS = [
  'id',
  'project_id',
  'number',
  'key',
  'issue_type',
  'summary',
  'description',
  'status_id',
  'parent_id',
  'assignee_id',
  'reporter_id',
  'creator_id',
  'created_at',
  'updated_at',
  'version',
] as const;
/** Issue-update statements kept compiled, one per set of changed columns (a request changes few). */
const MAX_PREPARED_PATCHES = 64;

/** An issue, its project, the reading user's role there and whether it has sub-tasks, in one statement (IssueWithProject). */
export const issueWithProject = (db: Kysely<Database>, userId: number) =>
  db
    .selectFrom('issues')
    .innerJoin('projects', 'projects.id', 'issues.project_id')
    .leftJoin('members', (join) => join.onRef('members.project_id', '=', 'projects.id').on('members.user_id', '=', userId))
    .select(ISSUE_COLUMNS.map((c) => `issues.${c}` as const))
    .select([
      'projects.site_id as p_site_id',
      'projects.key as p_key',
      'projects.name as p_name',
      'projects.lead_user_id as p_lead_user_id',
      'projects.workflow as p_workflow',
      'projects.issue_counter as p_issue_counter',
      'members.role as p_role',
    ])
    .select((eb) => eb.exists(eb.selectFrom('issues as sub').select('sub.id').whereRef('sub.parent_id', '=', 'issues.id')).as('p_has_subtasks'));

/** A row of issueWithProject. */
export type Joined = IssueRow & {
  p_site_id: number;
  p_key: string;
  p_name: string;
  p_lead_user_id: number | null;
  p_workflow: string;
  p_issue_counter: number;
  p_role: string | null;
  /** 1/0 on SQLite, true/false on PostgreSQL. */
  p_has_subtasks: number | boolean;
};

/** Spelled out field by field: a rest pattern (`{ p_key, ...issue }`) costs several times as much per request. */
export function splitJoined(row: Joined | undefined): IssueWithProject | undefined {
  if (!row) return undefined;
  const issue: IssueRow = {
    id: row.id,
    project_id: row.project_id,
    number: row.number,
    key: row.key,
    issue_type: row.issue_type,
    summary: row.summary,
    description: row.description,
    status_id: row.status_id,
    parent_id: row.parent_id,
    assignee_id: row.assignee_id,
    reporter_id: row.reporter_id,
    creator_id: row.creator_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    version: row.version,
  };
  return {
    issue,
    project: {
      id: row.project_id,
      site_id: row.p_site_id,
      key: row.p_key,
      name: row.p_name,
      lead_user_id: row.p_lead_user_id,
      workflow: row.p_workflow,
      issue_counter: Number(row.p_issue_counter),
    },
    role: row.p_role ?? undefined,
    hasSubtasks: row.p_has_subtasks === true || row.p_has_subtasks === 1,
  };
}

/** A new issue's columns but its project, number and key, which each dialect's create allocates its own way. */
export const newIssueColumns = (
  issueType: string,
  summary: string,
  description: string | null,
  statusId: number,
  parentId: number | null,
  assigneeId: number | null,
  reporterId: number,
  creatorId: number,
  now: string,
) => ({
  issue_type: issueType,
  summary,
  description,
  status_id: statusId,
  parent_id: parentId,
  assignee_id: assigneeId,
  reporter_id: reporterId,
  creator_id: creatorId,
  created_at: now,
  updated_at: now,
  version: 1,
});

/** Moves an issue's version: a write that takes the row (SQLite: the database's write lock) and shows in the board's version. */
export const touchIssue = (db: Kysely<Database>, id: number) =>
  db
    .updateTable('issues')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('id', '=', id);

/** The reads every request on an issue runs, compiled once per store. */
const statements = (prepare: Prepare) => ({
  byId: prepare((db, id: number) => db.selectFrom('issues').selectAll().where('id', '=', id)),
  withProjectByKey: prepare((db, userId: number, siteId: number, key: string, number: number) =>
    issueWithProject(db, userId).where('projects.site_id', '=', siteId).where('projects.key', '=', key).where('issues.number', '=', number),
  ),
  withProjectById: prepare((db, userId: number, id: number) => issueWithProject(db, userId).where('issues.id', '=', id)),
  subtasksOf: prepare((db, parentId: number) => db.selectFrom('issues').selectAll().where('parent_id', '=', parentId).orderBy('id')),
});

export function issuesRepository({ kysely, prepare, adapter }: StoreContext) {
  const q = statements(prepare);
  const patches = new Map<string, Prepared<unknown[], { id: number }>>();

  /** One read for the common case of every request on an issue: the issue, its project, the caller's role (at once where it can: Prepared.rows). */
  function withProject(ref: IssueRef, userId: number): Maybe<IssueWithProject | undefined> {
    const row =
      'id' in ref
        ? q.withProjectById.row(kysely, userId, ref.id)
        : q.withProjectByKey.row(kysely, userId, ref.siteId, ref.projectKey.toUpperCase(), ref.number);
    return after(row, splitJoined);
  }

  /** The update of these columns, compiled once per set of columns (a few sets are kept). */
  function patchQuery(columns: (keyof IssuePatch)[]): Prepared<unknown[], { id: number }> {
    const signature = columns.join(',');
    let query = patches.get(signature);
    if (!query) {
      // `returning id`: the row that was written, if any, on both dialects and in a group commit alike.
      query = prepare(
        (db, ...args: unknown[]) =>
          db
            .updateTable('issues')
            .set({ ...Object.fromEntries(columns.map((c, i) => [c, args[i + 4]])), updated_at: args[0] as string, version: args[1] as number })
            .where('id', '=', args[2] as number)
            .where('version', '=', args[3] as number)
            .returning('id'),
        columns.length + 4,
      );
      if (patches.size < MAX_PREPARED_PATCHES) patches.set(signature, query);
    }
    return query;
  }

  return {
    /** Creates an issue with the next key of its project (StoreAdapter.createIssue). */
    create(issue: NewIssue, projectKey: string): Promise<IssueRow> {
      return adapter.createIssue(issue, `${projectKey}-`);
    },

    byId(id: number, tx: Tx = kysely): Maybe<IssueRow | undefined> {
      return q.byId.row(tx, id);
    },

    withProject,

    /**
     * withProject and, where each statement is a round trip (PostgreSQL), the issue's first
     * `commentPage` comments (0: none), oldest first, with their total, in the same statement: the
     * issue view's first read (StoreAdapter.issueView, views.ts).
     */
    withFirstComments(ref: IssueRef, userId: number, commentPage: number): Maybe<IssueWithComments | undefined> {
      return adapter.issueView(ref, userId, commentPage, () => withProject(ref, userId));
    },

    subtasksOf(parentId: number, tx: Tx = kysely): Maybe<IssueRow[]> {
      return q.subtasksOf.rows(tx, parentId);
    },

    /**
     * Compare-and-set update: applies only when the row still has `expectedVersion`, so two
     * writers racing on one issue (in one process or several) never lose an update silently.
     * Returns false when the version moved on. Outside a transaction (`tx` left out) SQLite
     * commits it with the other writes of its turn.
     */
    update(id: number, expectedVersion: number, patch: IssuePatch, now: string, tx: Tx = kysely): Promise<boolean> {
      const columns = (Object.keys(patch) as (keyof IssuePatch)[]).filter((c) => patch[c] !== undefined).sort();
      const args = [now, expectedVersion + 1, id, expectedVersion, ...columns.map((c) => patch[c])];
      return adapter.updateIssue(tx, patchQuery(columns), args);
    },

    /** Holds an issue against concurrent writers until `tx` ends (StoreAdapter.holdIssue; false: it is gone). */
    hold(tx: Transaction<Database>, id: number): Promise<boolean> {
      return adapter.holdIssue(tx, id);
    },

    /** Deletes issues and their comments. */
    async delete(tx: Tx, ids: number[]): Promise<void> {
      if (ids.length === 0) return;
      await tx.deleteFrom('comments').where('issue_id', 'in', ids).execute();
      await tx.deleteFrom('issues').where('id', 'in', ids).execute();
    },
  };
}

export type Issues = ReturnType<typeof issuesRepository>;
