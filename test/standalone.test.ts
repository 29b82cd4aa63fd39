import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * A plain `git clone` of the project must build, test and run (issue 14 item 8): no code may
 * read a sibling folder beside the checkout (the input the project was written from). Comments and prose may name it; code may not.
 */
describe('a plain clone stands alone', () => {
  it('no tracked source, script or config reads outside the repository', () => {
    const grep = spawnSync(
      'git',
      ['grep', '-n', '-I', '-E', String.raw`\.\./shared|shared/(jira-openapi|spec)`, '--', '*.ts', '*.mts', '*.mjs', '*.cjs', '*.js', '*.json', '*.sh', '.ci'],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(grep.status === 0 || grep.status === 1, grep.stderr).toBe(true); // 1 = no match
    const out = grep.stdout;
    const code = out.split('\n').filter((l) => l && !/^[^:]+:\d+:\s*(\/\/|\*|\/\*|#)/.test(l) && !l.startsWith('test/standalone.test.ts'));
    expect(code).toEqual([]);
  });

  it('the vendored OpenAPI subset the tests validate against is in the repository', () => {
    expect(existsSync(`${ROOT}/spec/jira-openapi/jira-cloud-v3-subset.json`)).toBe(true);
    expect(existsSync(`${ROOT}/spec/jira-openapi/SOURCE.md`)).toBe(true);
  });
});
