/** The seed most tests use: one site, the three roles, a viewer, an outsider and scoped tokens. */
export const CLOUD_ID = '0b5e6a8c-1d2f-4e3a-9b7c-6d5e4f3a2b1c';
export const SITE_HOST = 'acme.atlassian.net';

export const TOKENS = {
  assigner: 'tok-assigner-7f3a9c',
  executor: 'tok-executor-2b8d41',
  reviewer: 'tok-reviewer-c05e77',
  viewer: 'tok-viewer-91aa02',
  outsider: 'tok-outsider-5d1e3f',
  scopedRead: 'tok-scoped-read-44b1',
  scopedAll: 'tok-scoped-all-8e02',
} as const;

export const EMAILS = {
  assigner: 'assigner@acme.test',
  executor: 'executor@acme.test',
  reviewer: 'reviewer@acme.test',
  viewer: 'viewer@acme.test',
  outsider: 'outsider@acme.test',
} as const;

/**
 * The code host's side of the test seed (ARCHITECTURE §14, the seed's `"codehost"` section): the
 * account jst uses (`jst-bot`, write on acme/widgets), a reader, and acme/locked that jst-bot may
 * not see. `CODEHOST_TOKEN` is the token every `.jst/local.env` of the tests carries.
 */
export const CODEHOST_TOKEN = 'github_pat_fixture_3e9d1c';
export const CODEHOST_READ_TOKEN = 'github_pat_reader_7c41d2';
export const CODEHOST_LOGIN = 'jst-bot';
/** One code-host identity per role (ARCHITECTURE §10: CODEHOST_EXECUTOR_TOKEN, CODEHOST_REVIEWER_TOKEN), both with write. */
export const CODEHOST_ROLE_TOKENS = { executor: 'github_pat_executor_5b20e7', reviewer: 'github_pat_reviewer_91d4c8' } as const;
export const CODEHOST_ROLE_LOGINS = { executor: 'eve-codes', reviewer: 'rey-reviews' } as const;

export function codehostSection() {
  return {
    users: [
      { login: CODEHOST_LOGIN, name: 'Jst Bot', tokens: [{ token: CODEHOST_TOKEN }] },
      { login: 'vic-reader', name: 'Vic Reader', tokens: [{ token: CODEHOST_READ_TOKEN }] },
      { login: CODEHOST_ROLE_LOGINS.executor, name: 'Eve Codes', tokens: [{ token: CODEHOST_ROLE_TOKENS.executor }] },
      { login: CODEHOST_ROLE_LOGINS.reviewer, name: 'Rey Reviews', tokens: [{ token: CODEHOST_ROLE_TOKENS.reviewer }] },
    ],
    repos: [
      {
        owner: 'acme',
        name: 'widgets',
        defaultBranch: 'development',
        collaborators: [
          { login: CODEHOST_LOGIN, permission: 'write' },
          { login: 'vic-reader', permission: 'read' },
          { login: CODEHOST_ROLE_LOGINS.executor, permission: 'write' },
          { login: CODEHOST_ROLE_LOGINS.reviewer, permission: 'write' },
        ],
      },
      { owner: 'acme', name: 'locked', defaultBranch: 'main', collaborators: [{ login: 'vic-reader', permission: 'read' }] },
    ],
  };
}

/** `seed` (default the test seed) with the code host's section added. */
export function withCodehost<T extends object>(seed: T): T & { codehost: ReturnType<typeof codehostSection> } {
  return { ...seed, codehost: codehostSection() };
}

export type Who = keyof typeof EMAILS | 'scopedRead' | 'scopedAll';

export function credentialOf(who: Who): { email: string; token: string } {
  if (who === 'scopedRead') return { email: 'bot@acme.test', token: TOKENS.scopedRead };
  if (who === 'scopedAll') return { email: 'bot@acme.test', token: TOKENS.scopedAll };
  return { email: EMAILS[who], token: TOKENS[who] };
}

export function testSeed() {
  return {
    sites: [
      {
        host: SITE_HOST,
        cloudId: CLOUD_ID,
        users: [
          { email: EMAILS.assigner, displayName: 'Ada Assigner', tokens: [{ token: TOKENS.assigner, kind: 'classic' }] },
          { email: EMAILS.executor, displayName: 'Eve Executor', tokens: [{ token: TOKENS.executor }] },
          { email: EMAILS.reviewer, displayName: 'Rey Reviewer', tokens: [{ token: TOKENS.reviewer }] },
          { email: EMAILS.viewer, displayName: 'Vic Viewer', tokens: [{ token: TOKENS.viewer }] },
          { email: EMAILS.outsider, displayName: 'Olga Outsider', tokens: [{ token: TOKENS.outsider }] },
          {
            email: 'bot@acme.test',
            displayName: 'Scoped Bot',
            tokens: [
              { token: TOKENS.scopedRead, kind: 'scoped', scopes: ['read:jira-user', 'read:jira-work'] },
              { token: TOKENS.scopedAll, kind: 'scoped', scopes: ['read:jira-user', 'read:jira-work', 'write:jira-work'] },
            ],
          },
        ],
        projects: [
          {
            key: 'ABC',
            name: 'Alpha',
            lead: EMAILS.assigner,
            workflow: 'kanban',
            // ARCHITECTURE §5: the accounts whose marker comments the board highlights.
            roles: { assigner: EMAILS.assigner, executor: EMAILS.executor, reviewer: EMAILS.reviewer },
            members: [
              { email: EMAILS.assigner, role: 'admin' },
              { email: EMAILS.executor, role: 'member' },
              { email: EMAILS.reviewer, role: 'member' },
              { email: EMAILS.viewer, role: 'viewer' },
              { email: 'bot@acme.test', role: 'member' },
            ],
          },
          {
            key: 'RST',
            name: 'Restricted flow',
            lead: EMAILS.assigner,
            members: [
              { email: EMAILS.assigner, role: 'admin' },
              { email: EMAILS.executor, role: 'member' },
            ],
            workflow: {
              statuses: [
                { name: 'Backlog', category: 'new' },
                { name: 'Doing', category: 'indeterminate' },
                { name: 'Checking', category: 'indeterminate' },
                { name: 'Finished', category: 'done' },
              ],
              initial: 'Backlog',
              transitions: [
                { name: 'Start work', from: ['Backlog'], to: 'Doing' },
                { name: 'Ask for review', from: ['Doing'], to: 'Checking' },
                { name: 'Approve', from: ['Checking'], to: 'Finished' },
                { name: 'Reopen', to: 'Backlog' },
              ],
            },
          },
          { key: 'SEC', name: 'Secret', members: [{ email: EMAILS.outsider, role: 'admin' }] },
        ],
      },
    ],
  };
}
