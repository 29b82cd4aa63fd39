import { newSalt } from '../../kit/tokens.js';
import type { CodehostStore } from '../store/codehost-store.js';

/** The salt of the code host's token hashes, stable across processes (the first one to start writes it). */
export async function tokenSalt(store: CodehostStore): Promise<string> {
  const found = await store.meta('token_salt');
  if (found !== undefined) return found;
  try {
    return await store.transaction(async (tx) => {
      await store.lockForSeed(tx);
      return store.metaOrSet(tx, 'token_salt', newSalt());
    });
  } catch (e) {
    // Another process wrote it a moment before (SQLite over one file, several processes).
    const again = await store.meta('token_salt');
    if (again !== undefined) return again;
    throw e;
  }
}
