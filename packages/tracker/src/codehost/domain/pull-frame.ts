import { getPull, listPulls } from './pulls.js';
import type { CodeHost } from './host.js';
import { integrationNotices } from './integration.js';
import type { PullDetail, RepoAccess } from './views.js';

/**
 * What the frame of every code-host page shows (ARCHITECTURE §22 "Pages"): the repository's open
 * pull request count (its Pull requests tab), and for a pull request's pages its header's detail.
 * Knows nothing of HTML (http/pages/frame.ts draws it).
 */

export interface RepoHeader {
  access: RepoAccess;
  /** Open pull requests of the repository (the Pull requests tab's count). */
  openPulls: number;
}

export interface PullHeader extends RepoHeader {
  /** The pull request, its figures (commits, changed files) and mergeability, as GET /pulls/{n}. */
  detail: PullDetail;
  /**
   * Lines the page shows above its body as notices: a tracker integration's failure, say
   * (ARCHITECTURE §22 "Integration with the tracker"): each move of its head branch's issue that failed.
   */
  notices: string[];
}

/** The open pull request count of a repository (one COUNT, no rows read). */
export async function openPullCount(host: CodeHost, access: RepoAccess): Promise<number> {
  const { total } = await listPulls(host, access, { state: 'open', sort: 'created', direction: 'desc', offset: 0, limit: 0 });
  return total;
}

export async function loadRepoHeader(host: CodeHost, access: RepoAccess): Promise<RepoHeader> {
  return { access, openPulls: await openPullCount(host, access) };
}

/** A pull request's header; 404 (masked) for a number no pull request has. */
export async function loadPullHeader(host: CodeHost, access: RepoAccess, number: number): Promise<PullHeader> {
  const [detail, openPulls] = await Promise.all([getPull(host, access, number), openPullCount(host, access)]);
  const moves = await integrationNotices(host, access.repo, detail.pull.head_ref);
  const notices = moves.filter((m) => m.outcome === 'failed').map((m) => m.message);
  return { access, openPulls, detail, notices };
}
