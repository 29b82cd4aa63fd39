import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadConfig, type JstConfig } from './load.js';
import { locateJstDir } from './locate.js';
import { FILE_NAMES, SETTING_NAMES } from './schema.js';

/**
 * File times are written from a coarse clock (a few milliseconds; a second or two on some file
 * systems), so two writes of the same size close together can leave the same stamp. A file whose
 * times are this close to when it was last checked is compared by content as well (git's "racy"
 * rule), until it is older than that.
 */
const RACY_MS = 2000;

/**
 * The configuration of a long-lived process (`jst mcp` builds a context per tool call), loaded once
 * per folder and loaded again as soon as anything it was made of changes: where `.jst/` is (looked
 * up on every call, as loadConfig does), each file's identity, size, times and mode (a new value, a
 * chmod of local.env), and the environment's value of every setting. The stamp is taken before the
 * files are read, so a file that changes during a load is read again on the next call.
 */
export interface ConfigCache {
  load(options: { cwd: string; env: Readonly<Record<string, string | undefined>> }): JstConfig;
}

interface Entry {
  stamp: string;
  config: JstConfig;
  /** The files' text as read with this stamp, while a stamp alone cannot be trusted (RACY_MS); else null. */
  texts: (string | null)[] | null;
}

export function configCache(): ConfigCache {
  const entries = new Map<string, Entry>();
  return {
    load({ cwd, env }) {
      const dir = path.resolve(cwd);
      const location = locateJstDir(dir);
      const files = location.jstDir === null ? [] : Object.values(FILE_NAMES).map((name) => path.join(location.jstDir!, name));
      const now = Date.now();
      const stamp = stampOf(location.jstDir, location.repoRoot, files, env);
      const hit = entries.get(dir);
      if (stamp !== null && hit?.stamp === stamp.text) {
        if (hit.texts === null) return hit.config;
        if (same(hit.texts, files.map(textOf))) {
          if (stamp.newest < now - RACY_MS) hit.texts = null;
          return hit.config;
        }
      }
      const texts = stamp !== null && stamp.newest >= now - RACY_MS ? files.map(textOf) : null;
      const config = loadConfig({ cwd: dir, env, location });
      if (stamp === null) entries.delete(dir);
      else entries.set(dir, { stamp: stamp.text, config, texts });
      return config;
    },
  };
}

/** What a configuration was made of, as one string, and its files' newest time; null when a file's metadata cannot be read (then nothing is kept). */
function stampOf(jstDir: string | null, repoRoot: string | null, files: string[], env: Readonly<Record<string, string | undefined>>): { text: string; newest: number } | null {
  const parts: string[] = [];
  let newest = -Infinity;
  for (const file of files) {
    let s;
    try { s = statSync(file, { bigint: true, throwIfNoEntry: false }); } catch { return null; }
    if (s === undefined) { parts.push('absent'); continue; }
    parts.push(`${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.mode}`);
    newest = Math.max(newest, Number(s.mtimeMs), Number(s.ctimeMs));
  }
  return { text: JSON.stringify([jstDir, repoRoot, parts, SETTING_NAMES.map((name) => env[name] ?? null)]), newest };
}

function textOf(file: string): string | null {
  try { return readFileSync(file, 'utf8'); } catch { return null; }
}

const same = (a: readonly (string | null)[], b: readonly (string | null)[]) => a.length === b.length && a.every((t, i) => t === b[i]);
