import type { IncomingMessage } from 'node:http';
import { REMEMBER_MS } from '../domain/tracker.js';

/**
 * `GET /issue/{key}` in either address form and either served version (`3`, `latest`), as the
 * front (http/issue-read-front.ts) and the cache answer it: a plain key or id segment
 * (letters, digits, `-`, `_`; nothing percent-encoded, no trailing slash) and any query string.
 * Anything else goes the usual way, through Fastify.
 */
export const ISSUE_READ = /^(?:\/ex\/jira\/([^/?%]{1,200}))?\/rest\/api\/(3|latest)\/issue\/([A-Za-z0-9_-]{1,200})(?:\?(.*))?$/s;

/** What an entry costs besides its reply and key: the Map slot, the entry and the Buffer objects. */
const ENTRY_OVERHEAD = 200;

/** A reply as sent (encoded once: writing a Buffer costs far less than writing a string), and its share of the size. */
interface Entry { body: Buffer; size: number; until: number }

/**
 * How many keys read once the cache remembers (twice this at most, in two generations), so that a
 * reply is kept on its key's second read: ~100 bytes of heap a key.
 */
const SEEN_KEYS = 4096;

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
 * SQLite only: on PostgreSQL another process's commit cannot be seen without asking the server.
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
  /** Keys read once lately, newest generation first (see SEEN_KEYS). */
  private seen = new Set<string>();
  private seenBefore = new Set<string>();
  /** Counters for tests and the benchmark's report. */
  hits = 0;

  constructor(
    private readonly dataVersion: () => number,
    private readonly maxBytes: number,
    private readonly trustProxy: boolean,
  ) {
    this.version = dataVersion();
  }

  get size(): number { return this.entries.size; }

  /** Bytes the kept replies take, keys and bookkeeping included (never more than the limit it was made with). */
  get bytesUsed(): number { return this.bytes; }

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
   * The reply kept under `key` (`keyOf`), counted as a hit; undefined when there is none or it
   * outlived a remembered sign-in (then it is dropped). Call `current()` first: an entry of an
   * older data version must not be found.
   */
  lookup(key: string): Buffer | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until < Date.now()) {
      this.drop(key, entry);
      return undefined;
    }
    this.hits++;
    return entry.body;
  }

  /**
   * Keeps the reply Fastify is about to send for `req`, rendered for `userId` from the data of
   * `version` (read before the issue was): kept only if nothing was committed since.
   */
  offer(req: IncomingMessage, userId: number, body: string, version: number): void {
    const match = ISSUE_READ.exec(req.url ?? '');
    if (match) this.keep(this.keyOf(req, match[1], match[2]!, userId, match[3]!, match[4]), body, version);
  }

  /** Keeps `body` as the reply under `key`, rendered from the data of `version`: only if nothing was committed since. */
  keep(key: string, body: string, version: number): void {
    if (this.current() !== version) return;
    if (!this.seenOnce(key)) return;
    // A Buffer of its own, exactly as long as the reply: Buffer.from would cut a reply under 4 KiB
    // out of Node's shared 8 KiB pool, and the entry would keep the whole slab alive (measured: an
    // 8 MiB cache of such replies held ~55 MiB of the process's memory).
    const encoded = Buffer.allocUnsafeSlow(Buffer.byteLength(body));
    encoded.write(body);
    // The key counts too (two bytes a character, as V8 may keep it), and a fixed overhead per entry.
    const size = encoded.length + 2 * key.length + ENTRY_OVERHEAD;
    if (size > this.maxBytes / 8) return;
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
    if (this.seen.has(key) || this.seenBefore.has(key)) return true;
    if (this.seen.size >= SEEN_KEYS) {
      this.seenBefore = this.seen;
      this.seen = new Set();
    }
    this.seen.add(key);
    return false;
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
