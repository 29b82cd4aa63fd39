import { afterEach, describe, expect, it } from 'vitest';
import { CODEHOST_TOKEN, FIXTURE_GIT_ENV, makeRepo, setting, writeJstFiles, type TestRepo } from '../../../test/support/repo.js';
import { codehostRepo, servesRemote } from '../src/codehost/index.js';
import { JstError, loadConfig } from '../src/config/index.js';
import { parseRemote } from '../src/git/index.js';

const remote = (url: string) => {
  const r = parseRemote(url);
  if (r === null) throw new Error(`not a remote: ${url}`);
  return r;
};

describe('ARCHITECTURE §11, §14: which origin names the code host repository', () => {
  it('api.github.com serves github.com in the https and ssh forms, and no other host', () => {
    expect(servesRemote('https://api.github.com', remote('https://github.com/acme/widgets.git'))).toBe(true);
    expect(servesRemote('https://api.github.com', remote('git@github.com:acme/widgets.git'))).toBe(true);
    expect(servesRemote('https://api.github.com', remote('ssh://git@github.com/acme/widgets'))).toBe(true);
    expect(servesRemote('https://api.github.com', remote('https://gitlab.com/acme/widgets.git'))).toBe(false);
  });

  it('an enterprise server (the embedded code host among them) serves origins on its own host only', () => {
    expect(servesRemote('https://ghe.example.com/api/v3', remote('https://ghe.example.com/acme/widgets.git'))).toBe(true);
    expect(servesRemote('https://ghe.example.com/api/v3', remote('git@ghe.example.com:acme/widgets.git'))).toBe(true);
    expect(servesRemote('https://ghe.example.com/api/v3', remote('https://github.com/acme/widgets.git'))).toBe(false);
    expect(servesRemote('http://127.0.0.1:8080/api/v3', remote('http://127.0.0.1:8080/demo/app.git'))).toBe(true);
  });

  describe('codehostRepo', () => {
    let repos: TestRepo[] = [];
    afterEach(() => {
      for (const r of repos) r.cleanup();
      repos = [];
    });
    const project = (originUrl: string, api: string, repo?: string) => {
      const r = makeRepo({ originUrl });
      repos.push(r);
      writeJstFiles(r.repo, {
        trackerUrl: 'http://127.0.0.1:1',
        codehostUrl: api,
        worktreesDir: r.worktreesDir,
        local: (lines) => setting('CODEHOST_PAT_TOKEN', CODEHOST_TOKEN)(repo === undefined ? lines : setting('CODEHOST_REPO', repo)(lines)),
      });
      return { cwd: r.repo, config: loadConfig({ cwd: r.repo, env: {} }) };
    };
    const refusal = async (p: Promise<unknown>): Promise<JstError> => {
      try {
        await p;
      } catch (e) {
        if (e instanceof JstError) return e;
        throw e;
      }
      throw new Error('expected a JstError');
    };

    it('reads owner/name from an origin on the code host of CODEHOST_API_URL, with no CODEHOST_REPO', async () => {
      const p = project('https://ghe.example.com/acme/widgets.git', 'https://ghe.example.com/api/v3');
      expect(await codehostRepo(p.config, p.cwd, FIXTURE_GIT_ENV)).toEqual({ owner: 'acme', name: 'widgets' });
    });

    it('an origin on another host needs CODEHOST_REPO: exit 2 naming the setting and the owner/name to set', async () => {
      const p = project('https://mirror.example.org/acme/widgets.git', 'https://ghe.example.com/api/v3');
      const e = await refusal(codehostRepo(p.config, p.cwd, FIXTURE_GIT_ENV));
      expect(e.exitCode).toBe(2);
      expect(e.message).toContain('CODEHOST_REPO=acme/widgets');
      expect(e.message).toContain('mirror.example.org');
    });

    it('CODEHOST_REPO wins over origin', async () => {
      const p = project('https://mirror.example.org/acme/widgets.git', 'https://ghe.example.com/api/v3', 'team/app');
      expect(await codehostRepo(p.config, p.cwd, FIXTURE_GIT_ENV)).toEqual({ owner: 'team', name: 'app' });
    });
  });
});
