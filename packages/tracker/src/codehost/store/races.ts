/**
 * What a unique index refused: another row holds the value (PostgreSQL 23505, SQLite's UNIQUE).
 * The code host's one race signal: a write that meets it answers 'exists' (a second open pull
 * request for one head and base), never an exception of its own.
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
