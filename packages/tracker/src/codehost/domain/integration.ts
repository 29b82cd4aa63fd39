import { issueKeyOfBranch } from './issue-keys.js';
import type { CodeHost } from './host.js';
import type { ChRepo } from './model.js';
import { storeOf } from './store-access.js';

/**
 * The code host's integration with the tracker (ARCHITECTURE §22), what GitHub for Jira and the
 * original toolkit's Actions workflows do: per repository (the seed's `"tracker"`), a pushed issue
 * branch, a pull request opened from one and its merge each move the issue. The move itself is the
 * tracker's (the composition gives `host.mover`); here each is claimed once (a unique row per
 * repository, event, subject and sha, whichever process wins the insert) and its outcome recorded
 * for the pull request page.
 */

export type { IssueMover, MoveAsk, TrackerLink, Trigger } from './integration-types.js';
import type { TrackerLink, Trigger } from './integration-types.js';

const KEY_OF: Record<Trigger, 'onBranchCreate' | 'onPullOpen' | 'onMerge'> = { branch: 'onBranchCreate', open: 'onPullOpen', merge: 'onMerge' };

/** A move's record, as the pull request page shows it. */
export interface IntegrationNotice {
  event: Trigger;
  issueKey: string;
  target: string;
  outcome: string;
  message: string;
  at: string;
}

const linkName = (repoId: number) => `tracker_link:${repoId}`;

export async function trackerLinkOf(host: CodeHost, repoId: number): Promise<TrackerLink | null> {
  const text = await storeOf(host).settings.get(linkName(repoId));
  return text === undefined ? null : (JSON.parse(text) as TrackerLink);
}

export async function setTrackerLink(host: CodeHost, repoId: number, link: TrackerLink): Promise<void> {
  await storeOf(host).settings.put(linkName(repoId), JSON.stringify(link));
}

/**
 * Makes the move `trigger` asks for the issue `headRef` carries, once across processes; records
 * its outcome. Never throws for the tracker's refusal (the mover answers it); a fault of the
 * mover is recorded as a failure.
 */
export async function integrate(
  host: CodeHost,
  repo: ChRepo,
  trigger: Trigger,
  at: { subject: string; sha: string; headRef: string; link: string; text: string },
): Promise<void> {
  const mover = host.mover;
  if (!mover) return;
  const key = issueKeyOfBranch(at.headRef);
  if (key === null) return;
  const link = await trackerLinkOf(host, repo.id);
  const to = link?.[KEY_OF[trigger]];
  if (!link || to === undefined) return;
  const store = storeOf(host);
  const row = await store.moves.claim({
    repo_id: repo.id,
    event: trigger,
    subject: at.subject,
    sha: at.sha,
    issue_key: key,
    head_ref: at.headRef,
    target: to,
    created_at: host.now(),
  });
  if (!row) return;
  try {
    const r = await mover({ site: link.site, as: link.as, key, to, onlyFromInitial: trigger === 'branch', text: at.text, link: at.link });
    await store.moves.finish(row.id, r.outcome, r.message);
  } catch (e) {
    await store.moves.finish(row.id, 'failed', `${key} not moved to ${to}: the tracker failed (${(e as Error).message.slice(0, 200)})`);
    host.report(e);
  }
}

/** The moves made (or refused) for a pull request's head branch, oldest first: what the page shows. */
export async function integrationNotices(host: CodeHost, repo: ChRepo, headRef: string): Promise<IntegrationNotice[]> {
  const rows = await storeOf(host).moves.forHead(repo.id, headRef);
  return rows.map((r) => ({
    event: r.event as Trigger,
    issueKey: r.issue_key,
    target: r.target,
    outcome: r.outcome,
    message: r.message ?? '',
    at: r.created_at,
  }));
}
