import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { VisibleProject } from '../model.js';
import { escapeLike } from './like.js';
import type { IssueRow, Store, UserRow } from './store.js';

/**
 * Issue search: the store's side of JQL. The domain hands over a query description (which rows,
 * in which order, after which cursor); this file turns it into ONE SQL statement per page, the
 * same Kysely code for SQLite and PostgreSQL. No rule is decided here.
 */

export type IssueColumn =
  'id' | 'project_id' | 'number' | 'issue_type' | 'status_id' | 'parent_id' | 'assignee_id' | 'reporter_id' | 'creator_id' | 'created_at' | 'updated_at';
export type TextColumn = 'summary' | 'description';
export type Comparison = '=' | '<>' | '<' | '<=' | '>' | '>=';
export type Scalar = string | number;

/**
 * Which issues match. Every leaf is two-valued: a `compare` or `in` on a NULL column is false
 * (not unknown), so `not` is always the exact complement of what it wraps.
 */
export type Filter =
  | { kind: 'true' | 'false' }
  | { kind: 'and' | 'or'; items: Filter[] }
  | { kind: 'not'; item: Filter }
  | { kind: 'compare'; column: IssueColumn; op: Comparison; value: Scalar }
  | { kind: 'in'; column: IssueColumn; values: Scalar[]; negated: boolean }
  | { kind: 'empty'; column: IssueColumn | TextColumn }
  /** Case-insensitive substring; the `ignore` fragments are cut from the stored text first. */
  | { kind: 'contains'; column: TextColumn; word: string; ignore: readonly string[] };

export type SortKey = 'key' | 'project' | 'id' | 'created_at' | 'updated_at' | 'summary' | 'status_id' | 'issue_type';

export interface SearchPlan {
  /** Only issues of projects this user is a member of are ever read. */
  userId: number;
  filter: Filter;
  order: { key: SortKey; descending: boolean }[];
  /** Sort values of the last issue of the previous page (keyset pagination), or null. */
  after: Scalar[] | null;
  limit: number;
}

export interface SearchRow extends IssueRow {
  project_key: string;
}

export interface SearchPage {
  rows: SearchRow[];
  /** There is at least one more matching issue after `rows`. */
  more: boolean;
  /** The sort values of the last row, to continue after it. */
  last: Scalar[] | null;
}

const NULLABLE = new Set<IssueColumn>(['parent_id', 'assignee_id']);

/** A sort key as the SQL columns it orders by (a key sorts by project key, then number). */
function sortColumns(key: SortKey): { ref: string; value: (r: SearchRow) => Scalar }[] {
  switch (key) {
    case 'key':
      return [
        { ref: 'projects.key', value: (r) => r.project_key },
        { ref: 'issues.number', value: (r) => r.number },
      ];
    case 'project':
      return [{ ref: 'projects.key', value: (r) => r.project_key }];
    default:
      return [{ ref: `issues.${key}`, value: (r) => r[key] }];
  }
}

/** The order as columns, with the issue id last so that every position is unique. */
function orderColumns(order: SearchPlan['order']) {
  const cols = order.flatMap((o) => sortColumns(o.key).map((c) => ({ ...c, descending: o.descending })));
  if (!order.some((o) => o.key === 'id')) cols.push({ ...sortColumns('id')[0]!, descending: order.at(-1)?.descending ?? false });
  return cols;
}

/** How many values the cursor of a page in this order holds. */
export const cursorWidth = (order: SearchPlan['order']) => orderColumns(order).length;

/** One page of matching issues: one SELECT, reading one row more than asked to know whether more follow. */
export async function searchPage(store: Store, plan: SearchPlan): Promise<SearchPage> {
  const cols = orderColumns(plan.order);
  let query = store.kysely
    .selectFrom('issues')
    .innerJoin('projects', 'projects.id', 'issues.project_id')
    .selectAll('issues')
    .select('projects.key as project_key')
    .where('issues.project_id', 'in', (eb) => eb.selectFrom('members').select('members.project_id').where('members.user_id', '=', plan.userId))
    .where(() => condition(plan.filter));
  if (plan.after) {
    if (plan.after.length !== cols.length) throw new Error('cursor does not fit the order');
    query = query.where(() => after(cols, plan.after!));
  }
  for (const c of cols) query = query.orderBy(sql.ref(c.ref), c.descending ? 'desc' : 'asc');
  const rows = (await query.limit(plan.limit + 1).execute()) as SearchRow[];
  const more = rows.length > plan.limit;
  const page = more ? rows.slice(0, plan.limit) : rows;
  const lastRow = page.at(-1);
  return { rows: page, more, last: lastRow ? cols.map((c) => c.value(lastRow)) : null };
}

/** Keyset condition "strictly after this position", with each column's own direction. */
function after(cols: { ref: string; descending: boolean }[], values: Scalar[]): RawBuilder<SqlBool> {
  const branches = cols.map((c, i) => {
    const equal = cols.slice(0, i).map((p, j) => sql<SqlBool>`${sql.ref(p.ref)} = ${values[j]}`);
    const beyond = sql<SqlBool>`${sql.ref(c.ref)} ${sql.raw(c.descending ? '<' : '>')} ${values[i]}`;
    return sql<SqlBool>`(${sql.join([...equal, beyond], sql` and `)})`;
  });
  return sql<SqlBool>`(${sql.join(branches, sql` or `)})`;
}

function condition(f: Filter): RawBuilder<SqlBool> {
  switch (f.kind) {
    case 'true':
      return sql<SqlBool>`1 = 1`;
    case 'false':
      return sql<SqlBool>`1 = 0`;
    case 'and':
    case 'or':
      if (f.items.length === 0) return condition({ kind: f.kind === 'and' ? 'true' : 'false' });
      return sql<SqlBool>`(${sql.join(f.items.map(condition), f.kind === 'and' ? sql` and ` : sql` or `)})`;
    case 'not':
      return sql<SqlBool>`not (${condition(f.item)})`;
    case 'empty':
      return sql<SqlBool>`${sql.ref(`issues.${f.column}`)} is null`;
    case 'compare':
      return present(f.column, sql<SqlBool>`${sql.ref(`issues.${f.column}`)} ${sql.raw(f.op)} ${f.value}`);
    case 'in':
      if (f.values.length === 0) return condition({ kind: f.negated ? 'true' : 'false' });
      return present(f.column, sql<SqlBool>`${sql.ref(`issues.${f.column}`)} ${sql.raw(f.negated ? 'not in' : 'in')} (${sql.join(f.values)})`);
    case 'contains': {
      let text: RawBuilder<unknown> = sql`coalesce(${sql.ref(`issues.${f.column}`)}, '')`;
      for (const fragment of f.ignore) text = sql`replace(${text}, ${fragment}, '')`;
      return sql<SqlBool>`lower(${text}) like ${`%${escapeLike(f.word.toLowerCase())}%`} escape '\\'`;
    }
  }
}

/** Keeps a comparison on a nullable column two-valued: NULL compares as false. */
function present(column: IssueColumn, comparison: RawBuilder<SqlBool>): RawBuilder<SqlBool> {
  return NULLABLE.has(column) ? sql<SqlBool>`(${sql.ref(`issues.${column}`)} is not null and ${comparison})` : comparison;
}

// --- resolving the names a query uses --------------------------------------------------------

export type { VisibleProject };

/** The projects a user is a member of, with the role: what the user may search and see. */
export function visibleProjects(store: Store, userId: number): Promise<VisibleProject[]> {
  return store.kysely
    .selectFrom('projects')
    .innerJoin('members', 'members.project_id', 'projects.id')
    .selectAll('projects')
    .select('members.role')
    .where('members.user_id', '=', userId)
    .orderBy('projects.key')
    .execute();
}

/** Users of a site named by account id or e-mail (case-insensitive). */
export function usersByRefs(store: Store, siteId: number, refs: string[]): Promise<UserRow[]> {
  if (refs.length === 0) return Promise.resolve([]);
  return store.kysely
    .selectFrom('users')
    .selectAll()
    .where('site_id', '=', siteId)
    .where((eb) =>
      eb.or([
        eb('account_id', 'in', refs),
        eb(
          'email',
          'in',
          refs.map((r) => r.toLowerCase()),
        ),
      ]),
    )
    .execute();
}

export interface IssueRef {
  id: number;
  project_id: number;
  number: number;
}

/** Issues named by (project, number) or by row id, among the given projects only. */
export function issuesByRefs(store: Store, projectIds: number[], keys: { projectId: number; number: number }[], ids: number[]): Promise<IssueRef[]> {
  if (projectIds.length === 0 || keys.length + ids.length === 0) return Promise.resolve([]);
  return store.kysely
    .selectFrom('issues')
    .select(['id', 'project_id', 'number'])
    .where('project_id', 'in', projectIds)
    .where((eb) =>
      eb.or([...keys.map((k) => eb.and([eb('project_id', '=', k.projectId), eb('number', '=', k.number)])), ...(ids.length > 0 ? [eb('id', 'in', ids)] : [])]),
    )
    .execute();
}
