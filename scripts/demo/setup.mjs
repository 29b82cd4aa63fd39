// The demo's accounts, tokens and port, kept in one 0600 file across runs (never printed).
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';

export const ROLES = ['assigner', 'executor', 'reviewer'];
export const CODEHOST_LOGIN = 'demo-bot';
/** The executor's and the reviewer's code-host accounts (the assigner's is CODEHOST_LOGIN). */
export const CODEHOST_ROLE_LOGINS = { executor: 'demo-executor', reviewer: 'demo-reviewer' };
export const DEMO_REPO = { owner: 'demo', name: 'app' };

const read = (file) =>
  Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
const write = (file, values) => {
  writeFileSync(
    file,
    Object.entries(values)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n') + '\n',
    { mode: 0o600 },
  );
  chmodSync(file, 0o600);
};

/** The demo's credentials: made once (random tokens), then read back on every run. */
export function demoCredentials(file) {
  const c = existsSync(file) ? read(file) : {};
  let changed = false;
  const ensure = (name, make) => {
    if (!c[name]) {
      c[name] = make();
      changed = true;
    }
  };
  for (const r of ROLES) {
    ensure(`DEMO_${r.toUpperCase()}_EMAIL`, () => `${r}@demo.test`);
    ensure(`DEMO_${r.toUpperCase()}_TOKEN`, () => `demo-${r}-${randomBytes(12).toString('hex')}`);
  }
  ensure('DEMO_CODEHOST_TOKEN', () => `demo-codehost-${randomBytes(12).toString('hex')}`);
  // ARCHITECTURE §21: one code-host identity per role (the assigner keeps demo-bot's token).
  ensure('DEMO_CODEHOST_EXECUTOR_TOKEN', () => `demo-codehost-${randomBytes(12).toString('hex')}`);
  ensure('DEMO_CODEHOST_REVIEWER_TOKEN', () => `demo-codehost-${randomBytes(12).toString('hex')}`);
  if (changed) write(file, c);
  const port = Number(c.DEMO_PORT ?? 0);
  return {
    email: (r) => c[`DEMO_${r.toUpperCase()}_EMAIL`],
    token: (r) => c[`DEMO_${r.toUpperCase()}_TOKEN`],
    codehostToken: c.DEMO_CODEHOST_TOKEN,
    codehostRoleToken: (r) => c[`DEMO_CODEHOST_${r.toUpperCase()}_TOKEN`],
    port: Number.isInteger(port) && port > 0 && port < 65536 ? port : 0,
  };
}

/** Records the port this run listens on, so the next run (and the worktrees' settings) keep it. */
export function rememberPort(file, port) {
  write(file, { ...read(file), DEMO_PORT: String(port) });
}

/**
 * The demo site (three role accounts, one project) and the code host (one account per role, one
 * repository whose base and production branches are protected: a merge needs the reviewer's
 * approval, a direct push is refused; ARCHITECTURE §21).
 */
export function demoSeed(cred) {
  return {
    sites: [
      {
        host: 'demo.atlassian.net',
        users: ROLES.map((r) => ({ email: cred.email(r), displayName: `Demo ${r[0].toUpperCase()}${r.slice(1)}`, tokens: [{ token: cred.token(r) }] })),
        projects: [
          {
            key: 'DEMO',
            name: 'Demo project',
            lead: cred.email('assigner'),
            // ARCHITECTURE §21: only the reviewer moves an issue to Done (a workflow condition, spec §3 rule 5).
            workflow: { kanban: true, only: { Done: ['reviewer'] } },
            members: [
              { email: cred.email('assigner'), role: 'admin' },
              { email: cred.email('executor'), role: 'member' },
              { email: cred.email('reviewer'), role: 'member' },
            ],
            // ARCHITECTURE §5: the board highlights a marker comment only from its role's account.
            roles: { assigner: cred.email('assigner'), executor: cred.email('executor'), reviewer: cred.email('reviewer') },
          },
        ],
      },
    ],
    codehost: {
      users: [
        { login: CODEHOST_LOGIN, name: 'Demo Bot', tokens: [{ token: cred.codehostToken }] },
        { login: CODEHOST_ROLE_LOGINS.executor, name: 'Demo Executor', tokens: [{ token: cred.codehostRoleToken('executor') }] },
        { login: CODEHOST_ROLE_LOGINS.reviewer, name: 'Demo Reviewer', tokens: [{ token: cred.codehostRoleToken('reviewer') }] },
      ],
      repos: [
        {
          ...DEMO_REPO,
          defaultBranch: 'development',
          collaborators: [
            { login: CODEHOST_LOGIN, permission: 'admin' },
            { login: CODEHOST_ROLE_LOGINS.executor, permission: 'write' },
            { login: CODEHOST_ROLE_LOGINS.reviewer, permission: 'write' },
          ],
          protect: ['development', 'main'].map((branch) => ({ branch, requiredApprovals: 1, dismissStaleReviews: true, enforceAdmins: true })),
          // ARCHITECTURE §22: a merge moves its issue to Done on the tracker, as the reviewer (the one
          // §21's Done condition allows), as GitHub for Jira does; `jst done` then finds it Done.
          tracker: { site: 'demo.atlassian.net', as: cred.email('reviewer'), onMerge: 'Done' },
        },
      ],
    },
  };
}
