// `npm run screenshot`: retakes docs/board.png, the board as `npm start` leaves it. Runs the demo
// in a throw-away folder (without --once, so the tracker stays up), signs in as the demo assigner
// in Debian's Chromium (scripts/chromium.mjs), saves the page, and stops the demo.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './chromium.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'docs', 'board.png');
const dir = mkdtempSync(join(tmpdir(), 'jst-board-shot-'));
const demo = spawn(process.execPath, [join(root, 'scripts/demo.mjs'), '--dir', dir], { stdio: ['ignore', 'pipe', 'inherit'] });
const stopped = new Promise((done) => demo.once('exit', done));
try {
  const board = await new Promise((resolve, reject) => {
    let text = '';
    demo.stdout.on('data', (d) => {
      text += d.toString();
      const found = /^ {2}board +(http:\/\/\S+)/m.exec(text)?.[1];
      if (found) resolve(found);
    });
    demo.once('exit', (code) => reject(new Error(`the demo exited with ${code} before printing the board's address`)));
  });
  const env = Object.fromEntries(
    readFileSync(join(dir, 'demo.env'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  const browser = await launchChromium({ username: env.DEMO_ASSIGNER_EMAIL, password: env.DEMO_ASSIGNER_TOKEN });
  try {
    const page = await browser.context.newPage();
    const res = await page.goto(board);
    if (res?.status() !== 200) throw new Error(`the board answered ${res?.status()}`);
    await page.screenshot({ path: out, fullPage: true });
  } finally {
    await browser.close();
  }
  process.stderr.write(`wrote ${out}\n`);
} finally {
  if (demo.exitCode === null) demo.kill('SIGTERM');
  await stopped;
  rmSync(dir, { recursive: true, force: true });
}
