/**
 * Database errors that mean a write lost a race with another request, not a fault: a row it
 * refers to was deleted a moment before (a foreign key), or the database picked it as the loser
 * of a deadlock or a serialisation conflict. The HTTP layer answers these 409 in the vendor's
 * shape (http/app.ts); every other database error stays a 500.
 */
const RACE_CODES = new Set([
  '23503', // PostgreSQL foreign_key_violation
  '40P01', // PostgreSQL deadlock_detected
  '40001', // PostgreSQL serialization_failure
  'SQLITE_CONSTRAINT_FOREIGNKEY',
]);

export function isWriteRace(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && RACE_CODES.has(code);
}
