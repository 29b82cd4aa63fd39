import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadConfig, type JstConfig } from './load.js';
import { locateJstDir } from './locate.js';
import { FILE_NAMES, SETTING_NAMES } from '../core/settings.js';

/**
 * File times are written from a coarse clock (a timer tick, at most 10 ms on Linux; a whole second or
 * two on file systems that keep no fraction of a second), so two writes of the same size close
 * together can leave the same stamp. A file whose times are this close to when it was last checked
 * is compared by content as well (git's "racy" rule), until it is older than that.
 */
const RACY_MS = 100;
const RACY_MS_WHOLE_SECONDS = 2000;

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
          if (stamp.newest < now - stamp.racyMs) hit.texts = null;
          return hit.config;
        }
      }
      const texts = stamp !== null && stamp.newest >= now - stamp.racyMs ? files.map(textOf) : null;
      const config = loadConfig({ cwd: dir, env, location });
      if (stamp === null) entries.delete(dir);
      else entries.set(dir, { stamp: stamp.text, config, texts });
      return config;
    },
  };
}

/**
 * What a configuration was made of, as one string, its files' newest time and how close to now that
 * time may be before the stamp alone is not trusted; null when a file's metadata cannot be read
 * (then nothing is kept). The times are milliseconds with their fraction (a double keeps ~0.1 µs).
 */
function stampOf(
  jstDir: string | null,
  repoRoot: string | null,
  files: string[],
  env: Readonly<Record<string, string | undefined>>,
): { text: string; newest: number; racyMs: number } | null {
  const parts: string[] = [];
  let newest = -Infinity;
  let racyMs = RACY_MS;
  for (const file of files) {
    let s;
    try {
      s = statSync(file, { throwIfNoEntry: false });
    } catch {
      return null;
    }
    if (s === undefined) {
      parts.push('absent');
      continue;
    }
    parts.push(`${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}:${s.mode}`);
    newest = Math.max(newest, s.mtimeMs, s.ctimeMs);
    if (s.mtimeMs % 1000 === 0 || s.ctimeMs % 1000 === 0) racyMs = RACY_MS_WHOLE_SECONDS;
  }
  return { text: JSON.stringify([jstDir, repoRoot, parts, SETTING_NAMES.map((name) => env[name] ?? null)]), newest, racyMs };
}

function textOf(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

const same = (a: readonly (string | null)[], b: readonly (string | null)[]) => a.length === b.length && a.every((t, i) => t === b[i]);
