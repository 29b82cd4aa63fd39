import { GraphQLError } from 'graphql';

/**
 * GitHub's connections (`first`/`after`/`last`/`before`, `totalCount`, `pageInfo`, `nodes`,
 * `edges`) over the domain's lists. A cursor is an opaque base64 of the item's position; the cost
 * check (cost.ts) has already bounded `first`/`last` to 1..100 where items are asked for.
 */

export interface PageArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

export const cursorOf = (position: number): string => Buffer.from(`cursor:${position}`).toString('base64');

function positionOf(cursor: string, arg: string): number {
  const m = /^cursor:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64').toString('utf8'));
  if (!m || cursor.length > 64)
    throw new GraphQLError(`\`${cursor.slice(0, 64)}\` does not appear to be a valid cursor.`, { extensions: { argumentName: arg } });
  return Number(m[1]);
}

export interface Connection<T> {
  totalCount: number;
  nodes: T[];
  edges: { node: T; cursor: string }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

/** The window of a list of `total` items the arguments ask for (positions are 1-based in cursors, 0-based here). */
export function windowOf(args: PageArgs, total: number): { offset: number; limit: number } {
  let start = args.after ? positionOf(args.after, 'after') : 0;
  let end = args.before ? positionOf(args.before, 'before') - 1 : total;
  start = Math.min(Math.max(start, 0), total);
  end = Math.max(Math.min(end, total), start);
  if (typeof args.first === 'number') end = Math.min(end, start + Math.max(args.first, 0));
  if (typeof args.last === 'number') start = Math.max(start, end - Math.max(args.last, 0));
  if (typeof args.first !== 'number' && typeof args.last !== 'number') end = start; // totalCount only
  return { offset: start, limit: end - start };
}

export function connectionOf<T>(items: T[], offset: number, total: number): Connection<T> {
  return {
    totalCount: total,
    nodes: items,
    edges: items.map((node, i) => ({ node, cursor: cursorOf(offset + i + 1) })),
    pageInfo: {
      hasNextPage: offset + items.length < total,
      hasPreviousPage: offset > 0,
      startCursor: items.length > 0 ? cursorOf(offset + 1) : null,
      endCursor: items.length > 0 ? cursorOf(offset + items.length) : null,
    },
  };
}

/** A connection over an in-memory list. */
export const listConnection = <T>(all: T[], args: PageArgs): Connection<T> => {
  const { offset, limit } = windowOf(args, all.length);
  return connectionOf(all.slice(offset, offset + limit), offset, all.length);
};

/** A connection over a paged domain list: one call for the total when the window needs it (`last` without `before`), one for the page. */
export async function pagedConnection<T>(
  args: PageArgs,
  page: (offset: number, limit: number) => Promise<{ items: T[]; total: number }>,
): Promise<Connection<T>> {
  const needsTotal = typeof args.last === 'number' && !args.before;
  const first = needsTotal ? await page(0, 0) : null;
  const guess = first?.total ?? Number.MAX_SAFE_INTEGER;
  const { offset, limit } = windowOf(args, guess);
  const got = limit === 0 && first ? first : await page(offset, Math.min(limit, 100));
  return connectionOf(got.items, offset, got.total);
}

/** An empty connection: what GitHub answers for what the code host has none of (labels, assignees, projects, …). */
export const emptyConnection = (): Connection<never> => connectionOf([], 0, 0);
