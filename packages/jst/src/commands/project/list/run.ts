import type { Project } from '@jst/client';
import type { Role } from '../../../config/index.js';
import type { Context } from '../../../core/context.js';
import { EXIT } from '../../../core/errors.js';
import { dim, table, type Outcome } from '../../../core/output.js';

/** Every project visible to the role, all pages. */
export async function projectList(ctx: Context, role: Role, o: { query?: string | undefined }): Promise<Outcome<Project[]>> {
  const client = ctx.client(role);
  const values = [];
  for (let startAt = 0; ;) {
    const page = await client.searchProjects({ ...(o.query ? { query: o.query } : {}), startAt, maxResults: 50 });
    values.push(...page.values);
    startAt += page.values.length;
    if (page.isLast !== false || page.values.length === 0) break;
  }
  const text = values.length ? table(values.map((p) => [p.key, p.name])) : dim(ctx.io, 'No project visible to this account.');
  return { json: values, text: `${text}\n`, code: EXIT.ok };
}
