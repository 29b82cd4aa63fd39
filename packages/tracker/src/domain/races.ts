import { isWriteRace } from '../store/races.js';
import { conflict, type ApiError } from './errors.js';

/**
 * A store failure that means the write lost a race with another request (store/races.ts: a row
 * it refers to was deleted a moment before, or a deadlock / serialisation loser) is a conflict the
 * caller can retry, not a fault: 409 in the vendor's shape. Anything else is not ours to answer.
 */
export function lostRace(error: unknown): ApiError | null {
  return isWriteRace(error)
    ? conflict(
        'Another request changed or deleted this issue (or one it refers to) at the same time, so this one was not applied. Read the issue again and retry.',
      )
    : null;
}
