// The load generator, run as its own process (node bench/lib/load.mjs '<json>'): autocannon's API
// drives one scenario against one or more URLs; latencies are kept at microsecond resolution in our
// own HDR histogram (autocannon's own histogram counts whole milliseconds). Prints "measuring" when
// the measured window opens (after the warm-up) and one JSON result line at the end. With `rate` in the
// spec, the connections together send that many requests per second (autocannon's overallRate), not
// as many as the server answers.
import autocannon from 'autocannon';
import hdr from 'hdr-histogram-js';
import { adfParagraph } from './dataset.mjs';

const spec = JSON.parse(process.argv[2]);
const { urls, connections, duration, warmup, scenario, prefix = '', auth, keyspace, rate } = spec;

const rnd = Math.random;
const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
const randomKey = () => {
  const project = pick(keyspace.projects);
  return `${project}-${1 + Math.floor(rnd() * keyspace.counters[project])}`;
};
const STATUS_NAMES = ['To Do', 'In Progress', 'In Review', 'Done'];
let serial = 0;
const EXECUTOR_FIELDS = 'summary,description,issuetype,status,parent,subtasks,comment';

const json = (method, path, body) => ({ method, path, body: body === undefined ? undefined : JSON.stringify(body) });

/** Each scenario is autocannon's `requests` list; a connection runs it in a loop. */
const SCENARIOS = {
  fixed: () => [{ method: 'GET', path: spec.path ?? '/' }],
  // spec §4 endpoint 5, the executor's fetch (the reviewer's is the same without comment).
  'get-issue': () => [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `${prefix}/issue/${randomKey()}?fields=${EXECUTOR_FIELDS}` }) }],
  // The same read again and again: an executor or reviewer polling its issue (the reply cache's best case).
  'get-issue-same': () => [
    { method: 'GET', path: `${prefix}/issue/${keyspace.projects[0]}-${Math.ceil(keyspace.counters[keyspace.projects[0]] / 2)}?fields=${EXECUTOR_FIELDS}` },
  ],
  // A working set: random reads among 1,000 issues of one project (a team's open issues, a board).
  'get-issue-hot': () => [
    {
      method: 'GET',
      setupRequest: (req) => ({
        ...req,
        path: `${prefix}/issue/${keyspace.projects[0]}-${1 + Math.floor(rnd() * Math.min(1000, keyspace.counters[keyspace.projects[0]]))}?fields=${EXECUTOR_FIELDS}`,
      }),
    },
  ],
  'create-issue': () => [
    {
      method: 'POST',
      path: `${prefix}/issue`,
      setupRequest: (req) => ({
        ...req,
        ...json('POST', `${prefix}/issue`, {
          fields: {
            project: { key: pick(keyspace.projects) },
            issuetype: { name: 'Task' },
            summary: `Bench-created issue ${++serial}`,
            description: adfParagraph('Created under load by bench/run.mjs to measure POST /issue.'),
          },
        }),
      }),
    },
  ],
  comment: () => [
    {
      method: 'POST',
      setupRequest: (req) => ({
        ...req,
        ...json('POST', `${prefix}/issue/${randomKey()}/comment`, { body: adfParagraph(`Comment ${++serial} posted under load by bench/run.mjs.`) }),
      }),
    },
  ],
  // GET the transitions of a random issue, then POST the first one offered (a real status change).
  transitions: () => [
    {
      method: 'GET',
      setupRequest: (req, context) => {
        context.key = randomKey();
        return { ...req, path: `${prefix}/issue/${context.key}/transitions` };
      },
      onResponse: (status, body, context) => {
        context.transition = status === 200 ? JSON.parse(body).transitions[0]?.id : undefined;
      },
    },
    {
      method: 'POST',
      setupRequest: (req, context) => ({
        ...req,
        ...json('POST', `${prefix}/issue/${context.key}/transitions`, { transition: { id: context.transition ?? '11' } }),
      }),
    },
  ],
  // One board column: 50 issues of one project in one status, newest first, with the fields a board shows.
  search: () => [
    {
      method: 'POST',
      setupRequest: (req) => ({
        ...req,
        ...json('POST', `${prefix}/search/jql`, {
          jql: `project = ${pick(keyspace.projects)} AND status = "${pick(STATUS_NAMES)}"`,
          maxResults: 50,
          fields: ['summary', 'status', 'assignee'],
        }),
      }),
    },
  ],
  // Calibration (lib/naive-sqlite.mjs): one row by key, one insert.
  'naive-read': () => [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/items/PA-${1 + Math.floor(rnd() * 100_000)}` }) }],
  'naive-insert': () => [{ method: 'POST', setupRequest: (req) => ({ ...req, ...json('POST', '/items', { summary: `Item ${++serial}` }) }) }],
  // Writes as a team makes them: create, comment, look at the transitions, move the issue.
  'write-mix': () => [...SCENARIOS['create-issue'](), ...SCENARIOS.comment(), ...SCENARIOS.transitions()],
};

const headers = {
  accept: 'application/json',
  'content-type': 'application/json',
  ...(auth ? { authorization: auth } : {}),
};

function run(seconds, record) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: urls,
        connections,
        duration: seconds,
        headers,
        requests: SCENARIOS[scenario](),
        timeout: 30,
        ...(rate ? { overallRate: rate } : {}),
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    if (record) instance.on('response', record);
  });
}

if (!SCENARIOS[scenario]) throw new Error(`unknown scenario ${scenario}`);
if (warmup > 0) await run(warmup, null);

const histogram = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: 3 });
const statuses = {};
let ok = 0;
let all = 0;
process.stdout.write('measuring\n');
const t0 = performance.now();
const result = await run(duration, (_client, statusCode, _bytes, responseTime) => {
  all++;
  statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
  if (statusCode >= 200 && statusCode < 300) {
    ok++;
    histogram.recordValue(Math.max(1, Math.round(responseTime * 1000)));
  }
});
const seconds = (performance.now() - t0) / 1000;
process.stdout.write(
  `${JSON.stringify({
    scenario,
    connections,
    seconds,
    requests: all,
    ok,
    statuses,
    rps: ok / seconds,
    p50: histogram.getValueAtPercentile(50) / 1000,
    p99: histogram.getValueAtPercentile(99) / 1000,
    errors: result.errors,
    timeouts: result.timeouts,
  })}\n`,
);
