// One cutter for the vendored OpenAPI subsets (spec/jira-openapi, spec/github-openapi): keeps the
// listed operations (path-level keys such as shared parameters too), every `#/components/...`
// reference they make, followed until no new one appears, the security schemes and tags the kept
// operations name, and openapi/info/servers/externalDocs as they are. Nothing is rewritten; the
// components keep the full file's order, so a regenerated subset differs from the last only where
// the vendor's does.
import { createHash } from 'node:crypto';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** `keep`: full path → the methods kept. */
export function cutSubset(full, keep) {
  const paths = {};
  for (const [path, methods] of Object.entries(keep)) {
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
  const schemes = new Set(operations.flatMap((op) => (op.security ?? []).flatMap((s) => Object.keys(s))));
  const tags = new Set(operations.flatMap((op) => op.tags ?? []));
  const components = {};
  for (const [kind, entries] of Object.entries(full.components ?? {})) {
    for (const name of Object.keys(entries)) {
      if (wanted.has(`${kind}/${name}`) || (kind === 'securitySchemes' && schemes.has(name))) (components[kind] ??= {})[name] = entries[name];
    }
  }
  const out = {};
  for (const key of ['openapi', 'info', 'servers', 'externalDocs']) if (full[key] !== undefined) out[key] = full[key];
  if (full.tags) out.tags = full.tags.filter((t) => tags.has(t.name));
  out.paths = paths;
  out.components = components;
  return { subset: out, operations: operations.length, schemas: Object.keys(components.schemas ?? {}).length };
}

export const sha256 = (data) => createHash('sha256').update(data).digest('hex');

/** The subset as it is written to disk. */
export const subsetText = (subset) => `${JSON.stringify(subset, null, 2)}\n`;
