import { spawn } from 'node:child_process';
import { JST_BIN } from './jst-cli.js';

/**
 * Runs jst on a real terminal: util-linux `script` gives it a pseudo-terminal, and each answer is
 * typed only once its question is on the screen, as a person would. An answer of `\x03` is a
 * Ctrl-C (the terminal turns it into SIGINT); an answer is followed by Enter otherwise.
 */
export function onTerminal(
  cwd: string,
  args: string[],
  dialogue: [RegExp, string][],
  env: Record<string, string | undefined> = {},
): Promise<{ code: number; screen: string }> {
  return new Promise((resolve, reject) => {
    const cmd = [process.execPath, JST_BIN, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
    // An env value of undefined removes the variable (NO_COLOR: undefined for a colour terminal).
    const childEnv = Object.fromEntries(Object.entries({ ...process.env, NO_COLOR: '1', TERM: 'dumb', ...env }).filter(([, v]) => v !== undefined));
    const child = spawn('script', ['-qec', cmd, '/dev/null'], { cwd, env: childEnv });
    let screen = '';
    let next = 0;
    let answeredAt = 0;
    const onData = (c: Buffer) => {
      screen += c.toString('utf8');
      const step = dialogue[next];
      if (step && step[0].test(screen.slice(answeredAt).replace(/\r/g, ''))) {
        answeredAt = screen.length;
        next++;
        child.stdin.write(step[1] === '\x03' ? step[1] : `${step[1]}\n`);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, screen }));
    setTimeout(() => child.kill('SIGKILL'), 30_000).unref();
  });
}
