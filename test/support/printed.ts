import { spawn } from 'node:child_process';

/** The lines of a printed block, without their two-space indent. */
export const linesOf = (block: string): string[] =>
  block
    .split('\n')
    .filter(Boolean)
    .map((l) => l.slice(2));

/** Printed lines that start a server, run by bash in a process group of its own until its ready line. */
export async function startPrinted(lines: string[], env: Record<string, string>): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn('bash', ['-c', lines.join('\n')], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      process.kill(-child.pid!, 'SIGTERM');
      await new Promise((resolve) => child.once('close', resolve));
    }
  };
  let out = '';
  let err = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      const m = /jst-tracker listening on (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      err += c;
    });
    child.on('close', (code) => reject(new Error(`the printed server lines exited ${code}:\n${out}\n${err.slice(-3000)}`)));
  });
  return { url, stop };
}
