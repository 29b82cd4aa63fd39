// `npm run screenshot:review`: retakes docs/review-page.png, a pull request's review page on the
// embedded code host (docs/codehost.md, "Review pages"). Starts a jst-tracker in a throw-away
// folder, pushes a branch with git, opens a pull request and reviews it over the REST interface,
// then signs in as a writer in Debian's Chromium (scripts/chromium.mjs) and saves the page.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSeed, startServer } from '../packages/tracker/dist/index.js';
import { launchChromium } from './chromium.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'docs', 'review-page.png');
const dir = mkdtempSync(join(tmpdir(), 'jst-review-shot-'));
const TOKENS = { ada: 'shot-ada-token-0123456789', rey: 'shot-rey-token-0123456789' };
const seed = {
  sites: [
    { host: 'localhost', users: [{ email: 'ada@example.test', displayName: 'Ada Author', tokens: [{ token: 'shot-tracker-token-0123' }] }], projects: [] },
  ],
  codehost: {
    users: [
      { login: 'ada', name: 'Ada Author', tokens: [{ token: TOKENS.ada }] },
      { login: 'rey', name: 'Rey Reviewer', tokens: [{ token: TOKENS.rey }] },
    ],
    repos: [
      {
        owner: 'demo',
        name: 'app',
        defaultBranch: 'main',
        collaborators: [
          { login: 'ada', permission: 'write' },
          { login: 'rey', permission: 'admin' },
        ],
      },
    ],
  },
};

const git = (cwd, ...args) =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Ada Author',
      GIT_AUTHOR_EMAIL: 'ada@example.test',
      GIT_COMMITTER_NAME: 'Ada Author',
      GIT_COMMITTER_EMAIL: 'ada@example.test',
    },
  }).trim();
const write = (work, files) => {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(work, file)), { recursive: true });
    writeFileSync(join(work, file), text);
  }
};

const server = await startServer({ port: 0, dataDir: join(dir, 'data'), repos: join(dir, 'repos'), seed: parseSeed(seed) });
try {
  const api = async (token, method, path, body) => {
    const res = await fetch(`${server.url}/api/v3${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body && JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const work = join(dir, 'work');
  git(dir, 'clone', '--quiet', join(dir, 'repos', 'demo', 'app.git'), work);
  git(work, 'checkout', '--quiet', '-b', 'main');
  write(work, {
    'README.md': '# app\n\nA small service.\n',
    'src/greet.js': 'export function greet(name) {\n  return "Hello " + name;\n}\n',
  });
  git(work, 'add', '-A');
  git(work, 'commit', '--quiet', '-m', 'Initial commit');
  git(work, 'push', '--quiet', 'origin', 'main');
  git(work, 'checkout', '--quiet', '-b', 'feature/DEMO-2-greeting');
  write(work, {
    'src/greet.js':
      'export function greet(name, { shout = false } = {}) {\n  const text = `Hello, ${name}!`;\n  return shout ? text.toUpperCase() : text;\n}\n',
    'test/greet.test.js':
      "import { greet } from '../src/greet.js';\n\nif (greet('Ada') !== 'Hello, Ada!') throw new Error('greet');\nif (greet('Ada', { shout: true }) !== 'HELLO, ADA!') throw new Error('shout');\n",
  });
  git(work, 'add', '-A');
  git(work, 'commit', '--quiet', '-m', 'DEMO-2: greet with punctuation, and shout on request');
  write(work, { 'README.md': '# app\n\nA small service.\n\n`greet(name, { shout })` says hello.\n' });
  git(work, 'commit', '--quiet', '-am', 'DEMO-2: document greet');
  git(work, 'push', '--quiet', 'origin', 'feature/DEMO-2-greeting');
  const pull = await api(TOKENS.ada, 'POST', '/repos/demo/app/pulls', {
    title: 'DEMO-2: a friendlier greeting',
    head: 'feature/DEMO-2-greeting',
    base: 'main',
    body: 'Adds punctuation to the greeting and an option to shout it.\n\nPart of DEMO-1.',
  });
  await api(TOKENS.rey, 'POST', `/repos/demo/app/pulls/${pull.number}/reviews`, { event: 'APPROVE', body: 'Reads well; the test covers both forms.' });
  await api(TOKENS.ada, 'POST', `/repos/demo/app/issues/${pull.number}/comments`, { body: 'Thanks! Merging once CI is green.' });
  const browser = await launchChromium({ username: 'x-access-token', password: TOKENS.rey });
  try {
    const page = await browser.context.newPage();
    const res = await page.goto(`${server.url}/demo/app/pull/${pull.number}`);
    if (res?.status() !== 200) throw new Error(`the review page answered ${res?.status()}`);
    await page.screenshot({ path: out, fullPage: true });
  } finally {
    await browser.close();
  }
  process.stderr.write(`wrote ${out}\n`);
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
