#!/usr/bin/env node
// Cuts spec/jira-openapi/jira-cloud-v3-subset.json out of the vendor's full OpenAPI description
// (spec/jira-openapi/SOURCE.md says where that file comes from):
//   node scripts/openapi-subset.mjs /path/to/jira-platform-v3.json [out.json]
// Keeps the operations listed in KEEP (path-level keys such as shared parameters too), every
// `#/components/...` reference they make, followed until no new one appears, the security schemes
// and tags the kept operations name, and openapi/info/servers/externalDocs as they are. Nothing is
// rewritten. Prints the counts and the SHA-256 of the input and of the result.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Path (under /rest/api/3) → the methods kept. */
export const KEEP = {
  '/myself': ['get'],
  '/serverInfo': ['get'],
  '/user': ['get'],
  '/user/search': ['get'],
  '/project': ['get'],
  '/project/search': ['get'],
  '/project/{projectIdOrKey}': ['get'],
  '/project/{projectIdOrKey}/statuses': ['get'],
  '/status': ['get'],
  '/status/{idOrName}': ['get'],
  '/statuscategory': ['get'],
  '/statuscategory/{idOrKey}': ['get'],
  '/field': ['get'],
  '/priority': ['get'],
  '/priority/{id}': ['get'],
  '/issuetype': ['get'],
  '/issuetype/{id}': ['get'],
  '/issue': ['post'],
  '/issue/createmeta/{projectIdOrKey}/issuetypes': ['get'],
  '/issue/createmeta/{projectIdOrKey}/issuetypes/{issueTypeId}': ['get'],
  '/issue/{issueIdOrKey}': ['get', 'put', 'delete'],
  '/issue/{issueIdOrKey}/editmeta': ['get'],
  '/issue/{issueIdOrKey}/comment': ['get', 'post'],
  '/issue/{issueIdOrKey}/assignee': ['put'],
  '/issue/{issueIdOrKey}/transitions': ['get', 'post'],
  '/search/jql': ['get', 'post'],
};
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

export function cutSubset(full) {
  const paths = {};
  for (const [short, methods] of Object.entries(KEEP)) {
    const path = `/rest/api/3${short}`;
    const item = full.paths[path];
    if (!item) throw new Error(`the full description has no path ${path}`);
    const kept = Object.fromEntries(Object.entries(item).filter(([k]) => !METHODS.includes(k) || methods.includes(k)));
    for (const m of methods) if (!kept[m]) throw new Error(`the full description has no ${m.toUpperCase()} ${path}`);
    paths[path] = kept;
  }

  // Every #/components/<kind>/<name> reachable from the kept operations.
  const wanted = new Map();
  const queue = [paths];
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') {
        const m = /^#\/components\/([^/]+)\/([^/]+)$/.exec(v);
        if (!m) throw new Error(`unsupported reference ${v}`);
        const [, kind, name] = m;
        const id = `${kind}/${name}`;
        if (!wanted.has(id)) {
          const target = full.components?.[kind]?.[name];
          if (target === undefined) throw new Error(`reference ${v} does not resolve`);
          wanted.set(id, { kind, name });
          queue.push(target);
        }
      } else visit(v);
    }
  };
  while (queue.length > 0) visit(queue.shift());

  const operations = Object.values(paths).flatMap((item) => METHODS.filter((m) => item[m]).map((m) => item[m]));
  const schemes = new Set(operations.flatMap((op) => (op.security ?? []).flatMap((s) => Object.keys(s))));
  const tags = new Set(operations.flatMap((op) => op.tags ?? []));

  const components = {};
  // In the full file's order, so a regenerated subset differs from the last only where the vendor's does.
  for (const [kind, entries] of Object.entries(full.components)) {
    for (const name of Object.keys(entries)) {
      const keep = wanted.has(`${kind}/${name}`) || (kind === 'securitySchemes' && schemes.has(name));
      if (keep) (components[kind] ??= {})[name] = entries[name];
    }
  }
  const out = {};
  for (const key of ['openapi', 'info', 'servers', 'externalDocs']) if (full[key] !== undefined) out[key] = full[key];
  if (full.tags) out.tags = full.tags.filter((t) => tags.has(t.name));
  out.paths = paths;
  out.components = components;
  return { subset: out, operations: operations.length, schemas: Object.keys(components.schemas ?? {}).length };
}

const sha256 = (data) => createHash('sha256').update(data).digest('hex');

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [input, output = fileURLToPath(new URL('../spec/jira-openapi/jira-cloud-v3-subset.json', import.meta.url))] = process.argv.slice(2);
  if (!input) {
    console.error('usage: node scripts/openapi-subset.mjs FULL_OPENAPI.json [OUT.json]  (see spec/jira-openapi/SOURCE.md)');
    process.exit(2);
  }
  const raw = readFileSync(input);
  const { subset, operations, schemas } = cutSubset(JSON.parse(raw.toString('utf8')));
  const text = `${JSON.stringify(subset, null, 2)}\n`;
  writeFileSync(output, text);
  console.log(`input  ${input}: ${raw.length} bytes, sha256 ${sha256(raw)}`);
  console.log(`output ${output}: ${Object.keys(subset.paths).length} paths, ${operations} operations, ${schemas} schemas, sha256 ${sha256(text)}`);
}
