import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  JstError,
  ROLES,
  basicAuthSecrets,
  configRedactor,
  configSecrets,
  isLoopbackHost,
  loadConfig,
  parseEnvFile,
  redact,
  requireCodehostToken,
  requireRoleCredentials,
  requireRoleEmail,
  requireWorktreesDir,
  siteUrlForHost,
  validateConfig,
} from '../src/config/index.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

const ASSIGNER = 'tok-A-9d8c7b6a';
const EXECUTOR = 'tok-E-1a2b3c4d';
const REVIEWER = 'tok-R-5e6f7a8b';
const CODEHOST = 'github_pat_Z9Y8X7';

describe('ARCHITECTURE §4: tokens are never put into an error message', () => {
  it('no problem, warning or thrown error of a badly configured project contains a token value', () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'jst-config-sec-')));
    roots.push(root);
    execFileSync('git', ['init', '--quiet', root], { env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' } });
    fs.mkdirSync(path.join(root, '.jst'));
    // Every kind of mistake at once: token in the team file, token pasted into an e-mail line,
    // misspelt token name, duplicate token line, relative path, equal branches.
    fs.writeFileSync(path.join(root, '.jst', 'team.env'), `PRODUCTION_BRANCH=development\nTRACKER_REVIEWER_TOKEN=${REVIEWER}\n`);
    fs.writeFileSync(
      path.join(root, '.jst', 'local.env'),
      [
        `TRACKER_ASSIGNER_EMAIL=${ASSIGNER}`,
        `TRACKER_ASSIGNER_TOKEN=${ASSIGNER}`,
        `TRACKER_ASSIGNER_TOKEN=${ASSIGNER}`,
        `TRACKER_EXECUTOR_TOKN=${EXECUTOR}`,
        `CODEHOST_PAT_TOKEN=${CODEHOST}`,
        'WORKTREES_DIR=wt',
      ].join('\n'),
    );
    const config = loadConfig({ cwd: root, env: {} });
    const texts: string[] = [...config.warnings.map((w) => w.message), ...validateConfig(config).flatMap((p) => [p.message, p.fix])];
    const attempts: Array<() => unknown> = [
      ...ROLES.map((role) => () => requireRoleCredentials(config, role)),
      ...ROLES.map((role) => () => requireRoleEmail(config, role)),
      () => requireWorktreesDir(config),
      () => parseEnvFile(`TRACKER_EXECUTOR_TOKEN='${EXECUTOR}`, 'local.env'),
      () => parseEnvFile(EXECUTOR, 'local.env'),
    ];
    for (const attempt of attempts) {
      try {
        attempt();
      } catch (error) {
        expect(error).toBeInstanceOf(JstError);
        const e = error as JstError;
        texts.push(e.message, e.problem, e.hint ?? '');
      }
    }
    expect(texts.length).toBeGreaterThan(10);
    for (const text of texts) {
      for (const token of [ASSIGNER, EXECUTOR, REVIEWER, CODEHOST]) expect(text).not.toContain(token);
    }
    // And the values are all still there for the code that needs them.
    expect(requireCodehostToken(config, 'executor').token).toBe(CODEHOST);
  });
});

describe('redact: the one place that prints hides every secret', () => {
  it('replaces tokens and their Basic-auth (base64 email:token) form', () => {
    const basic = Buffer.from(`me@acme.test:${ASSIGNER}`).toString('base64');
    const text = `curl -u me@acme.test:${ASSIGNER} -H "Authorization: Basic ${basic}" ?t=${encodeURIComponent(`${ASSIGNER}/=`)}`;
    const out = redact(text, [...basicAuthSecrets('me@acme.test', ASSIGNER), `${ASSIGNER}/=`]);
    expect(out).toBe('curl -u me@acme.test:*** -H "Authorization: Basic ***" ?t=***');
  });

  it('ignores empty secrets and prefers the longest match', () => {
    expect(redact('abc abcdef', ['', 'abc', 'abcdef'])).toBe('*** ***');
  });

  it('configSecrets gathers every token and Basic-auth form of a configuration', () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'jst-config-sec-')));
    roots.push(root);
    const config = loadConfig({ cwd: root, env: { TRACKER_EXECUTOR_EMAIL: 'e@x.test', TRACKER_EXECUTOR_TOKEN: EXECUTOR, CODEHOST_PAT_TOKEN: CODEHOST } });
    const secrets = configSecrets(config);
    expect(secrets).toEqual(expect.arrayContaining([EXECUTOR, CODEHOST, Buffer.from(`e@x.test:${EXECUTOR}`).toString('base64')]));
    expect(redact(`Basic ${Buffer.from(`e@x.test:${EXECUTOR}`).toString('base64')}`, secrets)).toBe('Basic ***');
  });

  it("a configuration's redactor (made once, kept for a jst mcp session) hides what redact hides, each configuration its own secrets", () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'jst-config-sec-')));
    roots.push(root);
    const one = loadConfig({ cwd: root, env: { TRACKER_EXECUTOR_EMAIL: 'e@x.test', TRACKER_EXECUTOR_TOKEN: EXECUTOR, CODEHOST_PAT_TOKEN: 'x' } });
    const two = loadConfig({ cwd: root, env: { TRACKER_EXECUTOR_EMAIL: 'e@x.test', TRACKER_EXECUTOR_TOKEN: REVIEWER } });
    const text = `${EXECUTOR} ${REVIEWER} Basic ${Buffer.from(`e@x.test:${EXECUTOR}`).toString('base64')} x Linux x64 ?t=${encodeURIComponent(EXECUTOR)}`;
    expect(configRedactor(one)).toBe(configRedactor(one));
    expect(configRedactor(one)(text)).toBe(redact(text, configSecrets(one)));
    expect(configRedactor(one)(text)).toBe(`*** ${REVIEWER} Basic *** *** Linux x64 ?t=***`);
    // Twice with a short secret: the kept pattern matches again from the start.
    expect(configRedactor(one)('x')).toBe('***');
    expect(configRedactor(one)('x')).toBe('***');
    expect(configRedactor(two)(text)).toBe(redact(text, configSecrets(two)));
    expect(configRedactor(two)(text)).toContain(EXECUTOR);
    expect(configRedactor(two)(text)).not.toContain(REVIEWER);
  });
});

describe('ARCHITECTURE §4: http only for loopback hosts, otherwise always https', () => {
  it.each([
    ['localhost', true],
    ['localhost:8080', true],
    ['127.0.0.1', true],
    ['127.255.3.4:9000', true],
    ['[::1]', true],
    ['[::1]:8080', true],
    ['::1', true],
    ['128.0.0.1', false],
    ['127.0.0.256', false],
    ['localhost.example.com', false],
    ['127.0.0.1.nip.io', false],
    ['acme.atlassian.net', false],
  ])('isLoopbackHost(%j) is %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
    expect(siteUrlForHost(host).startsWith(loopback ? 'http://' : 'https://')).toBe(true);
  });
});

describe('ARCHITECTURE §10: a syntax error in local.env names the file, line and setting, never a secret', () => {
  const parse = (text: string) => {
    try {
      parseEnvFile(text, '.jst/local.env');
    } catch (error) {
      return error as JstError;
    }
    throw new Error('expected a syntax error');
  };

  it('a token pasted on a line of its own is not echoed (it reads as a name not followed by =)', () => {
    const token = 'ATATT3xFfGF0T4kEnWithOnlyNameCharacters_9d8c7b6a';
    const e = parse(`TRACKER_ASSIGNER_EMAIL=a@acme.test\n${token}\n`);
    const text = `${e.message} ${e.problem} ${e.hint ?? ''} ${e.setting ?? ''}`;
    for (let i = 0; i + 4 <= token.length; i++) expect(text).not.toContain(token.slice(i, i + 4));
    expect(e.message).toContain('.jst/local.env:2');
    expect(e.setting).toBeUndefined();
  });

  it('a known setting not followed by = is still named', () => {
    const e = parse('TRACKER_ASSIGNER_TOKEN\n');
    expect(e.message).toContain('.jst/local.env:1: TRACKER_ASSIGNER_TOKEN is not followed by =');
    expect(e.setting).toBe('TRACKER_ASSIGNER_TOKEN');
  });
});
