import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseSeed } from './domain/seed.js';
import { startServer } from './server.js';

/**
 * `npm start`: the tracker on the embedded default (SQLite) with a demo site, and how to call it.
 * Demo tokens are generated once per data folder and kept in a 0600 env file; they are never
 * printed — the curl lines read them from that file.
 */
const ROLES = ['assigner', 'executor', 'reviewer'] as const;

function demoCredentials(file: string): Record<string, string> {
  if (existsSync(file)) {
    return Object.fromEntries(readFileSync(file, 'utf8').split('\n').filter((l) => l.includes('=')).map((l) => {
      const i = l.indexOf('=');
      return [l.slice(0, i), l.slice(i + 1)];
    }));
  }
  const values: Record<string, string> = {};
  for (const role of ROLES) {
    values[`DEMO_${role.toUpperCase()}_EMAIL`] = `${role}@demo.test`;
    values[`DEMO_${role.toUpperCase()}_TOKEN`] = `demo-${role}-${randomBytes(12).toString('hex')}`;
  }
  writeFileSync(file, Object.entries(values).map(([k, v]) => `${k}=${v}`).join('\n') + '\n', { mode: 0o600 });
  chmodSync(file, 0o600);
  return values;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { once: { type: 'boolean' }, data: { type: 'string' }, port: { type: 'string' } } });
  const dataDir = resolve(values.data ?? join('.jst-tracker', 'demo'));
  mkdirSync(dataDir, { recursive: true });
  const envFile = join(dataDir, 'demo.env');
  const cred = demoCredentials(envFile);
  const seed = parseSeed({
    sites: [{
      host: 'demo.atlassian.net',
      users: ROLES.map((role) => ({
        email: cred[`DEMO_${role.toUpperCase()}_EMAIL`],
        displayName: `Demo ${role[0]!.toUpperCase()}${role.slice(1)}`,
        tokens: [{ token: cred[`DEMO_${role.toUpperCase()}_TOKEN`] }],
      })),
      projects: [{
        key: 'DEMO', name: 'Demo project', lead: cred.DEMO_ASSIGNER_EMAIL, workflow: 'kanban',
        members: [
          { email: cred.DEMO_ASSIGNER_EMAIL, role: 'admin' },
          { email: cred.DEMO_EXECUTOR_EMAIL, role: 'member' },
          { email: cred.DEMO_REVIEWER_EMAIL, role: 'member' },
        ],
      }],
    }],
  }, 'demo seed');
  const server = await startServer({ port: Number(values.port ?? 0), dataDir, seed, logLevel: 'warn' });
  const cloudId = (await (await fetch(`${server.url}/_edge/tenant_info`)).json()) as { cloudId: string };
  const api = `${server.url}/ex/jira/${cloudId.cloudId}/rest/api/3`;
  const auth = '-u "$DEMO_ASSIGNER_EMAIL:$DEMO_ASSIGNER_TOKEN"';
  process.stdout.write([
    `jst-tracker listening on ${server.url}`,
    '',
    `Data (SQLite):      ${server.store.location}`,
    `Demo credentials:   ${envFile} (mode 0600; three role accounts, project DEMO)`,
    `Cloud id:           ${cloudId.cloudId}`,
    '',
    'Try it (in another terminal, from this folder):',
    `  set -a; . ${envFile}; set +a`,
    `  curl -s ${server.url}/_edge/tenant_info`,
    `  curl -s ${auth} ${api}/myself`,
    `  curl -s ${auth} ${api}/project/search`,
    `  curl -s ${auth} -H 'Content-Type: application/json' -X POST ${api}/issue \\`,
    `    -d '{"fields":{"project":{"key":"DEMO"},"issuetype":{"name":"Task"},"summary":"Hello from curl"}}'`,
    `  curl -s ${auth} "${api}/issue/DEMO-1?fields=summary,status"`,
    '',
    values.once ? 'Stopping (--once).' : 'Press Ctrl-C to stop.',
    '',
  ].join('\n'));
  if (values.once) {
    await server.close();
    return;
  }
  await new Promise<void>((done) => {
    const stop = () => { void server.close().then(done); };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

main().catch((e: unknown) => {
  process.stderr.write(`npm start: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
});
