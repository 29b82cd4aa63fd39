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
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Path → the methods kept (GitHub's own path templates). */
export const KEEP = {
  '/user': ['get'],
  '/repos/{owner}/{repo}': ['get'],
  '/repos/{owner}/{repo}/pulls': ['get', 'post'],
  '/repos/{owner}/{repo}/pulls/{pull_number}': ['get', 'patch'],
  '/repos/{owner}/{repo}/pulls/{pull_number}/commits': ['get'],
  '/repos/{owner}/{repo}/pulls/{pull_number}/files': ['get'],
  '/repos/{owner}/{repo}/pulls/{pull_number}/merge': ['get', 'put'],
  '/repos/{owner}/{repo}/pulls/{pull_number}/reviews': ['get', 'post'],
  '/repos/{owner}/{repo}/issues/{issue_number}/comments': ['get', 'post'],
};
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

export function cutSubset(full) {
  const paths = {};
  for (const [path, methods] of Object.entries(KEEP)) {
    const item = full.paths[path];
    if (!item) throw new Error(`the full description has no path ${path}`);
    const kept = Object.fromEntries(Object.entries(item).filter(([k]) => !METHODS.includes(k) || methods.includes(k)));
    for (const m of methods) if (!kept[m]) throw new Error(`the full description has no ${m.toUpperCase()} ${path}`);
    paths[path] = kept;
  }
  const wanted = new Set();
  const queue = [paths];
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') {
        const m = /^#\/components\/([^/]+)\/([^/]+)$/.exec(v);
        if (!m) throw new Error(`unsupported reference ${v}`);
        const [, kind, name] = m;
        if (!wanted.has(`${kind}/${name}`)) {
          const target = full.components?.[kind]?.[name];
          if (target === undefined) throw new Error(`reference ${v} does not resolve`);
          wanted.add(`${kind}/${name}`);
          queue.push(target);
        }
      } else visit(v);
    }
  };
  while (queue.length > 0) visit(queue.shift());
  const operations = Object.values(paths).flatMap((item) => METHODS.filter((m) => item[m]).map((m) => item[m]));
  const tags = new Set(operations.flatMap((op) => op.tags ?? []));
  const components = {};
  for (const [kind, entries] of Object.entries(full.components)) {
    for (const name of Object.keys(entries)) if (wanted.has(`${kind}/${name}`)) (components[kind] ??= {})[name] = entries[name];
  }
  const out = {};
  for (const key of ['openapi', 'info', 'servers', 'externalDocs']) if (full[key] !== undefined) out[key] = full[key];
  if (full.tags) out.tags = full.tags.filter((t) => tags.has(t.name));
  out.paths = paths;
  out.components = components;
  return { subset: out, operations: operations.length, schemas: Object.keys(components.schemas ?? {}).length };
}

const sha256 = (data) => createHash('sha256').update(data).digest('hex');

/** The newest ghes-3.N.json in the folder (by N). */
function newestGhes(dir) {
  const found = readdirSync(dir).map((f) => /^ghes-3\.(\d+)\.json$/.exec(f)).filter(Boolean).sort((a, b) => Number(b[1]) - Number(a[1]));
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
    const tarball = execFileSync('npm', ['pack', `@octokit/openapi@${version}`, '--silent'], { cwd: temp, encoding: 'utf8' }).trim().split('\n').pop();
    console.log(`package ${tarball}: sha256 ${sha256(readFileSync(join(temp, tarball)))}`);
    execFileSync('tar', ['xzf', tarball], { cwd: temp });
    dir = join(temp, 'package', 'generated');
  }
  const outDir = fileURLToPath(new URL('../spec/github-openapi/', import.meta.url));
  try {
    for (const [file, out] of [['api.github.com.json', 'api.github.com-subset.json'], [newestGhes(dir), 'ghes-subset.json']]) {
      const raw = readFileSync(join(dir, file));
      const { subset, operations, schemas } = cutSubset(JSON.parse(raw.toString('utf8')));
      const text = `${JSON.stringify(subset, null, 2)}\n`;
      writeFileSync(join(outDir, out), text);
      console.log(`input  ${file}: ${raw.length} bytes, sha256 ${sha256(raw)}`);
      console.log(`output spec/github-openapi/${out}: ${Object.keys(subset.paths).length} paths, ${operations} operations, ${schemas} schemas, sha256 ${sha256(text)}`);
    }
  } finally {
    if (temp) rmSync(temp, { recursive: true, force: true });
  }
}
