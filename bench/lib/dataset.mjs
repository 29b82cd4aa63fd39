// The benchmark's site: who, which projects, and a generator of a realistic issue history.
// Everything is derived from a fixed PRNG seed, so two runs load the same 100,000 issues.

export const CLOUD_ID = 'b3c4e5f6-0000-4000-8000-00000000be0c';
export const HOST = 'bench.atlassian.net';
export const PROJECTS = ['PA', 'PB', 'PC', 'PD', 'PE', 'PF', 'PG', 'PH', 'PI', 'PJ'];
/** Kanban statuses with their share of issues (a backlog-heavy board). */
export const STATUSES = [
  ['To Do', 0.4],
  ['In Progress', 0.2],
  ['In Review', 0.1],
  ['Done', 0.3],
];
const USERS = 20;
const ADMIN = 0;
const VIEWERS = new Set([17, 18, 19]);

export const userEmail = (i) => `user${i}@bench.test`;
export const userToken = (i) => `bench-token-${i}-not-a-secret`;
/** The load's caller: a project member (browse, create, comment, transition). */
export const CALLER = { email: userEmail(1), token: userToken(1) };
export const authHeader = ({ email, token }) => `Basic ${Buffer.from(`${email}:${token}`).toString('base64')}`;

export function benchSeed() {
  const users = Array.from({ length: USERS }, (_, i) => ({
    email: userEmail(i),
    displayName: `Bench User ${i}`,
    tokens: [{ token: userToken(i) }],
  }));
  const members = users.map((u, i) => ({ email: u.email, role: i === ADMIN ? 'admin' : VIEWERS.has(i) ? 'viewer' : 'member' }));
  return {
    sites: [
      {
        host: HOST,
        cloudId: CLOUD_ID,
        users,
        projects: PROJECTS.map((key, i) => ({ key, name: `Project ${key}`, lead: userEmail(i % 5), members, workflow: 'kanban' })),
      },
    ],
  };
}

/** mulberry32: small, fast, good enough to spread rows. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'login billing export report cache search timeout upload invoice dashboard sync token session retry ' +
  'webhook schema index migration queue worker email notification layout button filter sort page api client server ' +
  'latency memory crash audit permission role project board column label release build deploy test flaky docs'
).split(' ');
const VERBS = ['Fix', 'Add', 'Improve', 'Remove', 'Refactor', 'Document', 'Investigate', 'Speed up', 'Harden', 'Split'];

export const adfParagraph = (text) => ({ type: 'doc', version: 1, content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });

/**
 * Yields issues (with ids 1..n in creation order) and comments as plain rows, with the
 * store's column names. `userIds` maps user index → row id, `statusIds` status name → row id,
 * `projectIds` key → row id.
 */
export function* generate({ issues: n, userIds, statusIds, projectIds, now = Date.now() }) {
  const rnd = prng(20261101);
  const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
  const words = (k) => Array.from({ length: k }, () => pick(WORDS)).join(' ');
  const assignable = userIds.filter((_, i) => !VIEWERS.has(i));
  const start = now - 730 * 86400e3;
  const step = (730 * 86400e3) / n;
  const numbers = new Map(PROJECTS.map((k) => [k, 0]));
  const tasks = new Map(PROJECTS.map((k) => [k, []]));
  let commentId = 0;
  for (let id = 1; id <= n; id++) {
    const key = pick(PROJECTS);
    const number = numbers.get(key) + 1;
    numbers.set(key, number);
    let r = rnd();
    let status = STATUSES[STATUSES.length - 1][0];
    for (const [name, share] of STATUSES) {
      if (r < share) {
        status = name;
        break;
      }
      r -= share;
    }
    const created = start + id * step + rnd() * step;
    const updated = Math.min(now - 1000, created + rnd() * 30 * 86400e3);
    const siblings = tasks.get(key);
    const subtask = siblings.length > 20 && rnd() < 0.1;
    const parent = subtask ? siblings[siblings.length - 1 - Math.floor(rnd() * 20)] : null;
    if (!subtask) siblings.push(id);
    const issue = {
      id,
      project_id: projectIds[key],
      number,
      key: `${key}-${number}`,
      issue_type: subtask ? 'Subtask' : 'Task',
      summary: `${pick(VERBS)} ${words(3)} (${key}-${number})`,
      description: rnd() < 0.7 ? JSON.stringify(adfParagraph(`${words(12 + Math.floor(rnd() * 20))}.`)) : null,
      status_id: statusIds[status],
      parent_id: parent,
      assignee_id: rnd() < 0.85 ? pick(assignable) : null,
      reporter_id: pick(assignable),
      creator_id: pick(assignable),
      created_at: new Date(created).toISOString(),
      updated_at: new Date(updated).toISOString(),
      version: 1,
    };
    const comments = [];
    const count = Math.floor(rnd() * 3); // 0, 1 or 2: one per issue on average
    for (let c = 0; c < count; c++) {
      const at = new Date(Math.min(now - 1000, created + (c + 1) * rnd() * 86400e3)).toISOString();
      comments.push({
        id: ++commentId,
        issue_id: id,
        author_id: pick(userIds),
        body: JSON.stringify(adfParagraph(`${words(8 + Math.floor(rnd() * 16))}.`)),
        created_at: at,
        updated_at: at,
      });
    }
    yield { issue, comments };
  }
}
