import { readFileSync } from 'node:fs';
import { isProjectKey } from '@jst/protocol';
import { CONDITION_NAMES, KANBAN_STATUSES, PROJECT_ROLE_NAMES, workflowOf, type SeedWorkflow, type StatusCategoryKey } from './workflow.js';
import { findJsonFault, shownKey } from '../kit/json-fault.js';
import { SeedError, seedChecks } from '../kit/seed-checks.js';

export { SeedError, seedChecks } from '../kit/seed-checks.js';
import { PROJECT_ROLES, type ProjectRole } from './permissions.js';

/**
 * A seed file (ARCHITECTURE §5), parsed and checked once at the edge. `codehost` is the code
 * host's section (ARCHITECTURE §14), handed over as it was written: the code host's own domain
 * parses it (src/codehost/domain/seed.ts), the tracker's knows nothing of it.
 */
export interface Seed {
  sites: SeedSite[];
  codehost?: unknown;
}
export interface SeedSite {
  host: string;
  cloudId?: string;
  users: SeedUser[];
  projects: SeedProject[];
}
export interface SeedUser {
  email: string;
  displayName: string;
  tokens: SeedToken[];
}
export interface SeedToken {
  token: string;
  kind: 'classic' | 'scoped';
  scopes: string[];
}
export interface SeedProject {
  key: string;
  name: string;
  lead?: string;
  members: { email: string; role: ProjectRole }[];
  workflow: SeedWorkflow;
  /** ARCHITECTURE §5 (optional): the account (e-mail) of each of the toolkit's roles, for the board's marker highlighting. */
  roles?: Partial<Record<WorkRole, string>>;
}

/** The toolkit's three roles (ARCHITECTURE §11), whose marker comments the board highlights. */
export const WORK_ROLES = ['assigner', 'executor', 'reviewer'] as const;
export type WorkRole = (typeof WORK_ROLES)[number];

/**
 * The display name of a person the seed names only by e-mail: its local part
 * ("executor@acme.test" → "executor").
 */
export function displayNameOf(email: string): string {
  return email.slice(0, email.lastIndexOf('@'));
}

const CATEGORIES: readonly StatusCategoryKey[] = ['new', 'indeterminate', 'done'];
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$/;

export function loadSeedFile(file: string): Seed {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new SeedError(file, '$', `cannot read the seed file (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the text around the fault: report only where it is.
    const fault = findJsonFault(text);
    throw new SeedError(
      file,
      fault?.path ?? '$',
      'not valid JSON here (look for a missing comma, quote or bracket, or a value without quotes)',
      fault ? { line: fault.line, column: fault.column } : undefined,
    );
  }
  return parseSeed(json, file);
}

/** Checks a seed document and returns it typed; the first problem throws, naming its JSON path. */
export function parseSeed(json: unknown, file = '<seed>'): Seed {
  const { fail, obj, arr, str, known } = seedChecks(file);

  const root = obj(json, '$');
  known(root, '$', ['sites', 'codehost']);
  const sites = arr(root.sites, '$.sites');
  if (sites.length === 0) fail('$.sites', 'needs at least one site');
  const hosts = new Set<string>();
  const cloudIds = new Set<string>();
  return {
    ...(root.codehost === undefined ? {} : { codehost: root.codehost }),
    sites: sites.map((s, si) => {
      const sp = `$.sites[${si}]`;
      const site = obj(s, sp);
      known(site, sp, ['host', 'cloudId', 'users', 'projects']);
      const host = str(site.host, `${sp}.host`).toLowerCase();
      if (!HOST.test(host)) fail(`${sp}.host`, 'is not a host name (no scheme or path: e.g. acme.atlassian.net)');
      if (hosts.has(host)) fail(`${sp}.host`, 'names the same host as an earlier site');
      hosts.add(host);
      const cloudId = site.cloudId === undefined ? undefined : str(site.cloudId, `${sp}.cloudId`);
      if (cloudId !== undefined && !/^[A-Za-z0-9-]{1,64}$/.test(cloudId)) fail(`${sp}.cloudId`, 'may hold only letters, digits and dashes');
      if (cloudId !== undefined && cloudIds.has(cloudId)) fail(`${sp}.cloudId`, 'is the cloud id of an earlier site too');
      if (cloudId !== undefined) cloudIds.add(cloudId);
      const emails = new Set<string>();
      const users = arr(site.users ?? [], `${sp}.users`).map((u, ui) => {
        const up = `${sp}.users[${ui}]`;
        const user = obj(u, up);
        known(user, up, ['email', 'displayName', 'tokens']);
        const email = str(user.email, `${up}.email`).toLowerCase();
        if (!EMAIL.test(email)) fail(`${up}.email`, 'is not an e-mail address');
        if (emails.has(email)) fail(`${up}.email`, 'is the e-mail of an earlier user of this site too');
        emails.add(email);
        const tokens = arr(user.tokens ?? [], `${up}.tokens`).map((t, ti) => {
          const tp = `${up}.tokens[${ti}]`;
          const tok = obj(t, tp);
          known(tok, tp, ['token', 'kind', 'scopes']);
          const token = str(tok.token, `${tp}.token`);
          const kind = tok.kind ?? 'classic';
          if (kind !== 'classic' && kind !== 'scoped') fail(`${tp}.kind`, 'must be "classic" or "scoped"');
          const scopes = arr(tok.scopes ?? [], `${tp}.scopes`).map((sc, i) => str(sc, `${tp}.scopes[${i}]`));
          if (kind === 'classic' && scopes.length > 0) fail(`${tp}.scopes`, 'only a scoped token has scopes');
          return { token, kind: kind as 'classic' | 'scoped', scopes };
        });
        return { email, displayName: user.displayName === undefined ? displayNameOf(email) : str(user.displayName, `${up}.displayName`), tokens };
      });
      const keys = new Set<string>();
      // A site's statuses are shared by its projects, so a status name has one category per site.
      const categories = new Map<string, string>();
      const projects = arr(site.projects ?? [], `${sp}.projects`).map((p, pi) => {
        const pp = `${sp}.projects[${pi}]`;
        const project = obj(p, pp);
        known(project, pp, ['key', 'name', 'lead', 'members', 'workflow', 'roles']);
        const key = str(project.key, `${pp}.key`);
        if (!isProjectKey(key)) fail(`${pp}.key`, 'is not a project key (2-10 upper-case letters, digits or _, starting with a letter)');
        if (keys.has(key)) fail(`${pp}.key`, 'is the key of an earlier project of this site too');
        keys.add(key);
        const memberEmails = new Set<string>();
        const members = arr(project.members ?? [], `${pp}.members`).map((m, mi) => {
          const mp = `${pp}.members[${mi}]`;
          const member = obj(m, mp);
          known(member, mp, ['email', 'role']);
          // ARCHITECTURE §5: a member need not be among "users" (the example's executor and
          // viewer are not); applySeed makes such a person a site user without tokens.
          const email = str(member.email, `${mp}.email`).toLowerCase();
          if (!EMAIL.test(email)) fail(`${mp}.email`, 'is not an e-mail address');
          if (memberEmails.has(email)) fail(`${mp}.email`, 'names a member listed earlier too');
          memberEmails.add(email);
          const role = member.role ?? 'member';
          if (!PROJECT_ROLES.includes(role as ProjectRole)) fail(`${mp}.role`, `must be one of ${PROJECT_ROLES.join(', ')}`);
          return { email, role: role as ProjectRole };
        });
        const lead = project.lead === undefined ? undefined : str(project.lead, `${pp}.lead`).toLowerCase();
        if (lead !== undefined && !emails.has(lead) && !memberEmails.has(lead)) {
          fail(`${pp}.lead`, "is not one of this site's users nor a member of this project");
        }
        const workflow = parseWorkflow(project.workflow ?? 'kanban', `${pp}.workflow`, { fail, obj, arr, str, known });
        const explicit = workflow !== 'kanban' && !('kanban' in workflow);
        workflowOf(workflow).statuses.forEach((st, i) => {
          const seen = categories.get(st.name);
          if (seen !== undefined && seen !== st.category) {
            fail(
              explicit ? `${pp}.workflow.statuses[${i}]` : `${pp}.workflow`,
              `a status here has category ${st.category} but ${seen} in an earlier project; a site's projects share their statuses`,
            );
          }
          categories.set(st.name, st.category);
        });
        const roles =
          project.roles === undefined
            ? undefined
            : parseRoles(project.roles, `${pp}.roles`, (e) => emails.has(e) || memberEmails.has(e), { fail, obj, arr, str, known });
        requireNamedRoles(workflow, `${pp}.workflow`, roles ?? {}, fail);
        return { key, name: str(project.name ?? key, `${pp}.name`), ...(lead ? { lead } : {}), members, workflow, ...(roles ? { roles } : {}) };
      });
      return { host, ...(cloudId ? { cloudId } : {}), users, projects };
    }),
  };
}

interface Checks {
  fail: (path: string, detail: string) => never;
  obj: (v: unknown, path: string) => Record<string, unknown>;
  arr: (v: unknown, path: string) => unknown[];
  str: (v: unknown, path: string) => string;
  known: (o: Record<string, unknown>, path: string, keys: string[]) => void;
}

/** `"roles": {"assigner": e-mail, "executor": e-mail, "reviewer": e-mail}`, each optional; each a user of the site or a member of the project. */
function parseRoles(value: unknown, path: string, known: (email: string) => boolean, c: Checks): Partial<Record<WorkRole, string>> {
  const o = c.obj(value, path);
  c.known(o, path, [...WORK_ROLES]);
  const roles: Partial<Record<WorkRole, string>> = {};
  for (const role of WORK_ROLES) {
    if (o[role] === undefined) continue;
    const email = c.str(o[role], `${path}.${role}`).toLowerCase();
    if (!EMAIL.test(email)) c.fail(`${path}.${role}`, 'is not an e-mail address');
    if (!known(email)) c.fail(`${path}.${role}`, "is not one of this site's users nor a member of this project");
    roles[role] = email;
  }
  return roles;
}

/** spec §3 rule 5: a condition's names, each a project role or a membership role that may transition; at least one. */
function parseOnly(value: unknown, path: string, c: Checks): string[] {
  const names = c.arr(value, path).map((n, i) => {
    const name = c.str(n, `${path}[${i}]`);
    if (!(CONDITION_NAMES as readonly string[]).includes(name))
      c.fail(`${path}[${i}]`, `is not a role a condition can name (expected one of: ${CONDITION_NAMES.join(', ')})`);
    return name;
  });
  if (names.length === 0) c.fail(path, 'names no one: list at least one role, or leave "only" out so anyone who may transition can');
  return [...new Set(names)];
}

/** spec §3 rule 5: a condition naming a project role needs the project's `"roles"` to name its holder. */
function requireNamedRoles(workflow: SeedWorkflow, path: string, roles: Partial<Record<WorkRole, string>>, fail: Checks['fail']): void {
  if (workflow === 'kanban') return;
  const conditions =
    'kanban' in workflow
      ? Object.entries(workflow.only).map(([status, names]) => ({ path: `${path}.only["${status}"]`, names }))
      : workflow.transitions.map((t, i) => ({ path: `${path}.transitions[${i}].only`, names: t.only ?? [] }));
  for (const c of conditions) {
    c.names.forEach((name, i) => {
      if (PROJECT_ROLE_NAMES.includes(name) && roles[name as WorkRole] === undefined)
        fail(`${c.path}[${i}]`, `names the ${name}, but this project's "roles" names no ${name} (add "roles": {"${name}": "<e-mail>"})`);
    });
  }
}

/** `"workflow": {"kanban": true, "only": {"<status>": [names]}}`: the Kanban template with conditions by destination status. */
function parseKanban(wf: Record<string, unknown>, path: string, c: Checks): SeedWorkflow {
  c.known(wf, path, ['kanban', 'only']);
  if (wf.kanban !== true) c.fail(`${path}.kanban`, 'must be true (for statuses of your own, give "statuses" and "transitions" instead)');
  const o = wf.only === undefined ? {} : c.obj(wf.only, `${path}.only`);
  const only: Record<string, string[]> = {};
  for (const [status, names] of Object.entries(o)) {
    if (!KANBAN_STATUSES.includes(status))
      c.fail(`${path}.only.${shownKey(status)}`, `is not a status of the kanban workflow (expected one of: ${KANBAN_STATUSES.join(', ')})`);
    only[status] = parseOnly(names, `${path}.only["${status}"]`, c);
  }
  return { kanban: true, only };
}

function parseWorkflow(value: unknown, path: string, c: Checks): SeedWorkflow {
  if (value === 'kanban') return 'kanban';
  if (typeof value === 'string') return c.fail(path, 'is not a workflow (use "kanban" or an object with statuses and transitions)');
  const wf = c.obj(value, path);
  if ('kanban' in wf) return parseKanban(wf, path, c);
  c.known(wf, path, ['statuses', 'initial', 'transitions']);
  const names = new Set<string>();
  const statuses = c.arr(wf.statuses, `${path}.statuses`).map((s, i) => {
    const sp = `${path}.statuses[${i}]`;
    const st = c.obj(s, sp);
    c.known(st, sp, ['name', 'category']);
    const name = c.str(st.name, `${sp}.name`);
    if (names.has(name)) c.fail(`${sp}.name`, 'names a status listed earlier too');
    names.add(name);
    if (st.category !== undefined && !CATEGORIES.includes(st.category as StatusCategoryKey))
      c.fail(`${sp}.category`, `must be one of ${CATEGORIES.join(', ')}`);
    return st.category === undefined ? { name } : { name, category: st.category as StatusCategoryKey };
  });
  if (statuses.length === 0) c.fail(`${path}.statuses`, 'needs at least one status');
  const status = (v: unknown, p: string) => {
    const name = c.str(v, p);
    if (!names.has(name)) c.fail(p, "is not one of the workflow's statuses");
    return name;
  };
  const initial = wf.initial === undefined ? undefined : status(wf.initial, `${path}.initial`);
  const transitions = c.arr(wf.transitions ?? [], `${path}.transitions`).map((t, i) => {
    const tp = `${path}.transitions[${i}]`;
    const tr = c.obj(t, tp);
    c.known(tr, tp, ['name', 'from', 'to', 'only']);
    const from = tr.from === undefined ? undefined : c.arr(tr.from, `${tp}.from`).map((f, fi) => status(f, `${tp}.from[${fi}]`));
    const only = tr.only === undefined ? undefined : parseOnly(tr.only, `${tp}.only`, c);
    return { name: c.str(tr.name, `${tp}.name`), ...(from ? { from } : {}), to: status(tr.to, `${tp}.to`), ...(only ? { only } : {}) };
  });
  return { statuses, ...(initial ? { initial } : {}), transitions };
}
