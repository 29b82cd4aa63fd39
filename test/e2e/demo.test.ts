import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const NEXT = /^ {2}(cd \S+ && npx --prefix \S+ jst start)$/m;

describe('npm start (ARCHITECTURE §3): the main job on the embedded default', () => {
  it('--once: tracker, demo repository, .jst/, a multistep plan of three sub-tasks, the report and where everything is', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jst-demo-'));
    try {
      const r = spawnSync(process.execPath, [join(root, 'scripts/demo.mjs'), '--once', '--dir', dir], { encoding: 'utf8', timeout: 60_000 });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout.split('\n')[0]).toBe('Assignment report');
      expect(r.stdout.match(/^cd .*worktree-DEMO-\d+ && jst start$/gm)).toHaveLength(4);
      expect(r.stdout).toContain('Scope decision: multistep, parent DEMO-');
      for (const label of ['tracker', 'tracker data', 'credentials', 'repository', 'worktrees']) expect(r.stdout).toMatch(new RegExp(`^ {2}${label} +\\S`, 'm'));
      // The executor's next command comes last, in a form that runs without jst on PATH.
      expect(r.stdout).toMatch(/Next, the executor[^\n]*\n {2}cd \S+ && npx --prefix \S+ jst start\n/);
      expect(r.stdout.match(NEXT)?.[1]).toContain('worktree-DEMO-2 && npx --prefix');
      // Demo tokens live in a 0600 file and never appear in the output.
      expect(statSync(join(dir, 'demo.env')).mode & 0o777).toBe(0o600);
      expect(r.stdout + r.stderr).not.toMatch(/demo-(assigner|executor|reviewer)-[0-9a-f]{24}/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the executor\'s next command runs as printed, against the tracker the demo keeps running', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jst-demo-'));
    const demo = spawn(process.execPath, [join(root, 'scripts/demo.mjs'), '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let out = '';
      await new Promise<void>((resolve, reject) => {
        demo.stdout.setEncoding('utf8').on('data', (c: string) => { out += c; if (out.includes('keeps running')) resolve(); });
        demo.on('close', (code) => reject(new Error(`demo exited ${code}: ${out}`)));
      });
      const command = out.match(NEXT)?.[1];
      expect(command).toBeDefined();
      // A fresh shell, with jst not on PATH: exactly what a person pastes.
      const started = execFileSync('sh', ['-c', command!], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: dir, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
      expect(started).toMatch(/^DEMO-2 {2}Serialise report rows to CSV$/m);
      expect(started).toContain('Status: In Progress (was To Do)');
    } finally {
      demo.kill('SIGTERM');
      await new Promise((r) => demo.once('close', r));
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
