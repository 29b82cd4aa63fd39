import type { BranchTip } from './git-port.js';
import { gitOf, type CodeHost } from './host.js';
import { loadRepoHeader, type RepoHeader } from './pull-frame.js';
import { listPulls } from './pulls.js';
import { listBadgeOf, verdictsOf } from './verdicts.js';
import type { PullView, RepoAccess } from './views.js';

/**
 * What a repository's pages show (ARCHITECTURE §22 "Pages"): `/<o>/<r>` (default branch, branches
 * with their latest commits, open pull requests) and `/<o>/<r>/pulls` (GitHub's list, paged, each
 * with its review badge). Read through the same functions as the REST interface. Knows nothing of HTML.
 */

/** Branches shown on the repository page (the most recently committed first); the rest are counted. */
export const PAGE_BRANCHES_MAX = 50;
/** Pull requests on one page of the list (GitHub's 25), and on the repository page. */
export const PAGE_PULLS = 25;

export interface PullRow {
  view: PullView;
  /** The review state GitHub's list shows: any latest verdict asking for changes, else an approval, else none. */
  badge: 'approved' | 'changes_requested' | null;
}

export interface RepoPage {
  header: RepoHeader;
  branches: BranchTip[];
  totalBranches: number;
  pulls: PullRow[];
}

export interface PullList {
  header: RepoHeader;
  state: 'open' | 'closed' | 'all';
  page: number;
  pulls: PullRow[];
  total: number;
  /** How many are open and how many closed (the list's two counters). */
  open: number;
  closed: number;
}

async function rowsOf(host: CodeHost, access: RepoAccess, pulls: PullView[]): Promise<PullRow[]> {
  const rows: PullRow[] = [];
  for (const view of pulls) rows.push({ view, badge: listBadgeOf(await verdictsOf(host, view, access.user)) });
  return rows;
}

const listOf = (host: CodeHost, access: RepoAccess, state: 'open' | 'closed' | 'all', offset: number, limit: number) =>
  listPulls(host, access, { state, sort: 'created', direction: 'desc', offset, limit });

export async function loadRepoPage(host: CodeHost, access: RepoAccess): Promise<RepoPage> {
  const { repo } = access;
  const [header, tips, open] = await Promise.all([
    loadRepoHeader(host, access),
    gitOf(host).branchTips(repo.owner, repo.name, PAGE_BRANCHES_MAX),
    listOf(host, access, 'open', 0, PAGE_PULLS),
  ]);
  return { header, branches: tips.branches, totalBranches: tips.total, pulls: await rowsOf(host, access, open.pulls) };
}

/** One page (from 1) of the list in a state; a page past the end is empty. */
export async function loadPullList(host: CodeHost, access: RepoAccess, state: 'open' | 'closed' | 'all', page: number): Promise<PullList> {
  const [header, list, closed] = await Promise.all([
    loadRepoHeader(host, access),
    listOf(host, access, state, (page - 1) * PAGE_PULLS, PAGE_PULLS),
    listOf(host, access, 'closed', 0, 0),
  ]);
  return { header, state, page, pulls: await rowsOf(host, access, list.pulls), total: list.total, open: header.openPulls, closed: closed.total };
}
