import { sql, type Kysely, type Transaction } from 'kysely';
import type { Db } from '../../store/db.js';
import type { ChComment, ChPull, ChRepo, ChReview, ChUser, NewPull, Permission, PullListQuery, PullPatch } from '../domain/model.js';
import type { ChTx, CodehostDatabase } from './schema.js';

/** What a unique index refused: another row holds the value (PostgreSQL 23505, SQLite's UNIQUE). */
export function isUniqueViolation(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * The code host's rows (store/schema.ts), over the tracker's database connection: the only place
 * that writes the code host's SQL, one code path for SQLite and PostgreSQL.
 */
export class CodehostStore {
  readonly kysely: Kysely<CodehostDatabase>;

  constructor(private readonly db: Db) {
    // The same connection (pool) as the tracker: one database, one migration list.
    this.kysely = db.kysely as unknown as Kysely<CodehostDatabase>;
  }

  get dialect(): Db['dialect'] {
    return this.db.dialect;
  }

  transaction<T>(work: (tx: Transaction<CodehostDatabase>) => Promise<T>): Promise<T> {
    return this.kysely.transaction().execute(work);
  }

  /** Serialises seed loading across processes over one PostgreSQL database (held to the transaction's end). */
  async lockForSeed(tx: Transaction<CodehostDatabase>): Promise<void> {
    if (this.db.dialect === 'postgres') await sql`select pg_advisory_xact_lock(4242019)`.execute(tx);
  }

  // --- settings ---------------------------------------------------------------------------------

  async meta(name: string, tx: ChTx = this.kysely): Promise<string | undefined> {
    return (await tx.selectFrom('ch_meta').select('value').where('name', '=', name).executeTakeFirst())?.value;
  }

  /** The stored value, writing `value` first when there is none (the first writer wins). */
  async metaOrSet(tx: ChTx, name: string, value: string): Promise<string> {
    const found = await this.meta(name, tx);
    if (found !== undefined) return found;
    await tx.insertInto('ch_meta').values({ name, value }).execute();
    return value;
  }

  // --- users and tokens -------------------------------------------------------------------------

  userByLogin(login: string, tx: ChTx = this.kysely): Promise<ChUser | undefined> {
    return tx.selectFrom('ch_users').select(['id', 'login', 'name', 'created_at']).where('login_key', '=', login.toLowerCase()).executeTakeFirst();
  }

  async usersByIds(ids: number[], tx: ChTx = this.kysely): Promise<ChUser[]> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return [];
    return tx.selectFrom('ch_users').select(['id', 'login', 'name', 'created_at']).where('id', 'in', unique).execute();
  }

  async insertUser(tx: ChTx, login: string, name: string | null, now: string): Promise<ChUser> {
    return tx
      .insertInto('ch_users')
      .values({ login, login_key: login.toLowerCase(), name, created_at: now })
      .returning(['id', 'login', 'name', 'created_at'])
      .executeTakeFirstOrThrow();
  }

  async updateUser(tx: ChTx, id: number, login: string, name: string | null): Promise<void> {
    await tx.updateTable('ch_users').set({ login, name }).where('id', '=', id).execute();
  }

  async insertTokenIfAbsent(tx: ChTx, userId: number, tokenHash: string): Promise<'added' | 'present' | 'taken'> {
    const found = await tx.selectFrom('ch_tokens').select('user_id').where('token_hash', '=', tokenHash).executeTakeFirst();
    if (found) return found.user_id === userId ? 'present' : 'taken';
    await tx.insertInto('ch_tokens').values({ user_id: userId, token_hash: tokenHash }).execute();
    return 'added';
  }

  /** The user a token hash belongs to, with the stored hash (compared in constant time by the caller). */
  userByTokenHash(tokenHash: string): Promise<(ChUser & { token_hash: string }) | undefined> {
    return this.kysely
      .selectFrom('ch_tokens')
      .innerJoin('ch_users', 'ch_users.id', 'ch_tokens.user_id')
      .select(['ch_users.id', 'ch_users.login', 'ch_users.name', 'ch_users.created_at', 'ch_tokens.token_hash'])
      .where('ch_tokens.token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  // --- repositories -----------------------------------------------------------------------------

  repoByName(owner: string, name: string, tx: ChTx = this.kysely): Promise<ChRepo | undefined> {
    return tx
      .selectFrom('ch_repos')
      .select(['id', 'owner', 'name', 'default_branch', 'pull_counter', 'created_at', 'updated_at'])
      .where('owner_key', '=', owner.toLowerCase())
      .where('name_key', '=', name.toLowerCase())
      .executeTakeFirst();
  }

  listRepos(tx: ChTx = this.kysely): Promise<ChRepo[]> {
    return tx.selectFrom('ch_repos').select(['id', 'owner', 'name', 'default_branch', 'pull_counter', 'created_at', 'updated_at']).orderBy('id').execute();
  }

  insertRepo(tx: ChTx, owner: string, name: string, defaultBranch: string, now: string): Promise<ChRepo> {
    return tx
      .insertInto('ch_repos')
      .values({ owner, name, owner_key: owner.toLowerCase(), name_key: name.toLowerCase(), default_branch: defaultBranch, created_at: now, updated_at: now })
      .returning(['id', 'owner', 'name', 'default_branch', 'pull_counter', 'created_at', 'updated_at'])
      .executeTakeFirstOrThrow();
  }

  async updateRepo(tx: ChTx, id: number, set: { owner: string; name: string; default_branch: string }, now: string): Promise<void> {
    await tx
      .updateTable('ch_repos')
      .set({ ...set, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  async permissionOf(repoId: number, userId: number): Promise<Permission | undefined> {
    const row = await this.kysely
      .selectFrom('ch_collaborators')
      .select('permission')
      .where('repo_id', '=', repoId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.permission as Permission | undefined;
  }

  async collaborators(repoId: number, tx: ChTx = this.kysely): Promise<{ user_id: number; permission: Permission }[]> {
    return (await tx.selectFrom('ch_collaborators').select(['user_id', 'permission']).where('repo_id', '=', repoId).execute()) as {
      user_id: number;
      permission: Permission;
    }[];
  }

  async upsertCollaborator(tx: ChTx, repoId: number, userId: number, permission: Permission): Promise<void> {
    const found = await tx.selectFrom('ch_collaborators').select('permission').where('repo_id', '=', repoId).where('user_id', '=', userId).executeTakeFirst();
    if (!found) await tx.insertInto('ch_collaborators').values({ repo_id: repoId, user_id: userId, permission }).execute();
    else if (found.permission !== permission)
      await tx.updateTable('ch_collaborators').set({ permission }).where('repo_id', '=', repoId).where('user_id', '=', userId).execute();
  }

  // --- pull requests ----------------------------------------------------------------------------

  private pulls(tx: ChTx = this.kysely) {
    return tx.selectFrom('ch_pulls').selectAll();
  }

  /**
   * Opens a pull request: its number is the repository's counter advanced in the same transaction
   * (on PostgreSQL the row lock serialises creators across processes; on SQLite the write lock
   * does). 'exists' when the database refused a second open pull request for the head and base.
   */
  async createPull(pull: NewPull, now: string): Promise<ChPull | 'exists'> {
    try {
      return await this.transaction(async (tx) => {
        const { pull_counter: number } = await tx
          .updateTable('ch_repos')
          .set({ pull_counter: sql`pull_counter + 1` })
          .where('id', '=', pull.repo_id)
          .returning('pull_counter')
          .executeTakeFirstOrThrow();
        const { draft, ...rest } = pull;
        return (await tx
          .insertInto('ch_pulls')
          .values({
            ...rest,
            number,
            draft: draft ? 1 : 0,
            state: 'open',
            open_key: `${pull.head_ref}\n${pull.base_ref}`,
            merged: 0,
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow()) as ChPull;
      });
    } catch (e) {
      if (isUniqueViolation(e)) return 'exists';
      throw e;
    }
  }

  async pullByNumber(repoId: number, number: number): Promise<ChPull | undefined> {
    return (await this.pulls().where('repo_id', '=', repoId).where('number', '=', number).executeTakeFirst()) as ChPull | undefined;
  }

  async openPullFor(repoId: number, head: string, base: string): Promise<ChPull | undefined> {
    return (await this.pulls().where('repo_id', '=', repoId).where('open_key', '=', `${head}\n${base}`).executeTakeFirst()) as ChPull | undefined;
  }

  async listPulls(repoId: number, q: PullListQuery): Promise<{ rows: ChPull[]; total: number }> {
    let query = this.kysely.selectFrom('ch_pulls').where('repo_id', '=', repoId);
    if (q.state !== 'all') query = query.where('state', '=', q.state);
    if (q.head !== undefined) query = query.where('head_ref', '=', q.head);
    if (q.base !== undefined) query = query.where('base_ref', '=', q.base);
    const { n } = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const column = q.sort === 'updated' ? 'updated_at' : 'created_at';
    const rows = await query.selectAll().orderBy(column, q.direction).orderBy('id', q.direction).offset(q.offset).limit(q.limit).execute();
    return { rows: rows as ChPull[], total: Number(n) };
  }

  /** Pull requests of any repository whose head branch carries an issue key, oldest first (at most 200). */
  async pullsForIssueKey(issueKey: string): Promise<(ChPull & { owner: string; repo_name: string })[]> {
    const rows = await this.kysely
      .selectFrom('ch_pulls')
      .innerJoin('ch_repos', 'ch_repos.id', 'ch_pulls.repo_id')
      .selectAll('ch_pulls')
      .select(['ch_repos.owner as owner', 'ch_repos.name as repo_name'])
      .where('ch_pulls.issue_key', '=', issueKey)
      .orderBy('ch_pulls.id')
      .limit(200)
      .execute();
    return rows as (ChPull & { owner: string; repo_name: string })[];
  }

  /** Applies a change to an open or closed pull request; false when it was not there. */
  async updatePull(id: number, patch: PullPatch, now: string): Promise<boolean> {
    const set: Record<string, unknown> = { updated_at: now };
    if (patch.title !== undefined) set.title = patch.title;
    if (patch.body !== undefined) set.body = patch.body;
    if (patch.base_ref !== undefined) set.base_ref = patch.base_ref;
    if (patch.base_sha !== undefined) set.base_sha = patch.base_sha;
    const result = await this.kysely
      .transaction()
      .execute(async (tx) => {
        const r = await tx.updateTable('ch_pulls').set(set).where('id', '=', id).executeTakeFirst();
        // A new base moves the open key with it (still one open pull request per head and base).
        if (patch.base_ref !== undefined) {
          await tx
            .updateTable('ch_pulls')
            .set({ open_key: sql`head_ref || ${'\n'} || base_ref` })
            .where('id', '=', id)
            .where('state', '=', 'open')
            .execute();
        }
        return r;
      })
      .catch((e: unknown) => {
        if (isUniqueViolation(e)) return 'exists' as const;
        throw e;
      });
    if (result === 'exists') throw new OpenPullExists();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Closes an open pull request that is not being merged, recording the branches' commits; false when it was not open. */
  async closePull(id: number, headSha: string, baseSha: string, now: string): Promise<boolean> {
    const r = await this.kysely
      .updateTable('ch_pulls')
      .set({ state: 'closed', open_key: null, head_sha: headSha, base_sha: baseSha, closed_at: now, updated_at: now })
      .where('id', '=', id)
      .where('state', '=', 'open')
      .where('merge_claim', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Reopens a closed, unmerged pull request; 'exists' when another one is open for its head and base. */
  async reopenPull(id: number, headSha: string, baseSha: string, now: string): Promise<boolean | 'exists'> {
    try {
      const r = await this.kysely
        .updateTable('ch_pulls')
        .set({ state: 'open', open_key: sql`head_ref || ${'\n'} || base_ref`, head_sha: headSha, base_sha: baseSha, closed_at: null, updated_at: now })
        .where('id', '=', id)
        .where('state', '=', 'closed')
        .where('merged', '=', 0)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    } catch (e) {
      if (isUniqueViolation(e)) return 'exists';
      throw e;
    }
  }

  /**
   * Claims the merge of an open pull request for one caller: true when no other merge of it is in
   * progress (or the other one's claim is older than `staleBefore`, its process gone).
   */
  async claimMerge(id: number, claim: string, now: string, staleBefore: string): Promise<boolean> {
    const r = await this.kysely
      .updateTable('ch_pulls')
      .set({ merge_claim: claim, merge_claim_at: now })
      .where('id', '=', id)
      .where('state', '=', 'open')
      .where((eb) => eb.or([eb('merge_claim', 'is', null), eb('merge_claim_at', '<', staleBefore)]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async releaseMerge(id: number, claim: string): Promise<void> {
    await this.kysely.updateTable('ch_pulls').set({ merge_claim: null, merge_claim_at: null }).where('id', '=', id).where('merge_claim', '=', claim).execute();
  }

  /** Records a merge git has published, only while the caller still holds the claim (compare-and-set). */
  async markMerged(id: number, claim: string, m: { sha: string; headSha: string; baseSha: string; mergedBy: number }, now: string): Promise<boolean> {
    const r = await this.kysely
      .updateTable('ch_pulls')
      .set({
        state: 'closed',
        open_key: null,
        merged: 1,
        merged_at: now,
        merged_by_id: m.mergedBy,
        merge_commit_sha: m.sha,
        head_sha: m.headSha,
        base_sha: m.baseSha,
        closed_at: now,
        updated_at: now,
        merge_claim: null,
        merge_claim_at: null,
      })
      .where('id', '=', id)
      .where('state', '=', 'open')
      .where('merge_claim', '=', claim)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  // --- reviews and comments ---------------------------------------------------------------------

  async insertReview(review: Omit<ChReview, 'id'>): Promise<ChReview> {
    return this.kysely.insertInto('ch_reviews').values(review).returningAll().executeTakeFirstOrThrow();
  }

  async reviewsOf(pullId: number, offset: number, limit: number): Promise<{ rows: ChReview[]; total: number }> {
    const q = this.kysely.selectFrom('ch_reviews').where('pull_id', '=', pullId);
    const { n } = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { rows: await q.selectAll().orderBy('id').offset(offset).limit(limit).execute(), total: Number(n) };
  }

  async reviewCount(pullId: number): Promise<number> {
    const { n } = await this.kysely
      .selectFrom('ch_reviews')
      .where('pull_id', '=', pullId)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  async insertComment(comment: Omit<ChComment, 'id'>): Promise<ChComment> {
    return this.kysely.insertInto('ch_comments').values(comment).returningAll().executeTakeFirstOrThrow();
  }

  async commentsOf(repoId: number, number: number, offset: number, limit: number, since?: string): Promise<{ rows: ChComment[]; total: number }> {
    let q = this.kysely.selectFrom('ch_comments').where('repo_id', '=', repoId).where('number', '=', number);
    if (since !== undefined) q = q.where('updated_at', '>=', since);
    const { n } = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { rows: await q.selectAll().orderBy('id').offset(offset).limit(limit).execute(), total: Number(n) };
  }

  async commentCount(repoId: number, number: number): Promise<number> {
    const { n } = await this.kysely
      .selectFrom('ch_comments')
      .where('repo_id', '=', repoId)
      .where('number', '=', number)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(n);
  }
}

/** An update would leave two open pull requests for one head and base. */
export class OpenPullExists extends Error {
  constructor() {
    super('another open pull request has this head and base');
  }
}
