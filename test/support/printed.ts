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

/** A printed block run by bash to its end, without blocking the test's event loop (a spawnSync of minutes starves the test runner). */
export function runBash(
  script: string,
  env: Record<string, string | undefined>,
  timeoutMs = 180_000,
  cwd?: string,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      stdout += c;
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      stderr += c;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}
