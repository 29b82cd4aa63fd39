import { html, type Html } from '../../../kit/html.js';
import { page, type PageOptions } from '../../../kit/layout.js';
import type { CommitInfo, Comparison, FileChange } from '../../domain/git-port.js';
import type { ChRepo } from '../../domain/model.js';
import type { PullView } from '../../domain/views.js';
import { diffRows } from './diff.js';

/**
 * The diff pages (ARCHITECTURE §22 "Pages"), laid out as GitHub lays them out: a file list with
 * +/− counts, each file's diff, and for a file shown without its lines, why, with a link to the
 * whole `.diff` where there is one. Every value goes through the one `html` template (escaped,
 * control characters marked). Each body is framed by a `Frame`, the site's layout by default.
 */

/** The layout a page body is put in (the site's own: kit/layout.ts page). */
export type Frame = (options: PageOptions, main: Html) => string;

const seg = (s: string) => encodeURIComponent(s);
export const repoPath = (repo: Pick<ChRepo, 'owner' | 'name'>) => `/${seg(repo.owner)}/${seg(repo.name)}`;
const short = (sha: string) => sha.slice(0, 7);
const when = (iso: string) => html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** Where a file's whole diff can be read: the pull request's `.diff`, or nowhere on this site (a commit or a comparison). */
type DiffLink = string | null;

function cutNote(f: FileChange, diffUrl: DiffLink): Html {
  const load = diffUrl === null ? 'Read it with git (git diff) in a clone.' : html`<a class="load-diff" href="${diffUrl}">Load the whole diff</a>.`;
  switch (f.cut) {
    case 'too_large':
      return html`<p class="cut" data-cut="too_large">This file is too large to diff here (over 8 MiB on one side): it was not diffed. Read it with git in a clone.</p>`;
    case 'patch_too_large':
      return html`<p class="cut" data-cut="patch_too_large">Large diffs are not rendered by default (a file's diff over 512 KiB or 20,000 lines). ${load}</p>`;
    case 'budget':
      return html`<p class="cut" data-cut="budget">This page shows at most 1 MiB and 20,000 lines of diff, and they were spent on the files above. ${load}</p>`;
    default:
      if (f.binary) return html`<p class="empty">Binary file not shown.</p>`;
      return html`<p class="empty">${f.status === 'renamed' ? 'File renamed without changes.' : 'No lines changed (a mode change, or an empty file).'}</p>`;
  }
}

function fileHtml(f: FileChange, index: number, diffUrl: DiffLink): Html {
  const body =
    f.patch !== undefined
      ? html`<table class="diff"><tbody>${diffRows(f.patch).map((r) => html`<tr class="${r.kind}"><td class="ln">${r.old ?? ''}</td><td class="ln">${r.new ?? ''}</td><td class="code">${r.kind === 'add' ? '+' : r.kind === 'del' ? '-' : r.kind === 'ctx' ? ' ' : ''}${r.text}</td></tr>`)}</tbody></table>`
      : cutNote(f, diffUrl);
  return html`<article class="file" id="diff-${index}" data-status="${f.status}">
<h3 class="file-head"><span class="file-name">${f.previous_filename !== undefined ? html`${f.previous_filename} → ` : ''}${f.filename}</span> <span class="file-status">${f.status}</span> <span class="adds">+${f.additions}</span> <span class="dels">−${f.deletions}</span></h3>
${body}
</article>`;
}

/** The file list (names, statuses, +/−) and every file's diff, with what was cut said. */
export function filesSection(cmp: Comparison, diffUrl: DiffLink): Html {
  const more =
    cmp.changedFiles > cmp.files.length
      ? html`<p class="cut" data-cut="files">Showing ${cmp.files.length} of ${cmp.changedFiles} changed files.${diffUrl === null ? '' : html` <a href="${diffUrl}">The whole diff</a> has them all.`}</p>`
      : '';
  return html`<section class="files"><h2>Files changed (${cmp.changedFiles})</h2>
<p class="diff-stats"><span class="files-count">${plural(cmp.changedFiles, 'file')} changed</span> <span class="adds">+${cmp.additions}</span> <span class="dels">−${cmp.deletions}</span></p>
${more}<table class="file-list"><tbody>${cmp.files.map((f, i) => html`<tr><td><a href="#diff-${i}">${f.filename}</a></td><td class="file-status">${f.status}</td><td class="adds">+${f.additions}</td><td class="dels">−${f.deletions}</td></tr>`)}</tbody></table>
${cmp.files.map((f, i) => fileHtml(f, i, diffUrl))}</section>`;
}

function commitRows(commits: CommitInfo[], href: (c: CommitInfo) => string): Html {
  return html`<table class="commit-list"><tbody>${commits.map((c) => html`<tr><td><a class="sha" href="${href(c)}">${short(c.sha)}</a></td><td class="message">${c.message.split('\n', 1)[0]}</td><td class="author">${c.author.name}</td><td>${when(c.author.date)}</td></tr>`)}</tbody></table>`;
}

/** The heading and tabs every pull request page shares. */
function pullHead(view: PullView, tab: 'commits' | 'files'): Html {
  const base = `${repoPath(view.repo)}/pull/${view.pull.number}`;
  return html`<nav class="crumbs"><a href="${repoPath(view.repo)}">${view.repo.owner}/${view.repo.name}</a> / pull requests / #${view.pull.number}</nav>
<h1><span class="title">${view.pull.title}</span> <span class="number">#${view.pull.number}</span></h1>
<p class="pull-meta"><code class="base">${view.pull.base_ref}</code> ← <code class="head">${view.pull.head_ref}</code> · head <code class="sha">${short(view.headSha)}</code></p>
<nav class="tabs"><a href="${base}">Conversation</a> <a href="${base}/commits"${tab === 'commits' ? html` aria-current="page"` : ''}>Commits</a> <a href="${base}/files"${tab === 'files' ? html` aria-current="page"` : ''}>Files changed</a> <a href="${base}.diff">.diff</a> <a href="${base}.patch">.patch</a></nav>`;
}

const titleOf = (view: PullView, what: string) => `${what} · ${view.pull.title} · #${view.pull.number} · ${view.repo.owner}/${view.repo.name}`;
const pullDiffUrl = (view: PullView) => `${repoPath(view.repo)}/pull/${view.pull.number}.diff`;

export function pullFilesPage(frame: Frame, viewer: string, view: PullView, cmp: Comparison): string {
  return frame(
    { title: titleOf(view, 'Files changed'), viewer },
    html`<main class="pull pull-files">${pullHead(view, 'files')}${filesSection(cmp, pullDiffUrl(view))}</main>`,
  );
}

export function pullCommitsPage(frame: Frame, viewer: string, view: PullView, cmp: Comparison): string {
  const more = cmp.commitsTruncated ? html`<p class="cut" data-cut="commits">Showing the first ${cmp.commits.length} of ${cmp.totalCommits} commits.</p>` : '';
  const href = (c: CommitInfo) => `${repoPath(view.repo)}/pull/${view.pull.number}/commits/${c.sha}`;
  return frame(
    { title: titleOf(view, 'Commits'), viewer },
    html`<main class="pull pull-commits">${pullHead(view, 'commits')}<section class="commits"><h2>Commits (${cmp.totalCommits})</h2>${more}${commitRows(cmp.commits, href)}</section></main>`,
  );
}

function commitHead(commit: CommitInfo): Html {
  const [subject, ...rest] = commit.message.split('\n');
  const body = rest.join('\n').trim();
  return html`<section class="commit-head"><h2 class="message">${subject ?? ''}</h2>${body !== '' ? html`<pre class="text">${body}</pre>` : ''}
<p class="commit-meta"><span class="author">${commit.author.name}</span> committed ${when(commit.committer.date)} · <code class="sha">${commit.sha}</code>${commit.parents.length > 0 ? html` · parent ${commit.parents.map((p) => html`<code class="sha">${short(p)}</code> `)}` : ''}</p></section>`;
}

export function pullCommitPage(frame: Frame, viewer: string, view: PullView, commit: CommitInfo, cmp: Comparison): string {
  return frame(
    { title: titleOf(view, short(commit.sha)), viewer },
    html`<main class="pull pull-commit">${pullHead(view, 'commits')}${commitHead(commit)}${filesSection(cmp, null)}</main>`,
  );
}

export function pullRangePage(frame: Frame, viewer: string, view: PullView, from: string, to: string, cmp: Comparison): string {
  return frame(
    { title: titleOf(view, `${short(from)}..${short(to)}`), viewer },
    html`<main class="pull pull-range">${pullHead(view, 'files')}<p class="range">Changes from <code class="sha">${short(from)}</code> to <code class="sha">${short(to)}</code> (the two heads' trees compared).</p>${filesSection(cmp, null)}</main>`,
  );
}

export function commitPage(frame: Frame, viewer: string, repo: ChRepo, commit: CommitInfo, cmp: Comparison): string {
  return frame(
    { title: `${commit.message.split('\n', 1)[0] ?? ''} · ${short(commit.sha)} · ${repo.owner}/${repo.name}`, viewer },
    html`<main class="commit"><nav class="crumbs"><a href="${repoPath(repo)}">${repo.owner}/${repo.name}</a> / commit</nav>${commitHead(commit)}${filesSection(cmp, null)}</main>`,
  );
}

export function comparePage(frame: Frame, viewer: string, repo: ChRepo, base: string, head: string, cmp: Comparison): string {
  const more = cmp.commitsTruncated ? html`<p class="cut" data-cut="commits">Showing the first ${cmp.commits.length} of ${cmp.totalCommits} commits.</p>` : '';
  return frame(
    { title: `Comparing ${base}...${head} · ${repo.owner}/${repo.name}`, viewer },
    html`<main class="compare"><nav class="crumbs"><a href="${repoPath(repo)}">${repo.owner}/${repo.name}</a> / compare</nav>
<h1>Comparing <code class="base">${base}</code>...<code class="head">${head}</code></h1>
${cmp.mergeBase === null ? html`<p class="cut">These two share no history: the diff is of every file of the head.</p>` : ''}
<section class="commits"><h2>Commits (${cmp.totalCommits})</h2>${more}${commitRows(cmp.commits, (c) => `${repoPath(repo)}/commit/${c.sha}`)}</section>
${filesSection(cmp, null)}</main>`,
  );
}

export const defaultFrame: Frame = page;

/**
 * "Changes since your last review" (ARCHITECTURE §22): the range page from the head the viewer last
 * reviewed to the head now, or null when they reviewed none or reviewed this head. For the
 * conversation page to link.
 */
export function sinceLastReviewPath(
  repo: Pick<ChRepo, 'owner' | 'name'>,
  number: number,
  reviews: Array<{ review: { user_id: number; commit_id: string; submitted_at: string } }>,
  viewerId: number,
  headSha: string,
): string | null {
  let last: { commit_id: string; submitted_at: string } | null = null;
  for (const { review } of reviews) if (review.user_id === viewerId && (last === null || review.submitted_at >= last.submitted_at)) last = review;
  if (last === null || last.commit_id === headSha || !/^[0-9a-f]{40}$/.test(last.commit_id)) return null;
  return `${repoPath(repo)}/pull/${number}/files/${last.commit_id}..${headSha}`;
}
