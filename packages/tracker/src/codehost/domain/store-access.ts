import type { CodehostStore } from '../store/store.js';
import type { GitRepos } from './git-port.js';

/**
 * The keys under which a CodeHost keeps its store and its git. Only the domain imports this file:
 * the routes and pages call domain functions (the import rule `codehost-http-not-store-access` in
 * .dependency-cruiser.cjs, and test/layers.test.ts, keep it so). Symbols rather than names, so
 * `host.store` and `host.git` do not exist to reach for.
 */
export const STORE: unique symbol = Symbol('the code host store');
export const GIT: unique symbol = Symbol('the code host git');

export interface HoldsParts {
  readonly [STORE]: CodehostStore;
  /** Null when the code host is off (offReason says why). */
  readonly [GIT]: GitRepos | null;
  readonly offReason: string;
}

export function storeOf(host: HoldsParts): CodehostStore {
  return host[STORE];
}
