// `npm start -- --dispatch`: after the plan, `jst dispatch` rounds with two scripted agents in place of
// models (README "The agent loop"): the executor's runs jst start, commits a file, jst note, jst pr; the
// reviewer's asks for changes on its first review of an issue and approves on its second. Offline, on
// the demo's own tracker and code host; stops when every sub-task is approved and waits for the person.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';

const q = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;

/** Writes the two agent scripts under `dir`; returns their paths. */
export function writeAgents(dir, jstBin) {
  mkdirSync(join(dir, 'state'), { recursive: true });
  const head = ['#!/bin/sh', 'set -e', `jst() { ${q(process.execPath)} ${q(jstBin)} "$@"; }`, `STATE=${q(join(dir, 'state'))}`];
  const write = (name, body) => {
    const file = join(dir, name);
    writeFileSync(file, [...head, ...body].join('\n') + '\n');
    chmodSync(file, 0o755);
    return file;
  };
  return {
    executor: write('executor.sh', [
      "# The executor: its issue is $JST_ISSUE_KEY, its folder the issue's worktree; it stops after jst pr.",
      'jst start',
      'f="$JST_ISSUE_KEY-round-$JST_DISPATCH_ROUND.txt"',
      'echo "work of round $JST_DISPATCH_ROUND" > "$f" && git add "$f" && git commit -qm "$JST_ISSUE_KEY: $f"',
      'jst note "committed $f"',
      'jst pr',
    ]),
    reviewer: write('reviewer.sh', [
      '# The reviewer: changes requested on its first review of an issue, approval on the second; it stops after the verdict.',
      'n=$(cat "$STATE/$JST_ISSUE_KEY" 2>/dev/null || echo 0); n=$((n + 1)); echo "$n" > "$STATE/$JST_ISSUE_KEY"',
      'jst review "$JST_ISSUE_KEY"',
      'if [ "$n" -eq 1 ]; then jst review "$JST_ISSUE_KEY" --request-changes --summary "Add a test for it"',
      'else jst review "$JST_ISSUE_KEY" --approve --summary "Tested; thanks"; fi',
    ]),
  };
}

/** `jst dispatch --once --json` rounds until every key in `keys` waits for the person; returns the last round's document. */
export async function dispatchRounds({ repo, jstBin, agents, keys, say, maxRounds = 12 }) {
  let doc = { waiting: [] };
  // Each agent runs in a bubblewrap sandbox with its role's credentials only (docs/dispatch.md); where
  // bubblewrap cannot run (macOS, Windows, a Linux without it) the demo says so and runs them without.
  const sandboxed = spawnSync('bwrap', ['--ro-bind', '/', '/', '--', 'true']).status === 0;
  if (!sandboxed) say("\n(bubblewrap is not available here: the agents run with AGENT_SANDBOX=none, holding every role's credentials)");
  for (let i = 1; i <= maxRounds; i += 1) {
    say(`\n$ AGENT_EXECUTOR_CMD=${agents.executor} AGENT_REVIEWER_CMD=${agents.reviewer} jst dispatch --once --json   (round ${i})`);
    const { code, stdout } = await new Promise((done) => {
      const child = spawn(process.execPath, [jstBin, 'dispatch', '--once', '--json'], {
        cwd: repo,
        stdio: ['ignore', 'pipe', 'inherit'],
        env: {
          ...process.env,
          FORCE_COLOR: undefined,
          AGENT_EXECUTOR_CMD: agents.executor,
          AGENT_REVIEWER_CMD: agents.reviewer,
          ...(sandboxed ? {} : { AGENT_SANDBOX: 'none' }),
        },
      });
      let out = '';
      child.stdout.on('data', (c) => {
        out += c;
      });
      child.on('close', (c) => done({ code: c, stdout: out }));
    });
    if (code !== 0) throw new Error(`jst dispatch --once exited with ${code} (the agents' logs: ${join(repo, '.jst', 'dispatch')})`);
    doc = JSON.parse(stdout.trim().split('\n').at(-1));
    if (keys.every((k) => doc.waiting.some((w) => w.command === `jst done ${k} --yes ${k}`))) return doc;
  }
  throw new Error(`after ${maxRounds} rounds not every sub-task is approved (the agents' logs: ${join(repo, '.jst', 'dispatch')})`);
}
