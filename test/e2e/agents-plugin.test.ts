import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { JST_BIN } from '../support/jst-cli.js';
import { startMcp } from '../support/mcp.js';
import { makeRepo, type TestRepo } from '../support/repo.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const AGENTS = join(ROOT, 'agents');
const ROLES = ['assigner', 'executor', 'reviewer'] as const;
const json = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, any>;
/** A Claude Code plugin / skill name: lowercase letters, digits and hyphens. */
const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

function frontMatter(file: string): { data: Record<string, unknown>; body: string } {
  const text = readFileSync(file, 'utf8');
  const m = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  if (!m) throw new Error(`${file}: no front matter between --- lines at the top`);
  return { data: parse(m[1]!) as Record<string, unknown>, body: m[2]! };
}

describe('the skills plugin in agents/ (ARCHITECTURE §13)', () => {
  it("plugin.json has the manifest's keys: a kebab-case name, a version, a description", () => {
    const p = json(join(AGENTS, '.claude-plugin', 'plugin.json'));
    expect(p.name).toMatch(NAME);
    expect(p.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(typeof p.description).toBe('string');
    expect(typeof p.author?.name).toBe('string');
  });

  for (const [where, file, source] of [
    ['agents/ as a marketplace of its own', join(AGENTS, '.claude-plugin', 'marketplace.json'), './'],
    ['the repository as a marketplace (/plugin marketplace add <repo>)', join(ROOT, '.claude-plugin', 'marketplace.json'), './agents'],
  ] as const) {
    it(`marketplace.json, ${where}: name, owner.name, plugins[] whose source holds the plugin of that name`, () => {
      const m = json(file);
      expect(m.name).toMatch(NAME);
      expect(typeof m.owner?.name).toBe('string');
      expect(m.plugins).toHaveLength(1);
      const [entry] = m.plugins as { name: string; source: string }[];
      expect(entry!.source).toBe(source);
      const pluginDir = join(file, '..', '..', entry!.source);
      expect(json(join(pluginDir, '.claude-plugin', 'plugin.json')).name).toBe(entry!.name);
    });
  }

  it('one SKILL.md per role; its front matter parses as YAML with name and description; the body names tools and never the REST interface', () => {
    expect(readdirSync(join(AGENTS, 'skills')).sort()).toEqual([...ROLES]);
    for (const role of ROLES) {
      const { data, body } = frontMatter(join(AGENTS, 'skills', role, 'SKILL.md'));
      expect(data.name).toBe(role);
      expect(typeof data.description).toBe('string');
      expect((data.description as string).length).toBeGreaterThan(40);
      for (const heading of ['## Order', '## Ask the person', '## Never']) expect(body).toContain(heading);
      expect(body).toContain('`healthcheck`');
      expect(body).not.toMatch(/\/rest\/api|curl |GET \/|POST \//);
    }
  });

  describe('.mcp.json starts the servers', () => {
    let repo: TestRepo;
    let bin: string;
    beforeAll(() => {
      repo = makeRepo();
      // `jst` on PATH, as the README installs it (npm link): the test runs exactly the command the file names.
      bin = mkdtempSync(join(tmpdir(), 'jst-bin-'));
      symlinkSync(JST_BIN, join(bin, 'jst'));
      expect(statSync(JST_BIN).mode & 0o111).not.toBe(0);
    });
    afterAll(() => {
      repo?.cleanup();
      if (bin) rmSync(bin, { recursive: true, force: true });
    });

    it('three servers, one per role, each `jst mcp --role <role>`', () => {
      const servers = json(join(AGENTS, '.mcp.json')).mcpServers as Record<string, { command: string; args: string[] }>;
      expect(Object.keys(servers).sort()).toEqual(ROLES.map((r) => `jst-${r}`));
      for (const role of ROLES) expect(servers[`jst-${role}`]).toEqual({ command: 'jst', args: ['mcp', '--role', role] });
    });

    for (const role of ROLES) {
      it(`jst-${role}: the exact command answers initialize and tools/list`, async () => {
        const { command, args } = json(join(AGENTS, '.mcp.json')).mcpServers[`jst-${role}`] as { command: string; args: string[] };
        const s = await startMcp(role, { cwd: repo.repo, command, args, env: { PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` } });
        try {
          expect(s.client.getServerVersion()?.name).toBe(`jst-${role}`);
          const { tools } = await s.client.listTools();
          expect(tools.map((t) => t.name)).toContain('issue_view');
        } finally {
          await s.close();
        }
      });
    }
  });

  it('the README says how to install in Claude Code and the one line for other MCP clients', () => {
    const readme = readFileSync(join(AGENTS, 'README.md'), 'utf8');
    expect(readme).toContain('/plugin marketplace add');
    expect(readme).toContain('/plugin install jst@jst');
    expect(readme).toContain('codex mcp add jst-executor -- jst mcp --role executor');
    expect(existsSync(join(AGENTS, '.mcp.json'))).toBe(true);
  });
});
