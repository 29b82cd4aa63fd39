import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

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
  }, 300_000);
});
