import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { listComments } from './comments.js';
import { gitOf, type CodeHost } from './host.js';
import { loadPullHeader, type PullHeader } from './pull-frame.js';
import { listReviews } from './reviews.js';
import { sharedSetting } from './settings.js';
import { storeOf } from './store-access.js';
import type { CommentView, PullDetail, RepoAccess, ReviewView } from './views.js';
import type { CommitInfo, FileChange } from './git-port.js';
import { PATCH_BYTES_MAX, PULL_COMMITS_MAX } from './limits.js';
import { verdictsOf, type Verdicts } from './verdicts.js';

/**
 * What a pull request's review page shows (ARCHITECTURE §14 "Pages"), gathered through the same
 * rules as the REST interface (the domain's functions), and the merge form's token. Knows nothing of HTML.
 */

/** Files shown on one page; the rest are counted and named as cut (the REST files listing has them all). */
export const PAGE_FILES_MAX = 300;
/** Patch text on one page: a file whose patch would pass it is listed without its lines. */
export const PAGE_PATCH_BYTES = 1024 * 1024;
/** Reviews and comments shown on one page (the first ones; the REST interface pages the rest). */
export const PAGE_THREAD_MAX = 100;

export interface ReviewPage {
  access: RepoAccess;
  /** The frame's header (http/pages/frame.ts pullFrame): the pull request, the open count, the notices. */
  header: PullHeader;
  detail: PullDetail;
  commits: CommitInfo[];
  totalCommits: number;
  /** The files shown, at most PAGE_FILES_MAX; a file without `patch` is binary or cut for size. */
  files: FileChange[];
  totalFiles: number;
  /** Files shown without their lines because the page's patch budget ran out (or the file is too large). */
  patchesCut: number;
  reviews: ReviewView[];
  totalReviews: number;
  comments: CommentView[];
  totalComments: number;
  /** Paths git could not merge (when `detail.mergeable` is false). */
  conflicts: string[];
  /** Whether the viewer may merge (write or admin on the repository). */
  canWrite: boolean;
  /** Each reviewer's latest verdict, and the head the viewer last reviewed (ARCHITECTURE §22). */
  verdicts: Verdicts;
}

/** Everything the review page shows; 404 (masked) when the viewer may not read the repository. */
export async function loadReviewPage(host: CodeHost, access: RepoAccess, number: number): Promise<ReviewPage> {
  const [header, reviews, comments] = await Promise.all([
    loadPullHeader(host, access, number),
    listReviews(host, access, number, 0, PAGE_THREAD_MAX),
    listComments(host, access, number, 0, PAGE_THREAD_MAX),
  ]);
  const { detail } = header;
  const git = gitOf(host);
  const { repo } = access;
  // The diff, the commits and the conflicts of the very commits the page's merge form names.
  const [cmp, merge, verdicts] = await Promise.all([
    git.compare(repo.owner, repo.name, detail.baseSha, detail.headSha, {
      maxCommits: PULL_COMMITS_MAX,
      maxFiles: PAGE_FILES_MAX,
      maxPatchBytes: PATCH_BYTES_MAX,
    }),
    detail.mergeable === false ? git.mergeability(repo.owner, repo.name, detail.baseSha, detail.headSha) : Promise.resolve({ conflicts: [] as string[] }),
    verdictsOf(host, detail, access.user),
  ]);
  let budget = PAGE_PATCH_BYTES;
  let patchesCut = 0;
  const files = cmp.files.slice(0, PAGE_FILES_MAX).map((f) => {
    if (f.patch === undefined) {
      if (f.additions + f.deletions > 0 || f.cut !== undefined) patchesCut++;
      return f;
    }
    const bytes = Buffer.byteLength(f.patch);
    if (bytes > budget) {
      patchesCut++;
      const { patch: _, ...rest } = f;
      return rest;
    }
    budget -= bytes;
    return f;
  });
  return {
    access,
    header,
    detail,
    commits: cmp.commits,
    totalCommits: cmp.totalCommits,
    files,
    totalFiles: cmp.changedFiles,
    patchesCut,
    reviews: reviews.reviews,
    totalReviews: reviews.total,
    comments: comments.comments,
    totalComments: comments.total,
    conflicts: merge.conflicts,
    canWrite: access.permission === 'write' || access.permission === 'admin',
    verdicts,
  };
}

/** The stored secret the merge form's tokens are made with (the first process to need it writes it). */
const SECRET_NAME = 'page_form_secret';

/**
 * The merge form's token (a guard against cross-site requests, which a browser sends with the
 * Basic credential it holds): an HMAC, with a secret every process over the database shares, of
 * the viewer's token hash, the pull request and the head commit the page showed. A token is good
 * only for that credential, that pull request and that head.
 */
export class FormTokens {
  private constructor(private readonly secret: Buffer) {}

  static async open(host: CodeHost): Promise<FormTokens> {
    const secret = await sharedSetting(storeOf(host), SECRET_NAME, () => randomBytes(32).toString('hex'));
    return new FormTokens(Buffer.from(secret, 'hex'));
  }

  /** The token for a form shown to the holder of `tokenHash` (CodeHost.hash of their credential). */
  make(tokenHash: string, repoId: number, number: number, headSha: string): string {
    return createHmac('sha256', this.secret).update(`merge\n${tokenHash}\n${repoId}\n${number}\n${headSha}`).digest('base64url');
  }

  /** Whether `given` is the token for exactly these values (compared in constant time). */
  check(given: string, tokenHash: string, repoId: number, number: number, headSha: string): boolean {
    return same(given, this.make(tokenHash, repoId, number, headSha));
  }

  /**
   * The token of one of a pull request's other forms (`review`, `comment`, `close`, `reopen`): as
   * the merge's, but not tied to a head (a comment is good whatever was pushed since).
   */
  makeFor(form: PageForm, tokenHash: string, repoId: number, number: number): string {
    return createHmac('sha256', this.secret).update(`${form}\n${tokenHash}\n${repoId}\n${number}`).digest('base64url');
  }

  checkFor(form: PageForm, given: string, tokenHash: string, repoId: number, number: number): boolean {
    return same(given, this.makeFor(form, tokenHash, repoId, number));
  }
}

/** A pull request page's forms besides the merge (each with its own token). */
export type PageForm = 'review' | 'comment' | 'close' | 'reopen';

function same(given: string, wanted: string): boolean {
  const want = Buffer.from(wanted);
  const got = Buffer.from(given);
  return got.length === want.length && timingSafeEqual(got, want);
}
