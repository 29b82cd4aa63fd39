#!/usr/bin/env node
// Cuts spec/github-openapi/*.json out of GitHub's own OpenAPI descriptions, shipped in the npm
// package @octokit/openapi (spec/github-openapi/SOURCE.md says which version and files):
//   node scripts/github-openapi-subset.mjs [VERSION]
// fetches the package with `npm pack` into a temporary folder (it is never a dependency), then for
// api.github.com and the newest GitHub Enterprise Server keeps exactly the operations the embedded
// code host serves (ARCHITECTURE §14; docs/codehost.md), every `#/components/...` reference they
// make (followed until no new one appears) and the tags they name; openapi/info/servers/
// externalDocs as they are. Nothing is rewritten. Prints the input and output SHA-256s.
//   node scripts/github-openapi-subset.mjs --from DIR   uses an unpacked package/generated folder.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cutSubset, sha256, subsetText } from './lib/openapi-cut.mjs';

/** Path → the methods kept (GitHub's own path templates). */
export const KEEP = {
  '/': ['get'],
  '/rate_limit': ['get'],
  '/user': ['get'],
  '/repos/{owner}/{repo}': ['get'],
  '/repos/{owner}/{repo}/branches/{branch}/protection': ['get', 'put', 'delete'],
  '/repos/{owner}/{repo}/pulls': ['get', 'post'],
  '/repos/{owner}/{repo}/pulls/{pull_number}': ['get', 'patch'],
  '/repos/{owner}/{repo}/pulls/{pull_number}/commits': ['get'],
  '/repos/{owner}/{repo}/pulls/{pull_number}/files': ['get'],
  '/repos/{owner}/{repo}/pulls/{pull_number}/merge': ['get', 'put'],
  '/repos/{owner}/{repo}/pulls/{pull_number}/reviews': ['get', 'post'],
  '/repos/{owner}/{repo}/issues/{issue_number}/comments': ['get', 'post'],
  '/repos/{owner}/{repo}/hooks': ['get', 'post'],
  '/repos/{owner}/{repo}/hooks/{hook_id}': ['get', 'patch', 'delete'],
  '/repos/{owner}/{repo}/hooks/{hook_id}/deliveries': ['get'],
  '/repos/{owner}/{repo}/hooks/{hook_id}/deliveries/{delivery_id}': ['get'],
  '/repos/{owner}/{repo}/hooks/{hook_id}/deliveries/{delivery_id}/attempts': ['post'],
  '/repos/{owner}/{repo}/hooks/{hook_id}/pings': ['post'],
};
const cut = (full) => cutSubset(full, KEEP);

/** The newest ghes-3.N.json in the folder (by N). */
function newestGhes(dir) {
  const found = readdirSync(dir)
    .map((f) => /^ghes-3\.(\d+)\.json$/.exec(f))
    .filter(Boolean)
    .sort((a, b) => Number(b[1]) - Number(a[1]));
  if (found.length === 0) throw new Error(`no ghes-3.N.json in ${dir}`);
  return found[0][0];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  let dir;
  let temp;
  if (args[0] === '--from') {
    dir = args[1];
  } else {
    const version = args[0] ?? 'latest';
    temp = mkdtempSync(join(tmpdir(), 'octokit-openapi-'));
    const tarball = execFileSync('npm', ['pack', `@octokit/openapi@${version}`, '--silent'], { cwd: temp, encoding: 'utf8' })
      .trim()
      .split('\n')
      .pop();
    console.log(`package ${tarball}: sha256 ${sha256(readFileSync(join(temp, tarball)))}`);
    execFileSync('tar', ['xzf', tarball], { cwd: temp });
    dir = join(temp, 'package', 'generated');
  }
  const outDir = fileURLToPath(new URL('../spec/github-openapi/', import.meta.url));
  try {
    for (const [file, out] of [
      ['api.github.com.json', 'api.github.com-subset.json'],
      [newestGhes(dir), 'ghes-subset.json'],
    ]) {
      const raw = readFileSync(join(dir, file));
      const { subset, operations, schemas } = cut(JSON.parse(raw.toString('utf8')));
      const text = subsetText(subset);
      writeFileSync(join(outDir, out), text);
      console.log(`input  ${file}: ${raw.length} bytes, sha256 ${sha256(raw)}`);
      console.log(
        `output spec/github-openapi/${out}: ${Object.keys(subset.paths).length} paths, ${operations} operations, ${schemas} schemas, sha256 ${sha256(text)}`,
      );
    }
  } finally {
    if (temp) rmSync(temp, { recursive: true, force: true });
  }
}
