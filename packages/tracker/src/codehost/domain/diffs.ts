import { gitOf, type CodeHost } from './host.js';
import type { DiffKind, DiffText } from './git-port.js';
import { pullOf, viewOf } from './pull-views.js';
import type { PullView, RepoAccess } from './views.js';

/**
 * A pull request's diff and patch as text (ARCHITECTURE §22): the `.diff` / `.patch` pages and
 * REST's diff and patch media types, of the commits the pull request names now (its branches
 * while open, the commits it ended with once closed or merged).
 */
export async function pullDiffText(host: CodeHost, access: RepoAccess, number: number, kind: DiffKind): Promise<{ view: PullView; diff: DiffText }> {
  const view = await viewOf(host, access, await pullOf(host, access, number));
  const diff = await gitOf(host).diffText(access.repo.owner, access.repo.name, view.baseSha, view.headSha, kind);
  return { view, diff };
}

/** The diff and patch media types of GitHub's REST interface, each in its plain and its `v3` spelling. */
const DIFF_MEDIA = /^application\/vnd\.github(?:\.v3)?\.(diff|patch)$/;

/** The diff kind an `Accept` header asks for (its first diff or patch media type), or null for JSON. */
export function diffMediaOf(accept: string | undefined): { kind: DiffKind; mediaType: string } | null {
  if (accept === undefined) return null;
  for (const part of accept.split(',')) {
    const mediaType = part.split(';', 1)[0]!.trim().toLowerCase();
    const m = DIFF_MEDIA.exec(mediaType);
    if (m !== null) return { kind: m[1] as DiffKind, mediaType };
  }
  return null;
}
