import { seedChecks } from '../../kit/seed-checks.js';
import { PERMISSIONS, type Permission } from './model.js';
import type { TrackerLink } from './integration.js';
import type { SeedProtection } from './protection.js';

/** The seed's `"codehost"` section (ARCHITECTURE §14; docs/codehost.md), parsed and checked. */
export interface CodehostSeed {
  users: CodehostSeedUser[];
  repos: CodehostSeedRepo[];
}
export interface CodehostSeedUser {
  login: string;
  name: string | null;
  tokens: string[];
}
export interface CodehostSeedRepo {
  owner: string;
  name: string;
  defaultBranch: string;
  collaborators: { login: string; permission: Permission }[];
  /** ARCHITECTURE §21: the repository's protected branches. */
  protect: SeedProtection[];
  /** ARCHITECTURE §22: the tracker its branches and pull requests move issues on. */
  tracker?: TrackerLink;
}

/**
 * First path segments the server routes itself (the tracker's REST forms, its board and assets,
 * the code host's API): a repository owner by one of these names could never be reached at
 * `/<owner>/<repo>`, so the seed refuses it. test/codehost/seed.test.ts checks this list against
 * every route the server registers.
 */
export const RESERVED_OWNERS: readonly string[] = [
  'api',
  'rest',
  'ex',
  'browse',
  '_board',
  '_edge',
  'favicon.ico',
  'login',
  'logout',
  'assets',
  'static',
  'robots.txt',
];

/** GitHub's login rule: letters, digits and single inner hyphens, at most 39 characters. */
const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;
/** GitHub's repository name rule: letters, digits, `.`, `-`, `_`, at most 100 characters. */
const REPO_NAME = /^[A-Za-z0-9._-]{1,100}$/;

/** A branch name git accepts (git check-ref-format's rules), at most 255 bytes. */
export function isBranchName(name: string): boolean {
  return (
    name.length > 0 &&
    Buffer.byteLength(name) <= 255 &&
    !/[\x00-\x20\x7f~^:?*[\\]|\.\.|@\{|\/\/|\.lock(\/|$)|\/\./.test(name) &&
    !/^[-/.]|[/.]$/.test(name) &&
    name !== '@'
  );
}

export function isRepoName(name: string): boolean {
  return REPO_NAME.test(name) && name !== '.' && name !== '..' && !name.toLowerCase().endsWith('.git');
}

export function isLogin(login: string): boolean {
  return LOGIN.test(login);
}

/** Checks the `"codehost"` value of a seed file; the first problem throws, naming its JSON path. */
export function parseCodehostSeed(json: unknown, file = '<seed>'): CodehostSeed {
  const { fail, obj, arr, str, known } = seedChecks(file);
  const root = obj(json, '$.codehost');
  known(root, '$.codehost', ['users', 'repos']);
  const logins = new Set<string>();
  const tokens = new Set<string>();
  const users = arr(root.users ?? [], '$.codehost.users').map((u, ui) => {
    const up = `$.codehost.users[${ui}]`;
    const user = obj(u, up);
    known(user, up, ['login', 'name', 'tokens']);
    const login = str(user.login, `${up}.login`);
    if (!LOGIN.test(login)) fail(`${up}.login`, 'is not a login (letters, digits and single hyphens, at most 39 characters, as on GitHub)');
    if (logins.has(login.toLowerCase())) fail(`${up}.login`, 'is the login of an earlier user too (logins are case-insensitive)');
    logins.add(login.toLowerCase());
    const name = user.name === undefined || user.name === null ? null : str(user.name, `${up}.name`);
    if (name !== null && name.length > 255) fail(`${up}.name`, 'is longer than 255 characters');
    return {
      login,
      name,
      tokens: arr(user.tokens ?? [], `${up}.tokens`).map((t, ti) => {
        const tp = `${up}.tokens[${ti}]`;
        const tok = obj(t, tp);
        known(tok, tp, ['token']);
        const token = str(tok.token, `${tp}.token`);
        if (token.length > 1024) fail(`${tp}.token`, 'is longer than 1024 characters');
        if (/[\x00-\x20\x7f]/.test(token)) fail(`${tp}.token`, 'may not hold spaces or control characters (it travels in an HTTP header)');
        if (tokens.has(token)) fail(`${tp}.token`, 'is a token listed earlier too (each token names one user)');
        tokens.add(token);
        return token;
      }),
    };
  });
  const repoNames = new Set<string>();
  const repos = arr(root.repos ?? [], '$.codehost.repos').map((r, ri) => {
    const rp = `$.codehost.repos[${ri}]`;
    const repo = obj(r, rp);
    known(repo, rp, ['owner', 'name', 'defaultBranch', 'collaborators', 'protect', 'tracker']);
    const owner = str(repo.owner, `${rp}.owner`);
    if (RESERVED_OWNERS.includes(owner.toLowerCase())) {
      fail(`${rp}.owner`, `"${owner}" is one of the server's own first path segments (${RESERVED_OWNERS.join(', ')}); pick another owner name`);
    }
    if (!LOGIN.test(owner)) fail(`${rp}.owner`, 'is not an owner name (letters, digits and single hyphens, at most 39 characters, as on GitHub)');
    const name = str(repo.name, `${rp}.name`);
    if (!isRepoName(name)) fail(`${rp}.name`, 'is not a repository name (letters, digits, ".", "-" and "_", at most 100 characters, not ending in .git)');
    const full = `${owner}/${name}`.toLowerCase();
    if (repoNames.has(full)) fail(`${rp}.name`, 'names a repository listed earlier too (names are case-insensitive)');
    repoNames.add(full);
    const defaultBranch = repo.defaultBranch === undefined ? 'main' : str(repo.defaultBranch, `${rp}.defaultBranch`);
    if (!isBranchName(defaultBranch)) fail(`${rp}.defaultBranch`, 'is not a branch name git accepts');
    const seen = new Set<string>();
    const collaborators = arr(repo.collaborators ?? [], `${rp}.collaborators`).map((c, ci) => {
      const cp = `${rp}.collaborators[${ci}]`;
      const collaborator = obj(c, cp);
      known(collaborator, cp, ['login', 'permission']);
      const login = str(collaborator.login, `${cp}.login`);
      if (!logins.has(login.toLowerCase())) fail(`${cp}.login`, 'is not one of $.codehost.users');
      if (seen.has(login.toLowerCase())) fail(`${cp}.login`, 'names a collaborator listed earlier too');
      seen.add(login.toLowerCase());
      const permission = collaborator.permission ?? 'read';
      if (!PERMISSIONS.includes(permission as Permission)) fail(`${cp}.permission`, `must be one of ${PERMISSIONS.join(', ')}`);
      return { login, permission: permission as Permission };
    });
    const protectedBranches = new Set<string>();
    const protect = arr(repo.protect ?? [], `${rp}.protect`).map((p, pi) => {
      const pp = `${rp}.protect[${pi}]`;
      const entry = obj(p, pp);
      known(entry, pp, ['branch', 'requiredApprovals', 'dismissStaleReviews', 'allowForcePushes', 'allowDeletions', 'enforceAdmins']);
      const branch = str(entry.branch, `${pp}.branch`);
      if (!isBranchName(branch)) fail(`${pp}.branch`, 'is not a branch name git accepts');
      if (protectedBranches.has(branch)) fail(`${pp}.branch`, 'names a branch protected earlier in this list');
      protectedBranches.add(branch);
      const requiredApprovals = entry.requiredApprovals ?? 1;
      // GitHub's range for required_approving_review_count.
      if (typeof requiredApprovals !== 'number' || !Number.isInteger(requiredApprovals) || requiredApprovals < 0 || requiredApprovals > 6) {
        fail(`${pp}.requiredApprovals`, 'must be a whole number from 0 to 6 (as on GitHub)');
      }
      const flag = (key: string): boolean => {
        const v = entry[key] ?? false;
        return typeof v === 'boolean' ? v : fail(`${pp}.${key}`, 'must be true or false');
      };
      return {
        branch,
        requiredApprovals: requiredApprovals as number,
        dismissStaleReviews: flag('dismissStaleReviews'),
        allowForcePushes: flag('allowForcePushes'),
        allowDeletions: flag('allowDeletions'),
        enforceAdmins: flag('enforceAdmins'),
      };
    });
    const out: CodehostSeedRepo = { owner, name, defaultBranch, collaborators, protect };
    if (repo.tracker !== undefined) out.tracker = parseTrackerLink(repo.tracker, `${rp}.tracker`, file);
    return out;
  });
  return { users, repos };
}

/** A repository's `"tracker"` (ARCHITECTURE §22): site and user required, each status optional. */
function parseTrackerLink(value: unknown, tp: string, file: string): TrackerLink {
  const { obj, str, known } = seedChecks(file);
  const t = obj(value, tp);
  known(t, tp, ['site', 'as', 'onBranchCreate', 'onPullOpen', 'onMerge']);
  const link: TrackerLink = { site: str(t.site, `${tp}.site`), as: str(t.as, `${tp}.as`) };
  for (const k of ['onBranchCreate', 'onPullOpen', 'onMerge'] as const) {
    if (t[k] !== undefined) link[k] = str(t[k], `${tp}.${k}`);
  }
  return link;
}
