import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, healthWorld, rowOf } from './healthcheck-fixture.js';
import { runJst } from '../../../test/support/jst-cli.js';
import { setting } from '../../../test/support/repo.js';
import { MIN_ANYWHERE, basicAuthSecrets, loadConfig, redact } from '../src/config/index.js';
import { exposedFileWarning } from '../src/config/file-mode.js';

const world = healthWorld();

describe('secrets: redaction masks whole secret values only', () => {
  it('a one-character token does not mask every such character: "Linux x64" stays readable', () => {
    expect(redact('Linux 6.1 x64, git 2.39', ['x'])).toBe('Linux 6.1 x64, git 2.39');
  });

  it('a short secret is masked where it stands as a whole value: NAME=x, "x", alone, in a query', () => {
    expect(redact('TRACKER_ASSIGNER_TOKEN=x', ['x'])).toBe('TRACKER_ASSIGNER_TOKEN=***');
    expect(redact('{"token":"x"}', ['x'])).toBe('{"token":"***"}');
    expect(redact('x', ['x'])).toBe('***');
    expect(redact('curl -u me@a.test:x ?t=x&y=1', ['x'])).toBe('curl -u me@a.test:*** ?t=***&y=1');
  });

  it(`a secret of ${MIN_ANYWHERE} or more characters is masked everywhere, also inside a longer word`, () => {
    expect(redact('prefixtok-12345suffix', ['tok-12345'])).toBe('prefix***suffix');
  });

  it('the Basic-auth form of a short token is long, so it is masked everywhere', () => {
    const [, basic] = basicAuthSecrets('me@a.test', 'x');
    expect(redact(`Authorization: Basic ${basic}`, basicAuthSecrets('me@a.test', 'x'))).toBe('Authorization: Basic ***');
  });

  it('healthcheck with the token "x": the platform row shows the OS name in full', async () => {
    const r = world.project({ local: setting('TRACKER_ASSIGNER_TOKEN', 'x') });
    const platform = rowOf(await check(r.repo), 'platform');
    expect(platform.detail).toContain(`${os.type()} ${os.release()} ${process.arch}`);
    expect(platform.detail).not.toContain('***');
  });
});

describe('ARCHITECTURE §10: local.env readable by others is warned about, with the chmod that fixes it', () => {
  it('mode 0644: a FILE_MODE warning naming the file and "chmod 600 <path>"', () => {
    const r = world.project();
    const file = path.join(r.repo, '.jst', 'local.env');
    fs.chmodSync(file, 0o644);
    const warning = loadConfig({ cwd: r.repo, env: {} }).warnings.find((w) => w.code === 'FILE_MODE');
    expect(warning?.message).toBe(`${file} holds tokens and is readable by others (mode 0644): run chmod 600 ${file}`);
  });

  it('mode 0600 (what jst init writes): no warning', () => {
    const r = world.project();
    expect(loadConfig({ cwd: r.repo, env: {} }).warnings).toEqual([]);
  });

  it('not on Windows, where files have no such bits', () => {
    const r = world.project();
    const file = path.join(r.repo, '.jst', 'local.env');
    fs.chmodSync(file, 0o666);
    expect(exposedFileWarning(file, 'win32')).toBeNull();
    expect(exposedFileWarning(file, 'linux')?.code).toBe('FILE_MODE');
  });

  it('healthcheck: the env_config row WARNs with the chmod', async () => {
    const r = world.project();
    const file = path.join(r.repo, '.jst', 'local.env');
    fs.chmodSync(file, 0o640);
    const row = rowOf(await check(r.repo), 'env_config');
    expect(row.status).toBe('WARN');
    expect(row.detail).toContain(`chmod 600 ${file}`);
  });

  it('any other command: a warning on stderr, the command still runs', async () => {
    const r = world.project();
    const file = path.join(r.repo, '.jst', 'local.env');
    fs.chmodSync(file, 0o644);
    const res = await runJst(['--role', 'assigner', 'raw', 'GET', '/myself'], { cwd: r.repo });
    expect(res.stderr).toContain(`jst: warning: ${file} holds tokens and is readable by others (mode 0644): run chmod 600 ${file}`);
    expect(res.code).toBe(0);
  });
});
