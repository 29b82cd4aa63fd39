'use strict';
/*
 * Loads one of jst's bundles through a V8 code cache, so a run compiles none of the JavaScript an
 * earlier run of the same build already compiled (Node 20 has no module.enableCompileCache).
 *
 * The cache lives in the user's own cache folder (mode 0700), never a shared temporary folder: V8
 * trusts cached bytecode whose source has the same length, so a file another user could plant would
 * be code injection. The file name carries the bundle's size and mtime, the Node.js version and the
 * architecture, so a rebuilt bundle or another Node.js never meets a stale cache; V8 also rejects a
 * cache from other flags, and then the bundle is compiled normally and the cache rewritten.
 * JST_COMPILE_CACHE=0 turns it off. Any failure here only costs the time the cache would have saved.
 */
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { createRequire } = require('node:module');

function cacheDir() {
  const env = process.env;
  if (env.JST_COMPILE_CACHE === '0') return null;
  if (process.platform === 'win32') return env.LOCALAPPDATA ? path.join(env.LOCALAPPDATA, 'jst', 'Cache') : null;
  const home = env.HOME || require('node:os').homedir();
  if (process.platform === 'darwin') return home ? path.join(home, 'Library', 'Caches', 'jst') : null;
  if (env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME)) return path.join(env.XDG_CACHE_HOME, 'jst');
  return home ? path.join(home, '.cache', 'jst') : null;
}

const pending = [];
function writePending() {
  for (const { script, file } of pending) {
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
      fs.renameSync(tmp, file); // atomic: a concurrent run reads the old cache or the new one, never half
    } catch {
      // read-only or full disk: the next run compiles again
    }
  }
}

/** require(file), with its compiled code cached per user. */
function cachedRequire(file) {
  const source = fs.readFileSync(file, 'utf8');
  const dir = cacheDir();
  let cacheFile = null;
  let cachedData;
  if (dir) {
    const st = fs.statSync(file);
    cacheFile = path.join(dir, `${path.basename(file)}-${st.size}-${Math.trunc(st.mtimeMs)}-${process.version}-${process.arch}.cache`);
    try {
      cachedData = fs.readFileSync(cacheFile);
    } catch {
      cachedData = undefined;
    }
  }
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
  const mod = { exports: {}, filename: file, id: file, loaded: false };
  script.runInThisContext().call(mod.exports, mod.exports, createRequire(file), mod, file, path.dirname(file));
  mod.loaded = true;
  if (cacheFile && (cachedData === undefined || script.cachedDataRejected)) {
    // after the run, so the functions it compiled lazily are in the cache too
    if (pending.length === 0) process.once('exit', writePending);
    pending.push({ script, file: cacheFile });
  }
  return mod.exports;
}

module.exports = { cachedRequire };
