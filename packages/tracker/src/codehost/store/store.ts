import type { Kysely, Transaction } from 'kysely';
import type { StoreContext } from '../../store/adapter.js';
import { commentsRepository, type Comments } from './comments.js';
import { deliveriesRepository, hooksRepository, movesRepository, type Deliveries, type Hooks, type Moves } from './hooks.js';
import { codehostContext } from './context.js';
import { protectionsRepository, type Protections } from './protections.js';
import { pullsRepository, type Pulls } from './pulls.js';
import { refsRepository, type Refs } from './refs.js';
import { reposRepository, type Repos } from './repos.js';
import { reviewsRepository, type Reviews } from './reviews.js';
import type { CodehostDatabase } from './schema.js';
import { settingsRepository, type Settings } from './settings.js';
import { usersRepository, type Users } from './users.js';

export type { PullOfRepo } from './pulls.js';

/**
 * The code host's rows (schema.ts) on the tracker's store context (store/adapter.ts): the same
 * connection, kept statements and dialect adapter, one small module per aggregate (settings,
 * users, repos, pulls, reviews, comments, protections, refs), one code path for SQLite and PostgreSQL; what the
 * dialects do differently is the tracker's adapter's. Decides no rule: the domain does.
 */
export class CodehostStore {
  /** The connection with the code host's tables (for tests that write many rows at once). */
  readonly kysely: Kysely<CodehostDatabase>;
  readonly settings: Settings;
  readonly users: Users;
  readonly repos: Repos;
  readonly pulls: Pulls;
  readonly reviews: Reviews;
  readonly comments: Comments;
  readonly protections: Protections;
  readonly hooks: Hooks;
  readonly deliveries: Deliveries;
  readonly moves: Moves;
  readonly refs: Refs;
  private readonly lock: (tx: Transaction<CodehostDatabase>) => Promise<void>;

  constructor(store: StoreContext) {
    const context = codehostContext(store);
    this.kysely = context.kysely;
    this.lock = context.lockForSeed;
    this.settings = settingsRepository(context);
    this.users = usersRepository(context);
    this.repos = reposRepository(context);
    this.pulls = pullsRepository(context);
    this.reviews = reviewsRepository(context);
    this.comments = commentsRepository(context);
    this.protections = protectionsRepository(context);
    this.hooks = hooksRepository(context);
    this.deliveries = deliveriesRepository(context);
    this.moves = movesRepository(context);
    this.refs = refsRepository(context);
  }

  transaction<T>(work: (tx: Transaction<CodehostDatabase>) => Promise<T>): Promise<T> {
    return this.kysely.transaction().execute(work);
  }

  /** Serialises seed loading (and first settings) across processes over one database, until `tx` ends. */
  lockForSeed(tx: Transaction<CodehostDatabase>): Promise<void> {
    return this.lock(tx);
  }
}
