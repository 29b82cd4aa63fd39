import type { Issue } from '@jst/client';
import type { Role } from '../../../config/index.js';
import type { Context } from '../../../core/context.js';
import { EXIT } from '../../../core/errors.js';
import { table, type Outcome } from '../../../core/output.js';

/** POST /search/jql, following nextPageToken with --all. */
export interface SearchOptions {
  fields?: string | undefined;
  all?: boolean | undefined;
  max?: number | undefined;
  pageToken?: string | undefined;
}
export interface SearchResult {
  issues: Issue[];
  nextPageToken?: string;
}

export async function searchOutcome(ctx: Context, role: Role, jql: string, o: SearchOptions): Promise<Outcome<SearchResult>> {
  const fields = (o.fields ?? 'key,summary,status')
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  const maxResults = o.max ?? 50;
  const client = ctx.client(role);
  const issues: Issue[] = [];
  let token: string | undefined = o.pageToken || undefined;
  do {
    const page = await client.searchJql({ jql, fields, maxResults, ...(token ? { nextPageToken: token } : {}) });
    issues.push(...page.issues);
    token = page.nextPageToken ?? undefined;
  } while (o.all && token);
  return {
    json: { issues, ...(token ? { nextPageToken: token } : {}) },
    // A search answer is not checked field by field; an issue without `fields` prints blanks, not a crash.
    text: `${table(issues.map((i) => [i.key, i.fields?.status?.name ?? '', i.fields?.summary ?? '']))}\n`,
    code: EXIT.ok,
  };
}
