/** The issue fields this tracker keeps, in Jira's names. `comment` is not navigable (as in Jira). */
export const NAVIGABLE_FIELDS = [
  'summary', 'description', 'issuetype', 'project', 'status', 'parent', 'subtasks',
  'assignee', 'reporter', 'creator', 'created', 'updated', 'labels',
] as const;
export const ALL_FIELDS = [...NAVIGABLE_FIELDS, 'comment'] as const;
export type FieldName = (typeof ALL_FIELDS)[number];

/**
 * Parses Jira's `fields` parameter: a comma list (or repeated parameter) of names, `*all`,
 * `*navigable`, and `-name` exclusions. Absent means `*all` for GET issue. Unknown names are
 * ignored, as Jira does.
 */
export function selectFields(raw: string | string[] | undefined, fallback: 'all' | 'none' = 'all'): Set<FieldName> {
  const tokens = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw])
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
