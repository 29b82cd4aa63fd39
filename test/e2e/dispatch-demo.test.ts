import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { linesOf, runBash, startPrinted } from '../support/printed.js';

const root = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');

describe('README "The agent loop": the demo\'s offline variant with scripted agents', () => {
  const dir = mkdtempSync(join(tmpdir(), 'jst-demo-dispatch-'));
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("ARCHITECTURE §15: npm start -- --once --dispatch brings every sub-task to approved, waiting for the person's jst done", async () => {
    const { code, out, err } = await new Promise<{ code: number | null; out: string; err: string }>((done) => {
      const child = spawn(process.execPath, [join(root, 'scripts', 'demo.mjs'), '--once', '--dispatch', '--dir', dir], {
        cwd: root,
        env: { ...process.env, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let o = '';
      let e = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => {
        o += c;
      });
      child.stderr.setEncoding('utf8').on('data', (c: string) => {
        e += c;
      });
      child.on('close', (c) => done({ code: c, out: o, err: e }));
    });
    expect(code, err.slice(-3000)).toBe(0);
    expect(out).toContain('Every sub-task is approved and waits for you (dispatch never runs done)');
    expect(out.match(/&& jst done DEMO-\d+ --yes DEMO-\d+$/gm)).toHaveLength(3);
    expect(err).toMatch(/^→ start DEMO-\d+: executor's agent, round 1/m);
    expect(err).toMatch(/^→ start DEMO-\d+: reviewer's agent, round 4/m);
    const runs = readdirSync(join(dir, 'runs'));
    expect(readdirSync(join(dir, 'runs', runs[0]!, 'repo', '.jst', 'dispatch')).length).toBe(12);

    // The ending works as pasted: the server has stopped (--once), so the lines that start it again
    // come first; run in one fresh shell, then the reviewer's lines in another, every sub-task is Done.
    const fresh = () => ({ PATH: process.env.PATH ?? '', HOME: mkdtempSync(join(tmpdir(), 'jst-home-')), NO_COLOR: '1' });
    const restart = /^Start it again first[^\n]*\n((?: {2}[^\n]+\n)+)/m.exec(out)?.[1];
    expect(restart, out).toBeDefined();
    const block = /^Then, as the reviewer, paste these lines[^\n]*\n((?: {2}[^\n]+\n)+)/m.exec(out)?.[1];
    expect(block, out).toBeDefined();
    const server = await startPrinted(linesOf(restart!), fresh());
    try {
      const commands = linesOf(block!);
      const script = commands.map((c, i) => `${c} || { echo "line ${i + 1} failed" >&2; exit 1; }`).join('\n');
      const r = await runBash(script, fresh());
      expect(r.status, r.stderr.slice(-3000)).toBe(0);
      const cred = Object.fromEntries(
        readFileSync(join(dir, 'demo.env'), 'utf8')
          .split('\n')
          .filter((l) => l.includes('='))
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      );
      const auth = `Basic ${Buffer.from(`${cred.DEMO_REVIEWER_EMAIL}:${cred.DEMO_REVIEWER_TOKEN}`).toString('base64')}`;
      for (const key of out.match(/(?<=jst done )DEMO-\d+/g)!) {
        const res = await fetch(`${server.url}/rest/api/3/issue/${key}?fields=status`, { headers: { Authorization: auth } });
        expect(((await res.json()) as { fields: { status: { name: string } } }).fields.status.name, key).toBe('Done');
      }
    } finally {
      await server.stop();
    }
  }, 300_000);
});
