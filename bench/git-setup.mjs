// The code host's repository setup and ref reads, against a process start in the same run (the
// floor of any git work done by a process per question). Run: npm run build && node bench/git-setup.mjs
// BEFORE=/path/to/other/checkout times that build's BareRepos beside this one's, turn by turn.
//   ensure()     a new bare repository made whole (git init, its settings, the hook, the rename)
//   branchSha()  a branch's tip (2026-11-28 on: asked of the repository's kept cat-file --batch-check)
//   floor        spawn of /bin/true from this process, and `git --version`
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const RUNS = Number(process.env.RUNS ?? 30);
const builds = [['ours', fileURLToPath(new URL('..', import.meta.url))], ...(process.env.BEFORE ? [['before', process.env.BEFORE]] : [])];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const dir = mkdtempSync(join(tmpdir(), 'jst-bench-git-setup-'));
const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

const subjects = [];
for (const [label, root] of builds) {
  const { BareRepos } = await import(join(root, 'packages/tracker/dist/codehost/git/repos.js'));
  const repos = new BareRepos(join(dir, label));
  await repos.ensure('o', 'tips', 'main');
  const work = join(dir, `${label}-work`);
  execFileSync('git', ['init', '-q', work], { env });
  execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@b.test', 'commit', '-q', '--allow-empty', '-m', 'x'], { cwd: work, env });
  execFileSync('git', ['push', '-q', repos.dir('o', 'tips'), 'HEAD:refs/heads/main'], { cwd: work, env });
  subjects.push({ label, repos, made: 0, ensure: [], tip: [] });
}
const spawnMs = [];
const gitMs = [];
for (let i = 0; i < RUNS; i++) {
  for (const s of subjects) {
    let t = performance.now();
    await s.repos.ensure('o', `r${++s.made}`, 'main');
    s.ensure.push(performance.now() - t);
    t = performance.now();
    const sha = await s.repos.branchSha('o', 'tips', 'main');
    s.tip.push(performance.now() - t);
    if (!/^[0-9a-f]{40}$/.test(sha ?? '')) throw new Error(`branchSha answered ${sha}`);
  }
  let t = performance.now();
  spawnSync('/bin/true');
  spawnMs.push(performance.now() - t);
  t = performance.now();
  spawnSync('git', ['--version'], { env });
  gitMs.push(performance.now() - t);
}
const floor = median(gitMs);
console.log(`${RUNS} rounds, medians; floor: spawn /bin/true ${median(spawnMs).toFixed(2)} ms, git --version ${floor.toFixed(2)} ms`);
for (const s of subjects) {
  const e = median(s.ensure);
  const b = median(s.tip);
  console.log(
    `${s.label}: ensure() ${e.toFixed(2)} ms (${(e / floor).toFixed(2)}× a git process), branchSha() ${b.toFixed(2)} ms (${(b / floor).toFixed(2)}×)`,
  );
  s.repos.close?.();
}
rmSync(dir, { recursive: true, force: true });
