import { runGit } from './run.js';

/**
 * The sizes of blobs, asked of git without reading them (`git cat-file --batch-check`): how the
 * diff engine decides a file is too large to diff before any diff of it is made.
 */
export async function blobSizes(gitDir: string, shas: Iterable<string>, timeoutMs: number): Promise<Map<string, number>> {
  const wanted = [...new Set([...shas].filter((s) => /^[0-9a-f]{40}$|^[0-9a-f]{64}$/.test(s) && !/^0+$/.test(s)))];
  const sizes = new Map<string, number>();
  if (wanted.length === 0) return sizes;
  const r = await runGit(gitDir, ['cat-file', '--batch-check=%(objectname) %(objecttype) %(objectsize)'], {
    input: wanted.join('\n') + '\n',
    timeoutMs,
  });
  for (const line of r.stdout.toString('utf8').split('\n')) {
    const [sha, type, size] = line.split(' ');
    // A submodule's entry names a commit of another repository: "missing" here, and never diffed as text.
    if (sha !== undefined && type === 'blob' && size !== undefined) sizes.set(sha, Number(size));
  }
  return sizes;
}
