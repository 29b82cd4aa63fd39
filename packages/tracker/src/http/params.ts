import { ApiError } from '../domain/errors.js';

export type Query = Record<string, string | string[] | undefined>;

/** The last value of a query parameter; jira.js sends `false` for parameters it left out. */
export function param(q: Query, name: string): string | undefined {
  const raw = q[name];
  const v = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  return v === undefined || v === 'false' && ['startAt', 'maxResults', 'orderBy', 'expand'].includes(name) ? undefined : v;
}

/** All values of a parameter, comma lists split (`keys=A,B&keys=C`). */
export function listParam(q: Query, name: string): string[] | undefined {
  return commaList(q[name]);
}

/** A comma list (or several), as query parameters and the search body's `expand` carry them. */
export function commaList(raw: string | string[] | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  return (Array.isArray(raw) ? raw : [raw]).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
}

export function intParam(q: Query, name: string, dflt: number, min: number, max: number): number {
  const v = param(q, name);
  if (v === undefined || v === '') return dflt;
  if (!/^-?\d+$/.test(v)) throw new ApiError(400, [`The '${name}' parameter must be an integer (got '${v.slice(0, 40)}').`]);
  const n = Number(v);
  if (n < min) throw new ApiError(400, [`The '${name}' parameter must be at least ${min}.`]);
  return Math.min(n, max);
}

/**
 * A boolean query parameter, in any letter case, as the hosted service reads it (python `jira`
 * sends `deleteSubtasks=True`); absent or empty is the operation's default. Anything else is a 400.
 * The one parser of booleans in query strings: routes read them through it, and
 * http/boolean-params.ts checks every one an operation documents before its handler runs.
 */
export function boolParam(q: Query, name: string, dflt = false): boolean {
  const v = param(q, name);
  if (v === undefined || v === '') return dflt;
  const lower = v.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  throw new ApiError(400, [`The '${name}' parameter must be true or false (got '${v.slice(0, 40)}').`]);
}
