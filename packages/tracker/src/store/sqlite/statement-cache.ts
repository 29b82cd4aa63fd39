import type BetterSqlite3 from 'better-sqlite3';

/** Row constructors by statement: one object literal per column list, so every row shares one shape. */
const rowMakers = new WeakMap<BetterSqlite3.Statement, (values: unknown[]) => Record<string, unknown>>();

/**
 * A function that turns a raw row of `statement` into the object better-sqlite3 would have made
 * (same names, same order; a repeated name keeps its last value, as there). Generated from the
 * statement's column names, which come from our own SQL, each written as a JSON string.
 */
export function rowMaker(statement: BetterSqlite3.Statement): (values: unknown[]) => Record<string, unknown> {
  let make = rowMakers.get(statement);
  if (!make) {
    const fields = statement.columns().map((c, i) => `${JSON.stringify(c.name)}: v[${i}]`);
    // Generated once per statement: a literal object is built faster than one filled key by key.
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    make = new Function('v', `return { ${fields.join(', ')} };`) as (values: unknown[]) => Record<string, unknown>;
    rowMakers.set(statement, make);
  }
  return make;
}

/** How many distinct SQL texts keep their compiled SQLite statement (least recently used go first). */
const STATEMENT_CACHE = 500;

/** Statements that end a transaction: read-only to SQLite, yet the moment its writes land. */
const TRANSACTION_END = /^\s*(commit|end|rollback|release)\b/i;

/**
 * better-sqlite3 compiles a statement on every prepare(), and Kysely prepares once per query: this
 * keeps the compiled statements of recent SQL texts. Reusing one is safe because Kysely runs one
 * query at a time on the single SQLite connection. Kysely prepares each statement just before it
 * runs it, so `onWrite` is told of every write and commit just before it happens.
 */
export function withStatementCache(database: BetterSqlite3.Database, onWrite: () => void): { prepare(sql: string): BetterSqlite3.Statement; close(): void } {
  const cache = new Map<string, { statement: BetterSqlite3.Statement; writes: boolean }>();
  return {
    prepare(sql: string) {
      let entry = cache.get(sql);
      if (entry) {
        cache.delete(sql);
      } else {
        const statement = database.prepare(sql);
        entry = { statement, writes: !statement.readonly || TRANSACTION_END.test(sql) };
        if (cache.size >= STATEMENT_CACHE) cache.delete(cache.keys().next().value!);
      }
      cache.set(sql, entry);
      if (entry.writes) onWrite();
      return entry.statement;
    },
    close: () => database.close(),
  };
}

/**
 * PRAGMA data_version costs three system calls (file locks and a stat), several microseconds in a
 * busy server: asked at most once per turn of the event loop, and again whenever this process has
 * written since. So this process's own commits are seen at once, and another process's commit from
 * the next turn on, which is when a request sent after that commit can first be read.
 */
export class CommitWatch {
  private writes = 0;
  private seenWrites = -1;
  private version = 0;
  private fresh = false;
  private readonly expire = () => {
    this.fresh = false;
  };

  constructor(private readonly read: () => number) {}

  wrote(): void {
    this.writes++;
  }

  current(): number {
    if (!this.fresh || this.seenWrites !== this.writes) {
      this.seenWrites = this.writes;
      this.version = this.read();
      if (!this.fresh) {
        this.fresh = true;
        setImmediate(this.expire);
      }
    }
    return this.version;
  }
}
