/** The issue fields this tracker keeps, in Jira's names. `comment` is not navigable (as in Jira). */
export const NAVIGABLE_FIELDS = [
  'summary',
  'description',
  'issuetype',
  'project',
  'status',
  'parent',
  'subtasks',
  'assignee',
  'reporter',
  'creator',
  'created',
  'updated',
  'labels',
] as const;
export const ALL_FIELDS = [...NAVIGABLE_FIELDS, 'comment'] as const;
export type FieldName = (typeof ALL_FIELDS)[number];

/**
 * Parses Jira's `fields` parameter: a comma list (or repeated parameter) of names, `*all`,
 * `*navigable`, and `-name` exclusions. Absent means `*all` for GET issue. Unknown names are
 * ignored, as Jira does.
 */
export function selectFields(raw: string | readonly string[] | undefined, fallback: 'all' | 'none' = 'all'): Set<FieldName> {
  const tokens = (typeof raw === 'string' ? [raw] : (raw ?? []))
    .flatMap((part) => part.split(','))
    .map((t) => t.trim())
    .filter((t) => t !== '');
  const includes = tokens.filter((t) => !t.startsWith('-'));
  const excludes = tokens.filter((t) => t.startsWith('-')).map((t) => t.slice(1));
  const chosen = new Set<FieldName>();
  const add = (names: readonly FieldName[]) => names.forEach((n) => chosen.add(n));
  if (includes.length === 0) {
    if (tokens.length > 0 || fallback === 'all') add(ALL_FIELDS);
  }
  for (const t of includes) {
    if (t === '*all') add(ALL_FIELDS);
    else if (t === '*navigable') add(NAVIGABLE_FIELDS);
    else if ((ALL_FIELDS as readonly string[]).includes(t)) chosen.add(t as FieldName);
  }
  for (const t of excludes) chosen.delete(t as FieldName);
  return chosen;
}

/** Jira's JsonTypeBean for a system field: what GET /field and `expand=schema` report. */
export interface FieldSchema {
  type: string;
  items?: string;
  system: string;
}

/** Each field's display name and schema, as Jira Cloud reports them under `expand=names,schema`. */
export const FIELD_META: Readonly<Record<FieldName, { name: string; schema: FieldSchema }>> = {
  summary: { name: 'Summary', schema: { type: 'string', system: 'summary' } },
  // Jira Cloud reports "string" for the description even though v3 sends it as ADF.
  description: { name: 'Description', schema: { type: 'string', system: 'description' } },
  issuetype: { name: 'Issue Type', schema: { type: 'issuetype', system: 'issuetype' } },
  project: { name: 'Project', schema: { type: 'project', system: 'project' } },
  status: { name: 'Status', schema: { type: 'status', system: 'status' } },
  parent: { name: 'Parent', schema: { type: 'issuelink', system: 'parent' } },
  subtasks: { name: 'Sub-tasks', schema: { type: 'array', items: 'issuelinks', system: 'subtasks' } },
  assignee: { name: 'Assignee', schema: { type: 'user', system: 'assignee' } },
  reporter: { name: 'Reporter', schema: { type: 'user', system: 'reporter' } },
  creator: { name: 'Creator', schema: { type: 'user', system: 'creator' } },
  created: { name: 'Created', schema: { type: 'datetime', system: 'created' } },
  updated: { name: 'Updated', schema: { type: 'datetime', system: 'updated' } },
  labels: { name: 'Labels', schema: { type: 'array', items: 'string', system: 'labels' } },
  comment: { name: 'Comment', schema: { type: 'comments-page', system: 'comment' } },
};
