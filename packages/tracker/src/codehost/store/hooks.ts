import type { Selectable } from 'kysely';
import type { ChContext } from './context.js';
import { isUniqueViolation } from './races.js';
import type { ChDeliveriesTable, ChHooksTable, ChMovesTable } from './schema.js';

export type HookRow = Selectable<ChHooksTable>;
export type DeliveryRow = Selectable<ChDeliveriesTable>;
export type MoveRow = Selectable<ChMovesTable>;
export type NewHook = Omit<HookRow, 'id'>;
export type HookPatch = Partial<Pick<HookRow, 'active' | 'events' | 'url' | 'content_type' | 'secret' | 'insecure_ssl'>>;
export type NewDelivery = Pick<DeliveryRow, 'hook_id' | 'repo_id' | 'guid' | 'event' | 'action' | 'payload' | 'redelivery' | 'created_at'> &
  Partial<Pick<DeliveryRow, 'status' | 'result' | 'delivered_at' | 'duration_ms'>>;
export interface DeliveryOutcome {
  status: 'delivered' | 'failed';
  status_code: number | null;
  result: string;
  duration_ms: number;
  delivered_at: string;
}

const changed = (r: { numUpdatedRows: bigint }) => Number(r.numUpdatedRows) > 0;

/** A repository's webhooks (`ch_hooks`). Decides no rule: the domain (codehost/domain/hooks.ts) does. */
export function hooksRepository({ kysely }: ChContext) {
  return {
    list(repoId: number): Promise<HookRow[]> {
      return kysely.selectFrom('ch_hooks').selectAll().where('repo_id', '=', repoId).orderBy('id').execute();
    },
    get(repoId: number, id: number): Promise<HookRow | undefined> {
      return kysely.selectFrom('ch_hooks').selectAll().where('repo_id', '=', repoId).where('id', '=', id).executeTakeFirst();
    },
    byId(id: number): Promise<HookRow | undefined> {
      return kysely.selectFrom('ch_hooks').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /** Adds a hook unless the repository has `max` already (counted in the same transaction; 'full' then). */
    async insert(hook: NewHook, max: number): Promise<HookRow | 'full'> {
      return kysely.transaction().execute(async (tx) => {
        // The repository's row, locked on PostgreSQL (SQLite's write lock serialises writers anyway).
        await tx.updateTable('ch_repos').set({ updated_at: hook.updated_at }).where('id', '=', hook.repo_id).execute();
        const { n } = await tx
          .selectFrom('ch_hooks')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('repo_id', '=', hook.repo_id)
          .executeTakeFirstOrThrow();
        if (Number(n) >= max) return 'full';
        return tx.insertInto('ch_hooks').values(hook).returningAll().executeTakeFirstOrThrow();
      });
    },
    async update(repoId: number, id: number, patch: HookPatch, now: string): Promise<boolean> {
      return changed(
        await kysely
          .updateTable('ch_hooks')
          .set({ ...patch, updated_at: now })
          .where('repo_id', '=', repoId)
          .where('id', '=', id)
          .executeTakeFirst(),
      );
    },
    /** Removes a hook and its deliveries; false when there was none. */
    async remove(repoId: number, id: number): Promise<boolean> {
      return kysely.transaction().execute(async (tx) => {
        const r = await tx.deleteFrom('ch_hooks').where('repo_id', '=', repoId).where('id', '=', id).executeTakeFirst();
        if (Number(r.numDeletedRows) === 0) return false;
        await tx.deleteFrom('ch_deliveries').where('hook_id', '=', id).execute();
        return true;
      });
    },
  };
}

/** The deliveries' queue and record (`ch_deliveries`): claimed by a compare-and-set, so one process sends each. */
export function deliveriesRepository({ kysely }: ChContext) {
  return {
    async enqueue(rows: NewDelivery[]): Promise<void> {
      if (rows.length === 0) return;
      await kysely
        .insertInto('ch_deliveries')
        .values(rows.map((r) => ({ status: 'queued', attempts: 0, ...r })))
        .execute();
    },
    /**
     * Claims the oldest queued delivery nobody holds (or whose holder has held it since before
     * `staleBefore`): a conditional update, so of several processes one wins each row.
     */
    async claimNext(claim: string, now: string, staleBefore: string): Promise<DeliveryRow | undefined> {
      for (let tries = 0; tries < 5; tries++) {
        const next = await kysely
          .selectFrom('ch_deliveries')
          .select('id')
          .where('status', '=', 'queued')
          .where((eb) => eb.or([eb('claim', 'is', null), eb('claim_at', '<', staleBefore)]))
          .orderBy('id')
          .limit(1)
          .executeTakeFirst();
        if (!next) return undefined;
        const r = await kysely
          .updateTable('ch_deliveries')
          .set({ claim, claim_at: now })
          .where('id', '=', next.id)
          .where('status', '=', 'queued')
          .where((eb) => eb.or([eb('claim', 'is', null), eb('claim_at', '<', staleBefore)]))
          .executeTakeFirst();
        if (changed(r)) return kysely.selectFrom('ch_deliveries').selectAll().where('id', '=', next.id).executeTakeFirst();
      }
      return undefined;
    },
    /** Records the send's outcome, if the claim is still ours. */
    async finish(id: number, claim: string, outcome: DeliveryOutcome): Promise<boolean> {
      return changed(
        await kysely
          .updateTable('ch_deliveries')
          .set((eb) => ({ ...outcome, attempts: eb('attempts', '+', 1), claim: null }))
          .where('id', '=', id)
          .where('claim', '=', claim)
          .executeTakeFirst(),
      );
    },
    /** A hook's deliveries, newest first, `limit` of them from before `beforeId`. */
    list(hookId: number, limit: number, beforeId?: number): Promise<DeliveryRow[]> {
      let q = kysely.selectFrom('ch_deliveries').selectAll().where('hook_id', '=', hookId);
      if (beforeId !== undefined) q = q.where('id', '<', beforeId);
      return q.orderBy('id', 'desc').limit(limit).execute();
    },
    get(hookId: number, id: number): Promise<DeliveryRow | undefined> {
      return kysely.selectFrom('ch_deliveries').selectAll().where('hook_id', '=', hookId).where('id', '=', id).executeTakeFirst();
    },
    /** Keeps a hook's newest `keep` deliveries that are finished (queued ones stay until sent). */
    async prune(hookId: number, keep: number): Promise<void> {
      const edge = await kysely
        .selectFrom('ch_deliveries')
        .select('id')
        .where('hook_id', '=', hookId)
        .orderBy('id', 'desc')
        .offset(keep)
        .limit(1)
        .executeTakeFirst();
      if (edge) await kysely.deleteFrom('ch_deliveries').where('hook_id', '=', hookId).where('id', '<=', edge.id).where('status', '!=', 'queued').execute();
    },
  };
}

/** Integration moves (`ch_moves`), each made once. */
export function movesRepository({ kysely }: ChContext) {
  return {
    /** The row of a move, if this caller is the first to claim it (null: another process has it). */
    async claim(row: Omit<MoveRow, 'id' | 'outcome' | 'message'>): Promise<MoveRow | null> {
      try {
        return await kysely
          .insertInto('ch_moves')
          .values({ ...row, outcome: 'pending', message: null })
          .returningAll()
          .executeTakeFirstOrThrow();
      } catch (e) {
        if (isUniqueViolation(e)) return null;
        throw e;
      }
    },
    async finish(id: number, outcome: 'moved' | 'failed' | 'skipped', message: string): Promise<void> {
      await kysely.updateTable('ch_moves').set({ outcome, message }).where('id', '=', id).execute();
    },
    forHead(repoId: number, headRef: string): Promise<MoveRow[]> {
      return kysely.selectFrom('ch_moves').selectAll().where('repo_id', '=', repoId).where('head_ref', '=', headRef).orderBy('id').limit(50).execute();
    },
  };
}

export type Hooks = ReturnType<typeof hooksRepository>;
export type Deliveries = ReturnType<typeof deliveriesRepository>;
export type Moves = ReturnType<typeof movesRepository>;
