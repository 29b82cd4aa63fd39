import { cursorWidth, issuesByRefs, searchPage, usersByRefs, visibleProjects } from '../../store/search.js';
import type { IssueAccess } from '../access.js';
import { ApiError } from '../errors.js';
import { selectFields, type FieldName } from '../fields.js';
import type { ProjectRole } from '../permissions.js';
import { storeOf } from '../store-access.js';
import type { Caller, Tracker } from '../tracker.js';
import { canonicalJql } from './ast.js';
import { compileJql, type JqlContext } from './compile.js';
import { invalidPageToken, queryDigest, readPageToken, signPageToken } from './page-token.js';
import { parseJql } from './parser.js';

/** POST/GET /search/jql (spec §4 endpoint 15), as the route hands it over. */
export interface SearchRequest {
  jql: string;
  maxResults: number | undefined;
  /** Field names as sent (comma lists allowed in each entry); absent means `id` only. */
  fields: string[] | undefined;
  nextPageToken: string | undefined;
}

export interface SearchResult {
  issues: IssueAccess[];
  /** null: ids only, the operation's default; otherwise the fields to render as GET /issue does. */
  fields: Set<FieldName> | null;
  /** Absent on the last page. */
  nextPageToken: string | undefined;
}

// The vendor's page sizes: 50 by default, up to 5000 when only id/key are asked for, else 100.
const DEFAULT_PAGE = 50;
const MAX_PAGE_IDS = 5000;
const MAX_PAGE_FIELDS = 100;

/**
 * Runs one page of a JQL search for the caller. Only issues of projects the caller is a member
 * of are ever read (in the same SQL statement as the query's own filter), so an issue the caller
 * may not browse never appears, never counts, and never shifts a page.
 */
export async function searchIssues(tracker: Tracker, caller: Caller, req: SearchRequest): Promise<SearchResult> {
  const store = storeOf(tracker);
  const query = parseJql(req.jql);
  const digest = queryDigest(caller.user.id, canonicalJql(query));
  const now = new Date();
  const position = req.nextPageToken !== undefined ? readPageToken(caller.site.token_salt, req.nextPageToken, digest, now) : null;

  const projects = await visibleProjects(store, caller.user.id);
  const visibleIds = projects.map((p) => p.id);
  const ctx: JqlContext = {
    now: position?.startedAt ?? now,
    userId: caller.user.id,
    projects,
    statuses: await tracker.statuses(caller.site.id),
    async user(ref) {
      const found = await usersByRefs(store, caller.site.id, [ref]);
      return (found.find((u) => u.account_id === ref) ?? found[0])?.id ?? null;
    },
    async issue(ref) {
      const found = 'id' in ref ? await issuesByRefs(store, visibleIds, [], [ref.id]) : await issuesByRefs(store, visibleIds, [ref], []);
      return found[0]?.id ?? null;
    },
  };
  const compiled = await compileJql(query, ctx);
  if (position && position.after.length !== cursorWidth(compiled.order)) throw invalidPageToken();

  const requested = (req.fields ?? [])
    .flatMap((f) => f.split(','))
    .map((f) => f.trim())
    .filter((f) => f !== '');
  const idsOnly = requested.every((f) => f === 'id');
  const cap = requested.every((f) => f === 'id' || f === 'key') ? MAX_PAGE_IDS : MAX_PAGE_FIELDS;
  const wanted = req.maxResults ?? DEFAULT_PAGE;
  if (wanted < 1) throw new ApiError(400, [`maxResults must be at least 1 (got ${wanted}).`]);

  const page = await searchPage(store, {
    userId: caller.user.id,
    filter: compiled.filter,
    order: compiled.order,
    after: position?.after ?? null,
    limit: Math.min(wanted, cap),
  });
  const byId = new Map(projects.map(({ role, ...project }) => [project.id, { project, role: role as ProjectRole }]));
  const issues = page.rows.flatMap(({ project_key: _key, ...issue }) => {
    // A project the caller joined after `projects` was read has no role here; it shows from the next search on.
    const p = byId.get(issue.project_id);
    return p ? [{ issue, ...p }] : [];
  });
  const nextPageToken =
    page.more && page.last ? signPageToken(caller.site.token_salt, digest, { startedAt: position?.startedAt ?? now, after: page.last }) : undefined;
  return { issues, fields: idsOnly ? null : selectFields(requested, 'none'), nextPageToken };
}
