import { shownKey } from './json-fault.js';

/**
 * A problem in a seed file: the file, the setting's JSON path and (for a syntax error) the line
 * and column. Never a value from the file: any of them may be a token (ARCHITECTURE §4).
 */
export class SeedError extends Error {
  constructor(
    readonly file: string,
    readonly path: string,
    detail: string,
    at?: { line: number; column: number },
  ) {
    super(`${file}${at ? `:${at.line}:${at.column}` : ''}: ${path}: ${detail}`);
  }
}

/**
 * The checks every part of a seed file is read with (the tracker's sites here, the code host's
 * section in codehost/domain/seed.ts): each names the JSON path of a problem, never its value.
 */
export function seedChecks(file: string) {
  const fail = (path: string, detail: string): never => {
    throw new SeedError(file, path, detail);
  };
  const obj = (v: unknown, path: string): Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : fail(path, 'must be an object');
  const arr = (v: unknown, path: string): unknown[] => (Array.isArray(v) ? v : fail(path, 'must be an array'));
  const str = (v: unknown, path: string): string => (typeof v === 'string' && v.trim() !== '' ? v : fail(path, 'must be a non-empty string'));
  const known = (o: Record<string, unknown>, path: string, keys: string[]) => {
    for (const k of Object.keys(o)) if (!keys.includes(k)) fail(`${path}.${shownKey(k)}`, `unknown setting (expected one of: ${keys.join(', ')})`);
  };
  return { fail, obj, arr, str, known };
}
