/**
 * What diffs cost to compute, kept in memory by what they are of (docs/limits.md "Diff cache"): a
 * comparison or a diff's text depends only on its two commit ids (and the limits it was read
 * with), so an entry is never stale. Bounded by an estimate of its bytes; the least recently used
 * entries go first, and an entry larger than a quarter of the cap is never kept.
 */
export class ByteLru<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private used = 0;

  constructor(readonly capBytes: number) {}

  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.value;
  }

  set(key: string, value: V, bytes: number): void {
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.used -= old.bytes;
    }
    if (bytes > this.capBytes / 4) return;
    this.entries.set(key, { value, bytes });
    this.used += bytes;
    for (const [k, e] of this.entries) {
      if (this.used <= this.capBytes) break;
      this.entries.delete(k);
      this.used -= e.bytes;
    }
  }

  /** Bytes held now (for tests and the bench). */
  get bytes(): number {
    return this.used;
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
    this.used = 0;
  }
}

/** The cap of the process's diff cache: 64 MiB of comparisons and diff texts together. */
export const DIFF_CACHE_BYTES = 64 * 1024 * 1024;

/** One cache for every repository of the process (keys start with the repository's folder). */
export const diffCache = new ByteLru<unknown>(DIFF_CACHE_BYTES);

/** Computations under way: views of one pull request at once share one (never a failure: see `cached`). */
const inFlight = new Map<string, Promise<unknown>>();

/** The cached value of `key`, or `make()`'s (one at a time per key), kept with the size `sizeOf` estimates. */
export function cached<V>(key: string, make: () => Promise<V>, sizeOf: (v: V) => number): Promise<V> {
  const hit = diffCache.get(key);
  if (hit !== undefined) return Promise.resolve(hit as V);
  const running = inFlight.get(key);
  // Another caller's failure (its share of git slots taken, its timeout) is not this one's: it computes on its own then.
  if (running !== undefined) return (running as Promise<V>).catch(() => cached(key, make, sizeOf));
  const work = make().then(
    (value) => {
      inFlight.delete(key);
      diffCache.set(key, value, sizeOf(value));
      return value;
    },
    (e: unknown) => {
      inFlight.delete(key);
      throw e;
    },
  );
  inFlight.set(key, work);
  return work;
}
