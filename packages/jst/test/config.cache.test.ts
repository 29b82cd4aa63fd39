import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configCache, loadConfig } from '../src/config/index.js';

let tmp = '';
let repo = '';
let jst = '';
beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'jst-config-cache-')));
  repo = path.join(tmp, 'repo');
  jst = path.join(repo, '.jst');
  fs.mkdirSync(path.join(repo, '.git'), { recursive: true });
  fs.mkdirSync(jst);
  fs.writeFileSync(path.join(jst, 'team.env'), 'PROJECT_KEY=ABC\nPRODUCTION_BRANCH=main\n');
  fs.writeFileSync(path.join(jst, 'local.env'), 'TRACKER_EXECUTOR_EMAIL=e@x.test\nTRACKER_EXECUTOR_TOKEN=tok-one-123456\n', { mode: 0o600 });
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Sets a file's times `ms` in the past, as an edit made earlier leaves them. */
const age = (file: string, ms: number) => {
  const t = new Date(Date.now() - ms);
  fs.utimesSync(file, t, t);
};
const env = {};

describe('ARCHITECTURE §10: a jst mcp session reads .jst on every call as the CLI does (kept between calls only while nothing changed)', () => {
  it('answers what loadConfig answers, and the same object while the files, their modes and the environment are unchanged', () => {
    age(path.join(jst, 'team.env'), 60_000);
    age(path.join(jst, 'local.env'), 60_000);
    const cache = configCache();
    const first = cache.load({ cwd: repo, env });
    expect(first).toEqual(loadConfig({ cwd: repo, env }));
    expect(cache.load({ cwd: repo, env })).toBe(first);
    expect(cache.load({ cwd: path.join(repo, '.'), env })).toBe(first);
  });

  it('sees a value changed on disk at once, also one of the same length written in the same instant', () => {
    const cache = configCache();
    expect(cache.load({ cwd: repo, env }).projectKey).toBe('ABC');
    // Same size, written right away: the file times may not move (a coarse clock); the content still decides.
    fs.writeFileSync(path.join(jst, 'team.env'), 'PROJECT_KEY=XYZ\nPRODUCTION_BRANCH=main\n');
    expect(cache.load({ cwd: repo, env }).projectKey).toBe('XYZ');
    fs.writeFileSync(path.join(jst, 'team.env'), 'PROJECT_KEY=ABC\nPRODUCTION_BRANCH=main\n');
    expect(cache.load({ cwd: repo, env }).projectKey).toBe('ABC');
  });

  it('sees an old file edited later: a new time, even with the same size', () => {
    const team = path.join(jst, 'team.env');
    age(team, 60_000);
    age(path.join(jst, 'local.env'), 60_000);
    const cache = configCache();
    expect(cache.load({ cwd: repo, env }).projectKey).toBe('ABC');
    expect(cache.load({ cwd: repo, env }).projectKey).toBe('ABC');
    fs.writeFileSync(team, 'PROJECT_KEY=XYZ\nPRODUCTION_BRANCH=main\n');
    expect(cache.load({ cwd: repo, env }).projectKey).toBe('XYZ');
  });

  it('sees a same-size edit of a file whose times keep whole seconds (a coarse file system), however soon after', () => {
    const team = path.join(jst, 'team.env');
    const whole = new Date(Math.floor(Date.now() / 1000) * 1000);
    fs.utimesSync(team, whole, whole);
    const cache = configCache();
    expect(cache.load({ cwd: repo, env }).projectKey).toBe('ABC');
    fs.writeFileSync(team, 'PROJECT_KEY=XYZ\nPRODUCTION_BRANCH=main\n');
    fs.utimesSync(team, whole, whole);
    expect(cache.load({ cwd: repo, env }).projectKey).toBe('XYZ');
  });

  it('sees a new token in local.env, a file added or removed, and a chmod that exposes the tokens (its warning)', () => {
    const cache = configCache();
    const local = path.join(jst, 'local.env');
    fs.writeFileSync(local, 'TRACKER_EXECUTOR_EMAIL=e@x.test\nTRACKER_EXECUTOR_TOKEN=tok-two-123456\n');
    expect(cache.load({ cwd: repo, env }).settings.TRACKER_EXECUTOR_TOKEN?.value).toBe('tok-two-123456');
    expect(cache.load({ cwd: repo, env }).warnings).toEqual([]);
    fs.chmodSync(local, 0o644);
    expect(cache.load({ cwd: repo, env }).warnings.map((w) => w.code)).toEqual(['FILE_MODE']);
    fs.rmSync(local);
    expect(cache.load({ cwd: repo, env }).filesFound).toEqual({ team: true, local: false });
    fs.writeFileSync(local, 'TRACKER_EXECUTOR_EMAIL=e@x.test\n', { mode: 0o600 });
    expect(cache.load({ cwd: repo, env }).settings.TRACKER_EXECUTOR_EMAIL?.value).toBe('e@x.test');
  });

  it('sees a .jst folder that appears nearer the folder asked about, and a setting changed in the environment', () => {
    const cache = configCache();
    const sub = path.join(repo, 'pkg');
    fs.mkdirSync(sub);
    expect(cache.load({ cwd: sub, env }).jstDir).toBe(jst);
    fs.mkdirSync(path.join(sub, '.jst'));
    fs.writeFileSync(path.join(sub, '.jst', 'team.env'), 'PROJECT_KEY=SUB\n');
    expect(cache.load({ cwd: sub, env })).toMatchObject({ jstDir: path.join(sub, '.jst'), projectKey: 'SUB' });
    const moved: Record<string, string | undefined> = {};
    expect(cache.load({ cwd: repo, env: moved }).projectKey).toBe('ABC');
    moved.PROJECT_KEY = 'ENV';
    expect(cache.load({ cwd: repo, env: moved }).projectKey).toBe('ENV');
    moved.PROJECT_KEY = '';
    expect(cache.load({ cwd: repo, env: moved }).projectKey).toBeNull();
  });

  it('keeps reporting a file it cannot read, as loadConfig does, and nothing is kept from it', () => {
    const cache = configCache();
    const team = path.join(jst, 'team.env');
    fs.rmSync(team);
    fs.mkdirSync(team); // reading a folder fails with EISDIR: CONFIG_UNREADABLE
    expect(() => cache.load({ cwd: repo, env })).toThrow(/cannot read .*team\.env/);
    expect(() => cache.load({ cwd: repo, env })).toThrow(/cannot read .*team\.env/);
    fs.rmdirSync(team);
    fs.writeFileSync(team, 'PROJECT_KEY=NEW\n');
    expect(cache.load({ cwd: repo, env }).projectKey).toBe('NEW');
  });
});
