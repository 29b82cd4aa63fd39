import type { Kysely, Transaction } from 'kysely';
import type { StoreAdapter, StoreContext } from './adapter.js';
import { commentsRepository, type Comments } from './comments.js';
import type { ChangeFeed, Db, Dialect } from './db.js';
import { issueViewReader, type IssueViewReader } from './issue-view.js';
import { issuesRepository, type Issues } from './issues.js';
import { migrate } from './migrations.js';
import { PostgresAdapter } from './postgres/adapter.js';
import { preparer, type Prepare } from './prepared.js';
import { projectsRepository, type Projects } from './projects.js';
import { sitesRepository, type Sites } from './sites.js';
import { SqliteAdapter } from './sqlite/adapter.js';
import { usersRepository, type Users } from './users.js';
import type { Database } from './schema.js';

export type { ChangeFeed } from './db.js';
export type { Tx } from './schema.js';
export type {
  CommentRow,
  CommentRows,
  IssuePatch,
  IssueFound,
  IssueRef,
  IssueRow,
  IssueViewRows,
  IssueWithComments,
  IssueWithProject,
  NewIssue,
  ProjectRow,
  SiteRow,
  StatusRow,
  TokenRow,
  UserRow,
  ViewWants,
} from './rows.js';

/** The adapter of a database's dialect: what SQLite and PostgreSQL do differently (adapter.ts). */
function adapterFor(db: Db, prepare: Prepare): StoreAdapter {
  return db.dialect === 'postgres' ? new PostgresAdapter(db.kysely, prepare) : new SqliteAdapter(db, prepare);
}

/**
 * The only place that writes SQL, one small module per aggregate over the store's kept
 * statements (sites.ts, users.ts, projects.ts, issues.ts, comments.ts), one code path for SQLite
 * and PostgreSQL through Kysely, with what differs behind the dialect's adapter. The store decides
 * no rule (that is the domain's job): it only reads and writes rows.
 */
export class Store {
  readonly kysely: Kysely<Database>;
  readonly dialect: Dialect;
  private readonly adapter: StoreAdapter;
  readonly sites: Sites;
  /** Users and their API tokens. */
  readonly users: Users;
  /** Projects, their members and the site's statuses. */
  readonly projects: Projects;
  readonly issues: Issues;
  readonly comments: Comments;
  /** The issue view's read model, one call at once or waiting (issue-view.ts). */
  readonly issueView: IssueViewReader;
  /**
   * The connection, kept statements and dialect adapter the aggregates above work with; the
   * composition (server.ts) hands it to the code host's store, which keeps its own tables on them.
   */
  readonly context: StoreContext;

  constructor(private readonly db: Db) {
    this.kysely = db.kysely;
    this.dialect = db.dialect;
    const prepare = preparer(db);
    this.adapter = adapterFor(db, prepare);
    const context: StoreContext = { kysely: db.kysely, prepare, adapter: this.adapter };
    this.context = context;
    this.sites = sitesRepository(context);
    this.users = usersRepository(context);
    this.projects = projectsRepository(context);
    this.issues = issuesRepository(context);
    this.comments = commentsRepository(context);
    this.issueView = issueViewReader(this.issues, this.comments);
  }

  /**
   * True when reads run at once (Prepared.rows): SQLite with no transaction open on its
   * connection, until the caller next waits for something (only then can a transaction begin).
   * Always false on PostgreSQL.
   */
  get readsNow(): boolean {
    return this.db.readsNow?.() ?? false;
  }

  /** SQLite: changes whenever anyone commits (Db.dataVersion); undefined on PostgreSQL. */
  get dataVersion(): (() => number) | undefined {
    return this.db.dataVersion;
  }

  /** PostgreSQL: commits by any process (Db.changes), opened on first call; undefined on SQLite. */
  get changes(): ChangeFeed | undefined {
    return this.db.changes?.();
  }

  get location(): string {
    return this.db.location;
  }

  migrate(): Promise<void> {
    return migrate(this.kysely, this.adapter);
  }

  close(): Promise<void> {
    return this.db.close();
  }

  transaction<T>(work: (tx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.kysely.transaction().execute(work);
  }

  /** Serialises seed loading across processes that start together over one database (StoreAdapter.lockForSeed). */
  lockForSeed(tx: Transaction<Database>): Promise<void> {
    return this.adapter.lockForSeed(tx);
  }
}
