import { sql, type Expression, type SqlBool } from 'kysely';

/** User text is matched literally: LIKE's wildcards are escaped, the same way on both dialects. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** `expr LIKE pattern`, with the backslash as the escape (escapeLike). */
export function like(expr: Expression<unknown>, pattern: string): Expression<SqlBool> {
  return sql<SqlBool>`${expr} like ${pattern} escape '\\'`;
}
