import { newSalt } from '../../kit/tokens.js';
import type { CodehostStore } from '../store/store.js';

/**
 * A setting every process over the database shares, made by the first one that needs it: the
 * token salt, the review pages' form secret. Stable once written.
 */
export async function sharedSetting(store: CodehostStore, name: string, make: () => string): Promise<string> {
  const found = await store.settings.get(name);
  if (found !== undefined) return found;
  try {
    return await store.transaction(async (tx) => {
      await store.lockForSeed(tx);
      return store.settings.getOrSet(tx, name, make());
    });
  } catch (e) {
    // Another process wrote it a moment before (SQLite over one file, several processes).
    const again = await store.settings.get(name);
    if (again !== undefined) return again;
    throw e;
  }
}

/** The salt of the code host's token hashes. */
export const tokenSalt = (store: CodehostStore) => sharedSetting(store, 'token_salt', newSalt);
