import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gated, NOT_STARTED, startAgent } from '../src/dispatch/agents.js';

/**
 * ARCHITECTURE §15: never two agents for one issue and round. An agent's command runs only after
 * dispatch has journalled its pid and said go: a dispatch killed in between leaves a shell that
 * exits without running it, never an agent the journal cannot see.
 */
const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) fs.rmSync(r, { recursive: true, force: true });
});
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'jst-agent-gate-'));
  roots.push(d);
  return d;
};

describe.skipIf(process.platform === 'win32')('ARCHITECTURE §15: the agent waits for dispatch’s go', () => {
  it('standard input ending before the go (dispatch gone): the shell exits NOT_STARTED and the command never runs', () => {
    const dir = tmp();
    const r = spawnSync('/bin/sh', ['-c', gated(`touch "${dir}/ran"`)], { input: '' });
    expect(r.status).toBe(NOT_STARTED);
    expect(fs.existsSync(path.join(dir, 'ran'))).toBe(false);
  });

  it('after the go the command runs, its standard input /dev/null as before', () => {
    const dir = tmp();
    const r = spawnSync('/bin/sh', ['-c', gated(`cat > "${dir}/stdin"; touch "${dir}/ran"`)], { input: 'go\nmore input that is not the agent’s\n' });
    expect(r.status).toBe(0);
    expect(fs.existsSync(path.join(dir, 'ran'))).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'stdin'), 'utf8')).toBe('');
  });

  it('startAgent runs nothing until go(), then the command, its output in the log', async () => {
    const dir = tmp();
    const log = path.join(dir, 'agent.log');
    const agent = startAgent({ command: `echo ran; touch "${dir}/ran"`, cwd: dir, env: { PATH: process.env.PATH }, log, header: '=== header' });
    expect(agent.pid).not.toBeNull();
    await new Promise((r) => setTimeout(r, 300));
    expect(fs.existsSync(path.join(dir, 'ran'))).toBe(false);
    agent.go();
    expect(await agent.exit).toBe(0);
    expect(fs.existsSync(path.join(dir, 'ran'))).toBe(true);
    expect(fs.readFileSync(log, 'utf8')).toBe('=== header\nran\n');
  });
});
