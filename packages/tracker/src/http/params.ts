/**
 * List parameters as the routes read them: repeated and/or comma-separated (`fields=a,b&fields=c`,
 * and the search body's `expand`), after the route's schema checked them (http/schemas/common.ts ListParam).
 */
export function commaList(raw: string | readonly string[] | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  return (typeof raw === 'string' ? [raw] : raw)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/** A count or index from the query (validated as a non-negative integer), its default when absent, at most `max`. */
export const countOf = (value: number | undefined, dflt: number, max = Number.MAX_SAFE_INTEGER): number => Math.min(value ?? dflt, max);
