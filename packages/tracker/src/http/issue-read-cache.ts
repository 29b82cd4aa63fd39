import type { IncomingMessage } from 'node:http';
import { REMEMBER_MS } from '../domain/tracker.js';

/**
 * `GET /issue/{key}` in either address form and either served version (`3`, `latest`), as the
 * front (http/issue-read-front.ts) and the cache answer it: a plain key or id segment
 * (letters, digits, `-`, `_`; nothing percent-encoded, no trailing slash) and any query string.
 * Anything else goes the usual way, through Fastify.
 */
export const ISSUE_READ = /^(?:\/ex\/jira\/([^/?%]{1,200}))?\/rest\/api\/(3|latest)\/issue\/([A-Za-z0-9_-]{1,200})(?:\?(.*))?$/s;

/** A reply's size as admit() guesses it, before it is rendered: what an executor's view of a busy issue takes. */
const REPLY_GUESS = 8 * 1024;

/** What an entry costs besides its reply and key: the Map slot, the entry and the Buffer objects. */
const ENTRY_OVERHEAD = 200;

/** A reply as sent (encoded once: writing a Buffer costs far less than writing a string), and its share of the size. */
interface Entry {
  body: Buffer;
  size: number;
  until: number;
}

/**
 * How many keys read once the cache remembers, so that a reply is kept on its key's second read:
 * a table of this many 32-bit fingerprints (64 KiB), a key's slot and tag both taken from its hash.
 * A new key takes the slot of whichever key had it before (so the oldest are forgotten as the
 * table fills), and two keys with the same slot and tag are taken for one (one in 2^18 lookups):
 * then a reply is kept on its first read, which costs only memory the cache's limit bounds anyway.
 * Remembering keys as strings instead (two Sets of 4,096) cost a random read ~10 µs of CPU in
 * the server (bench/ab-read.mjs), the keys' promotion to the old generation and their collection.
 */
const SEEN_SLOTS = 16_384;
const SLOT_BITS = 14;

/**
 * How many replacements the cache may have in hand: once it is full, a new entry may push older
 * ones out only as often as entries are hit, so a workload the cache does not help (reads spread
 * over far more issues than it holds) costs it little.
 */
const CREDIT_MAX = 1024;

/** Default size of the cache: a couple of thousand issues as the executor reads them (~1–6 KB each). */
export const DEFAULT_READ_CACHE_BYTES = 8 * 1024 * 1024;

/**
 * Replies to `GET /issue/{key}` kept as sent, so a repeated read (an executor or a reviewer
 * polling its issue, a board opening the same cards) costs a lookup instead of a render.
 *
 * Faithful by construction:
 * * a reply is reused only for the same user, address form, site, Host (and, behind a trusted
 *   proxy, X-Forwarded-Proto/-Host), key and query string: the inputs its bytes depend on;
 * * only while the database is unchanged: every entry belongs to one data version (SQLite's
 *   PRAGMA data_version, which moves with any commit by this process or another), and a reply is
 *   kept only when no commit happened while it was rendered;
 * * the caller is still authenticated on every request (the remembered sign-ins `authenticate`
 *   keeps; anything it would have to look up goes the usual way), and an entry lives no longer
 *   than a remembered user row, so nothing is served staler than an uncached read could be.
 * On PostgreSQL the data version is the ChangeFeed's (store/postgres/changes.ts: it moves with
 * every commit any process NOTIFYs, and when its LISTEN connection is lost or listens again), and
 * a kept reply is served only once every commit answered before the request arrived counts in it
 * (`mustSync`): at once while the feed's lease holds (`fresh`: a statement on its connection,
 * sent less than LEASE_MS ago, has answered; every writer waits for the feeds' acknowledgements
 * before it answers), otherwise after `synced()` (one shared round trip of `select 1`) instead of a
 * render. So a write answered by another process a moment before is never answered with the view
 * before it.
 *
 * A reply is kept on the second read of its key, not the first: reads that are never repeated (a
 * scan, random keys over a large project) would otherwise fill the cache with copies nobody asks
 * for again, each one encoded, copied and left for the garbage collector (measured on 100,000
 * issues read at random: ~40 µs more CPU per read and ~60 MiB more memory than no cache at all).
 */
export class IssueReadCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private version: number;
  /** Fingerprints of keys read once lately (see SEEN_SLOTS); 0 is an empty slot. */
  private readonly seen = new Uint32Array(SEEN_SLOTS);
  /**
   * Replacements earned: one per hit, at most CREDIT_MAX; a new entry that must push older ones
   * out spends one. Keeping a reply costs a random read ~60 µs of CPU in the server (the encoded
   * copy and its collection, bench/ab-read.mjs), worth it only when kept replies are read again.
   */
  private credit = 0;
  /** Counters for tests and the benchmark's report. */
  hits = 0;

  constructor(
    private readonly dataVersion: () => number,
    private readonly maxBytes: number,
    private readonly trustProxy: boolean,
    /** PostgreSQL: settles true once every commit answered before the call counts in `dataVersion` (ChangeFeed.synced). */
    private readonly sync?: () => Promise<boolean>,
    /** PostgreSQL: true when that is known already, without waiting (ChangeFeed.fresh: the feed's lease). */
    private readonly freshNow?: () => boolean,
  ) {
    this.version = dataVersion();
  }

  /** Whether a kept reply may be served only after `synced()` (PostgreSQL). */
  get mustSync(): boolean {
    return this.sync !== undefined;
  }

  /** PostgreSQL: true once every commit answered before the call counts in the data version; false when that cannot be known. */
  synced(): Promise<boolean> {
    return this.sync ? this.sync() : Promise.resolve(true);
  }

  /** True when every commit answered before now counts in the data version already (always on SQLite): a kept reply may be served at once. */
  fresh(): boolean {
    if (!this.sync) return true;
    return this.freshNow ? this.freshNow() : false;
  }

  /** Whether a reply is kept under `key` (it may be stale or expired still: `lookup` says). */
  has(key: string): boolean {
    return this.entries.has(key);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Within a large reply (REPLY_GUESS) of its limit: a new entry then needs a replacement earned (`credit`). */
  private get full(): boolean {
    return this.bytes + REPLY_GUESS > this.maxBytes;
  }

  /** Bytes the kept replies take, keys and bookkeeping included (never more than the limit it was made with). */
  get bytesUsed(): number {
    return this.bytes;
  }

  /** The data version now; when it moved since it was last read, every entry is dropped. */
  current(): number {
    const version = this.dataVersion();
    if (version !== this.version) {
      this.entries.clear();
      this.bytes = 0;
      this.version = version;
    }
    return version;
  }

  /**
   * The reply kept under `key` (`keyOf`), counted as a hit; undefined when there is none, when the
   * data changed since it was rendered (then every entry is dropped: `current`), or when it
   * outlived a remembered sign-in (then it is dropped). The data version is read only when there
   * is an entry to answer with: a miss costs one Map lookup.
   */
  lookup(key: string): Buffer | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // The data changed since it was kept: every entry is gone (`current`), this one too.
    const kept = this.version;
    if (this.current() !== kept) return undefined;
    if (entry.until < Date.now()) {
      this.drop(key, entry);
      return undefined;
    }
    this.hits++;
    if (this.credit < CREDIT_MAX) this.credit++;
    return entry.body;
  }

  /**
   * After a miss: the data version to render the reply from when it will be kept (its key was
   * read lately, so it may be read again), for `keep`; undefined when it will not, and the key is
   * remembered as read once. So a read that is never repeated asks nothing more of the database.
   * Undefined too when the cache is full and has earned no replacement (`credit`).
   */
  admit(key: string): number | undefined {
    if (!this.seenOnce(key)) return undefined;
    if (this.credit < 1 && this.full) {
      this.dropExpired();
      if (this.full) return undefined;
    }
    return this.current();
  }

  /**
   * Keeps the reply Fastify is about to send for `req`, rendered for `userId` from the data of
   * `version` (read before the issue was): kept only if nothing was committed since.
   */
  offer(req: IncomingMessage, userId: number, body: string, version: number): void {
    const match = ISSUE_READ.exec(req.url ?? '');
    if (!match) return;
    const key = this.keyOf(req, match[1], match[2]!, userId, match[3]!, match[4]);
    if (this.seenOnce(key)) this.keep(key, body, version);
  }

  /**
   * Keeps `body` as the reply under `key`, rendered from the data of `version` (`admit`, or
   * `current` read before the issue was): only if nothing was committed since.
   */
  keep(key: string, body: string, version: number): void {
    if (this.current() !== version) return;
    // A Buffer of its own, exactly as long as the reply: Buffer.from would cut a reply under 4 KiB
    // out of Node's shared 8 KiB pool, and the entry would keep the whole slab alive (measured: an
    // 8 MiB cache of such replies held ~55 MiB of the process's memory).
    const encoded = Buffer.allocUnsafeSlow(Buffer.byteLength(body));
    encoded.write(body);
    // The key counts too (two bytes a character, as V8 may keep it), and a fixed overhead per entry.
    const size = encoded.length + 2 * key.length + ENTRY_OVERHEAD;
    if (size > this.maxBytes / 8) return;
    if (this.full && this.credit < 1) this.dropExpired();
    if (this.full) {
      if (this.credit < 1) return;
      this.credit--;
    }
    const old = this.entries.get(key);
    if (old) this.drop(key, old);
    // Oldest first: a Map iterates in insertion order.
    for (const [k, e] of this.entries) {
      if (this.bytes + size <= this.maxBytes) break;
      this.drop(k, e);
    }
    this.entries.set(key, { body: encoded, size, until: Date.now() + REMEMBER_MS });
    this.bytes += size;
  }

  /** True when the key was read before (lately); otherwise remembers it and says false. */
  private seenOnce(key: string): boolean {
    const hash = fnv1a(key);
    const slot = hash & (SEEN_SLOTS - 1);
    // The rest of the hash, never 0 (an empty slot).
    const tag = (hash >>> SLOT_BITS) | 1;
    if (this.seen[slot] === tag) return true;
    this.seen[slot] = tag;
    return false;
  }

  /**
   * Drops the oldest entries that outlived a remembered sign-in: they can never be served again,
   * so the room they free costs no replacement (`credit`). Without this, a cache filled by reads
   * never repeated (a scan, random keys) and never hit since kept a key read again and again out
   * for as long as the process ran. Entries are in the order they expire (kept, or kept again, with
   * the same lifetime), so the loop stops at the first one still alive.
   */
  private dropExpired(): void {
    const now = Date.now();
    for (const [k, e] of this.entries) {
      if (e.until >= now) break;
      this.drop(k, e);
    }
  }

  private drop(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.size;
  }

  /** Everything a reply's bytes depend on besides the data: who, through which address and version, what. */
  keyOf(req: IncomingMessage, cloudId: string | undefined, version: string, userId: number, issue: string, query: string | undefined): string {
    const { headers } = req;
    const proxied = this.trustProxy ? `${String(headers['x-forwarded-proto'] ?? '')}\0${String(headers['x-forwarded-host'] ?? '')}` : '';
    return `${userId}\0${cloudId ?? ''}\0${version}\0${headers.host ?? ''}\0${proxied}\0${issue}\0${query ?? ''}`;
  }
}

/** 32-bit FNV-1a over a string's UTF-16 code units: a fingerprint, not a defence (see SEEN_SLOTS). */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
