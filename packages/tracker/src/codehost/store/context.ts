import type { Compilable, Kysely, Transaction } from 'kysely';
import type { StoreContext } from '../../store/adapter.js';
import type { Prepared } from '../../store/prepared.js';
import type { Database } from '../../store/schema.js';
import type { ChTx, CodehostDatabase } from './schema.js';

/**
 * What every aggregate module of the code host's store works with: the tracker's store context
 * (store/adapter.ts) — the same connection, its kept statements and its dialect adapter — seen
 * with the code host's tables. The tables live in the tracker's database (migration 0004); only
 * their types are the code host's, which is the one cast made here.
 */
export interface ChContext {
  kysely: Kysely<CodehostDatabase>;
  /** A statement compiled once and kept (store/prepared.ts), run on the store's connection. */
  keep: <A extends unknown[], R>(build: (db: Kysely<CodehostDatabase>, ...args: A) => Compilable<R>) => Kept<A, R>;
  /** The dialect adapter's seed lock (StoreAdapter.lockForSeed), held until `tx` ends. */
  lockForSeed: (tx: Transaction<CodehostDatabase>) => Promise<void>;
}

/** A kept statement: its arguments are values only (never computed with inside `build`). */
export interface Kept<A extends unknown[], R> {
  first: (...args: A) => Promise<R | undefined>;
  all: (...args: A) => Promise<R[]>;
}

export function codehostContext(store: StoreContext): ChContext {
  const kysely = store.kysely as unknown as Kysely<CodehostDatabase>;
  return {
    kysely,
    keep: <A extends unknown[], R>(build: (db: Kysely<CodehostDatabase>, ...args: A) => Compilable<R>): Kept<A, R> => {
      const kept: Prepared<A, R> = store.prepare<A, R>(build as unknown as (db: Kysely<Database>, ...args: A) => Compilable<R>);
      return {
        first: (...args) => kept.first(store.kysely, ...args),
        all: (...args) => kept.all(store.kysely, ...args),
      };
    },
    lockForSeed: (tx) => store.adapter.lockForSeed(tx as unknown as Transaction<Database>),
  };
}

export type { ChTx };
