import type { Kysely, Migration } from 'kysely';

/**
 * The code host's webhooks and its integration with the tracker (ARCHITECTURE §22; typed in
 * codehost/store/schema.ts):
 *
 * - `ch_hooks`: a repository's webhooks, GitHub's `config` as columns. The secret is kept as given
 *   (the HMAC of every delivery needs it) and is never answered (`********`).
 * - `ch_deliveries`: the queue and the record of what was sent, one row per (hook, event) and one
 *   per redelivery; `claim`/`claim_at` name the process sending it (a claim older than the send's
 *   timeout is stale and taken over, so a restart loses none).
 * - `ch_moves`: each integration move (a branch pushed, a pull request opened, merged), unique per
 *   (repository, event, subject, sha): the process whose insert wins makes the move; the others see
 *   the row. Its outcome and message are what the pull request page shows.
 */
export function hooksMigration(idColumn: (table: any) => any): Migration {
  return {
    async up(db: Kysely<any>) {
      await idColumn(db.schema.createTable('ch_hooks'))
        .addColumn('repo_id', 'integer', (c: any) => c.notNull().references('ch_repos.id'))
        .addColumn('active', 'integer', (c: any) => c.notNull())
        .addColumn('events', 'text', (c: any) => c.notNull())
        .addColumn('url', 'text', (c: any) => c.notNull())
        .addColumn('content_type', 'text', (c: any) => c.notNull())
        .addColumn('secret', 'text')
        .addColumn('insecure_ssl', 'text', (c: any) => c.notNull())
        .addColumn('created_at', 'text', (c: any) => c.notNull())
        .addColumn('updated_at', 'text', (c: any) => c.notNull())
        .execute();
      await db.schema.createIndex('ch_hooks_repo').on('ch_hooks').column('repo_id').execute();
      await idColumn(db.schema.createTable('ch_deliveries'))
        .addColumn('hook_id', 'integer', (c: any) => c.notNull())
        .addColumn('repo_id', 'integer', (c: any) => c.notNull())
        .addColumn('guid', 'text', (c: any) => c.notNull())
        .addColumn('event', 'text', (c: any) => c.notNull())
        .addColumn('action', 'text')
        .addColumn('payload', 'text', (c: any) => c.notNull())
        .addColumn('status', 'text', (c: any) => c.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('result', 'text')
        .addColumn('duration_ms', 'integer')
        .addColumn('redelivery', 'integer', (c: any) => c.notNull())
        .addColumn('attempts', 'integer', (c: any) => c.notNull())
        .addColumn('claim', 'text')
        .addColumn('claim_at', 'text')
        .addColumn('created_at', 'text', (c: any) => c.notNull())
        .addColumn('delivered_at', 'text')
        .execute();
      await db.schema.createIndex('ch_deliveries_hook').on('ch_deliveries').columns(['hook_id', 'id']).execute();
      await db.schema.createIndex('ch_deliveries_status').on('ch_deliveries').columns(['status', 'id']).execute();
      await idColumn(db.schema.createTable('ch_moves'))
        .addColumn('repo_id', 'integer', (c: any) => c.notNull())
        .addColumn('event', 'text', (c: any) => c.notNull())
        .addColumn('subject', 'text', (c: any) => c.notNull())
        .addColumn('sha', 'text', (c: any) => c.notNull())
        .addColumn('issue_key', 'text', (c: any) => c.notNull())
        .addColumn('head_ref', 'text', (c: any) => c.notNull())
        .addColumn('target', 'text', (c: any) => c.notNull())
        .addColumn('outcome', 'text', (c: any) => c.notNull())
        .addColumn('message', 'text')
        .addColumn('created_at', 'text', (c: any) => c.notNull())
        .addUniqueConstraint('ch_moves_once', ['repo_id', 'event', 'subject', 'sha'])
        .execute();
      await db.schema.createIndex('ch_moves_head').on('ch_moves').columns(['repo_id', 'head_ref']).execute();
    },
  };
}
