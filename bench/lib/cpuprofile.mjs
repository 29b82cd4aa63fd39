// Reads a V8 .cpuprofile (node --cpu-prof) and says where the time went: by function (self time),
// by area (package, tracker source file, Node core, native, GC), and which tracker functions
// hold the most time including what they call.
import { readFileSync } from 'node:fs';

const SPECIAL = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);

function where(url) {
  if (!url) return '';
  const u = url.replace(/^file:\/\//, '');
  const nm = u.lastIndexOf('/node_modules/');
  if (nm >= 0) return u.slice(nm + '/node_modules/'.length);
  const pk = u.indexOf('/packages/');
  if (pk >= 0) return u.slice(pk + 1);
  return u;
}

function area(frame) {
  const { functionName, url } = frame;
  if (SPECIAL.has(functionName)) return functionName;
  if (!url) return 'native (V8 builtins and addons)';
  const w = where(url);
  if (url.includes('/node_modules/')) {
    const parts = w.split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  if (w.startsWith('packages/tracker/')) return `tracker ${w.replace(/^packages\/tracker\/dist\//, '')}`;
  if (w.startsWith('packages/')) return w.split('/').slice(0, 2).join('/');
  if (url.startsWith('node:'))
    return `node:${
      url
        .slice(5)
        .replace(/^internal\//, '')
        .split('/')[0]
    }`;
  return w;
}

const label = (frame) => `${frame.functionName || '(anonymous)'}${frame.url ? ` ${where(frame.url)}:${frame.lineNumber + 1}` : ''}`;

/** Summarises one profile; percentages are of all samples that were not idle. */
export function summarize(file, top = 8) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const counts = new Map();
  for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);

  const self = new Map();
  const areas = new Map();
  const inclusive = new Map();
  let busy = 0;
  for (const [id, count] of counts) {
    const node = byId.get(id);
    if (node.callFrame.functionName === '(idle)') continue;
    busy += count;
    let key = label(node.callFrame);
    if (!node.callFrame.url && !SPECIAL.has(node.callFrame.functionName)) {
      // A native frame (JSON.stringify, a SQLite statement, a hash) is named with its JS caller.
      const caller = byId.get(parent.get(id));
      if (caller) key += ` ← ${label(caller.callFrame)}`;
    }
    self.set(key, (self.get(key) ?? 0) + count);
    const a = area(node.callFrame);
    areas.set(a, (areas.get(a) ?? 0) + count);
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at).callFrame;
      if (!frame.url.includes('/packages/tracker/')) continue;
      const k = label(frame);
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + count);
    }
  }
  const rank = (m) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, n]) => ({ name, pct: (100 * n) / busy }));
  const seconds = (profile.endTime - profile.startTime) / 1e6;
  return { busySeconds: (busy / profile.samples.length) * seconds, self: rank(self), areas: rank(areas), tracker: rank(inclusive) };
}
