// The change feed's protocol over PostgreSQL (changes.ts): the channels and connection names every
// process uses, the timings the lease's argument rests on (the same in every process), and the two
// statements. Writers and feeds in different processes meet only through these.

/** The channel every commit that changed a table notifies (migration 0008's triggers). */
export const CHANGES_CHANNEL = 'jst_changes';

/** The feed's connection as pg_stat_activity names it (application_name). */
export const FEED_APPLICATION = 'jst-tracker changes';

/** The channel a writer NOTIFYs after its commit, asking every feed to acknowledge it (`afterWrite`). */
export const SYNC_CHANNEL = 'jst_sync';

/** The channel the feeds acknowledge on: `<feed backend pid> <token> [<token> …]`. */
export const ACKS_CHANNEL = 'jst_acks';

/**
 * How long a feed trusts its last proof of freshness (`synced`): a kept reply is served without a
 * round trip while the last statement answered on the feed's connection was sent less than this
 * long ago. Must stay well under SYNC_TIMEOUT_MS (the argument at PostgresChangeFeed needs
 * SYNC_TIMEOUT_MS > LEASE_MS; twice over leaves room for timers that fire late).
 */
export const LEASE_MS = 50;

/**
 * How long a write waits, after its commit, for the acknowledgements of every listening feed
 * (`afterWrite`) before it answers anyway: a feed that did not acknowledge by then (a stalled
 * process) has let its lease run out, so it serves nothing kept before the write.
 */
export const SYNC_TIMEOUT_MS = 250;

/**
 * How old a writer's list of the other feeds may be for its writes to answer without asking
 * (`afterWrite`, a process alone), and so how long a feed that just took its name waits before
 * its first proof counts. The same in every process.
 */
export const ALONE_MS = 50;

/** The feed's connection while it connects and LISTENs: writers wait only for FEED_APPLICATION. */
export const CONNECTING_APPLICATION = 'jst-tracker changes (connecting)';

/**
 * A write's question, after its commit: the feeds to wait for, as listed once it is committed
 * (this process's own, $3, left out), and the notification, sent only when there is any (a
 * process alone on its database then pays a read of pg_stat_activity, nothing more). A
 * notification gives its transaction an id and a commit record; nothing is lost if that record
 * never reaches the disk, so its commit does not wait for it (`set_config`, local to the
 * statement's own transaction).
 */
export const SYNC_STATEMENT =
  `with feeds as (select array(select pid from pg_stat_activity where application_name = $2 and datname = current_database() and pid <> $3) as pids) ` +
  `select pids, case when cardinality(pids) > 0 then set_config('synchronous_commit', 'off', true) || pg_notify('${SYNC_CHANNEL}', $1) end as asked from feeds`;

/**
 * The other feeds, asked on a feed's own connection (`refreshPeers`): a process that knows itself
 * alone on its database (asked less than a lease ago) lets its writes answer without a statement.
 */
export const PEERS_STATEMENT = `select array(select pid from pg_stat_activity where application_name = $1 and datname = current_database() and pid <> pg_backend_pid()) as pids`;

/** Tokens acknowledged in one notification at most (a payload is limited to 8,000 bytes). */
export const ACKS_PER_NOTIFY = 100;
