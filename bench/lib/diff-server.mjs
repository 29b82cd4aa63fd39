// A jst-tracker of one build (the dist folder given) in a process of its own, so the bench can read
// its CPU time from /proc: `node bench/lib/diff-server.mjs <packages/tracker/dist/index.js> <dir> <token>`.
// Prints `READY <url>` when it listens; stops on SIGTERM.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [dist, dir, token] = process.argv.slice(2);
const { parseSeed, startServer } = await import(pathToFileURL(dist).href);
const email = 'bench@bench.test';
const seed = parseSeed(
  {
    sites: [
      {
        host: 'bench.atlassian.net',
        users: [{ email, displayName: 'Bench', tokens: [{ token: 'bench-diff-tracker-token' }] }],
        projects: [{ key: 'BEN', name: 'Bench', lead: email, workflow: 'kanban', members: [{ email, role: 'admin' }] }],
      },
    ],
    codehost: { users: [{ login: 'bench', tokens: [{ token }] }], repos: [{ owner: 'bench', name: 'app', defaultBranch: 'main' }] },
  },
  'bench seed',
);
const server = await startServer({ port: 0, dataDir: join(dir, 'data'), repos: join(dir, 'repos'), seed });
process.stdout.write(`READY ${server.url}\n`);
process.on('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
