import type { Store } from '../store/store.js';

/**
 * The key under which the Tracker keeps its store. Only the domain imports this file: the HTTP
 * layer reads and writes through domain functions, never the store (the import rule
 * `tracker-http-not-store-access` in .dependency-cruiser.cjs, and a test that reads http/ for
 * `.store`, keep it so). A symbol rather than a name, so `tracker.store` does not exist to reach for.
 */
export const STORE: unique symbol = Symbol('the tracker store');

/** What holds a store under STORE: the Tracker. */
export interface HoldsStore {
  readonly [STORE]: Store;
}

/** The tracker's store, for the domain's functions. */
export function storeOf(tracker: HoldsStore): Store {
  return tracker[STORE];
}
