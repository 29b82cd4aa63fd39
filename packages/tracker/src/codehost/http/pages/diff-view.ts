import { html, type Html } from '../../../kit/html.js';
import type { CommitInfo, Comparison, FileChange } from '../../domain/git-port.js';
import type { ChRepo } from '../../domain/model.js';
import { diffRows } from './diff.js';

/**
 * The diff pages (ARCHITECTURE §22 "Pages"), laid out as GitHub lays them out: a file list with
 * +/− counts, each file's diff, and for a file shown without its lines, why, with a link to the
 * whole `.diff` where there is one. Every value goes through the one `html` template (escaped,
 * control characters marked). The bodies go into the pages' shared frame (./frame.ts).
 */

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

/** The pull request's whole diff and patch, as text. */
function textLinks(repo: Pick<ChRepo, 'owner' | 'name'>, number: number): Html {
  const base = `${repoPath(repo)}/pull/${number}`;
  return html`<p class="diff-links"><a href="${base}.diff">.diff</a> <a href="${base}.patch">.patch</a></p>`;
}

/** The Files changed tab's body. */
export function pullFilesBody(repo: Pick<ChRepo, 'owner' | 'name'>, number: number, cmp: Comparison): Html {
  return html`${textLinks(repo, number)}${filesSection(cmp, `${repoPath(repo)}/pull/${number}.diff`)}`;
}

/** The Commits tab's body: each commit links its own page. */
export function pullCommitsBody(repo: Pick<ChRepo, 'owner' | 'name'>, number: number, cmp: Comparison): Html {
  const more = cmp.commitsTruncated ? html`<p class="cut" data-cut="commits">Showing the first ${cmp.commits.length} of ${cmp.totalCommits} commits.</p>` : '';
  const href = (c: CommitInfo) => `${repoPath(repo)}/pull/${number}/commits/${c.sha}`;
  return html`<section class="commits"><h2>Commits (${cmp.totalCommits})</h2>${more}${commitRows(cmp.commits, href)}</section>`;
}

function commitHead(commit: CommitInfo): Html {
  const [subject, ...rest] = commit.message.split('\n');
  const body = rest.join('\n').trim();
  return html`<section class="commit-head"><h2 class="message">${subject ?? ''}</h2>${body !== '' ? html`<pre class="text">${body}</pre>` : ''}
<p class="commit-meta"><span class="author">${commit.author.name}</span> committed ${when(commit.committer.date)} · <code class="sha">${commit.sha}</code>${commit.parents.length > 0 ? html` · parent ${commit.parents.map((p) => html`<code class="sha">${short(p)}</code> `)}` : ''}</p></section>`;
}

/** One commit's page body (of a pull request, or of the repository): its message, then its change. */
export function commitBody(commit: CommitInfo, cmp: Comparison): Html {
  return html`${commitHead(commit)}${filesSection(cmp, null)}`;
}

/** What changed between two heads of a pull request. */
export function pullRangeBody(from: string, to: string, cmp: Comparison): Html {
  return html`<p class="range">Changes from <code class="sha">${short(from)}</code> to <code class="sha">${short(to)}</code> (the two heads' trees compared).</p>${filesSection(cmp, null)}`;
}

/** The compare page's body: the commits of base..head and the diff from their merge base. */
export function compareBody(repo: Pick<ChRepo, 'owner' | 'name'>, base: string, head: string, cmp: Comparison): Html {
  const more = cmp.commitsTruncated ? html`<p class="cut" data-cut="commits">Showing the first ${cmp.commits.length} of ${cmp.totalCommits} commits.</p>` : '';
  return html`<h2 class="compare-head">Comparing <code class="base">${base}</code>...<code class="head">${head}</code></h2>
${cmp.mergeBase === null ? html`<p class="cut">These two share no history: the diff is of every file of the head.</p>` : ''}
<section class="commits"><h2>Commits (${cmp.totalCommits})</h2>${more}${commitRows(cmp.commits, (c) => `${repoPath(repo)}/commit/${c.sha}`)}</section>
${filesSection(cmp, null)}`;
}
