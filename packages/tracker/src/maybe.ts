/**
 * A value now or a promise of it: what a read of the store gives back. On SQLite, outside a
 * transaction, a read runs at once and its rows are here within the caller's turn of the event
 * loop; on PostgreSQL (a round trip) or inside a transaction it is a promise. A read is written
 * once over these (`after`), and whoever finally needs the value either awaits it (a route) or
 * uses it at once when it is here (the read front, http/issue-read-front.ts). Below all three
 * layers, like model.ts: it imports nothing.
 */
export type Maybe<T> = T | Promise<T>;

/** `next` of the value: at once when the value is here, after it when it is a promise. A throw in `next` is thrown, or rejects. */
export function after<T, U>(value: Maybe<T>, next: (value: T) => Maybe<U>): Maybe<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}
