// `npm test`'s static checks, in two lanes side by side: ESLint in one, the module graph's rules
// (lint:deps), Prettier and the tests' type check one after another in the other. One after another, the
// four left a CPU idle much of the time. Measured on 2026-11-28 on a 2-CPU machine: in a row 3 + 60 + 14
// + 19 = 96 s; all four at once 81 s; these two lanes 83 s, the same within noise with less memory at
// once. ESLint's typed run takes 55 s alone and already uses more than one CPU (75 s of user time), so
// it sets the floor. Each check's output is printed whole when it ends, under its name, so two checks'
// lines never interleave. Every check runs even when one fails; the exit code is then 1, and the
// failures are named again at the end.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The lanes of checks, as `npm run` scripts (package.json says what each runs). */
const LANES = [['lint'], ['lint:deps', 'format:check', 'typecheck:test']];

function run(name) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', name], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
    const output = [];
    child.stdout.on('data', (d) => output.push(d));
    child.stderr.on('data', (d) => output.push(d));
    let finished = false;
    const done = (code, error) => {
      // A process that cannot start reports 'error' and may report 'close' too: once is enough.
      if (finished) return;
      finished = true;
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const text = Buffer.concat(output).toString('utf8').trimEnd();
      const verdict = code === 0 ? 'ok' : `FAILED (${error ?? `exit code ${code}`})`;
      process.stdout.write(`${name}: ${verdict}, ${seconds} s\n${text ? `${text}\n` : ''}`);
      resolve(code === 0);
    };
    child.on('error', (e) => done(1, e.message));
    child.on('close', (code, signal) => done(code ?? 1, signal ? `killed by ${signal}` : undefined));
  });
}

const failed = [];
await Promise.all(
  LANES.map(async (lane) => {
    for (const name of lane) if (!(await run(name))) failed.push(name);
  }),
);
if (failed.length > 0) {
  process.stderr.write(`checks failed: ${failed.join(', ')} (run each with npm run <name> to see it alone)\n`);
  process.exit(1);
}
