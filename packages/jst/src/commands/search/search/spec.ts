import { EXIT } from '../../../core/errors.js';
import { usageError } from '../../../core/errors.js';
import { commaList, fieldList } from '../../fields.js';
import { SEARCH_OUTPUT } from '../../outputs.js';
import { READ, defineCommand } from '../../define.js';

/** The default page of a tool's search: the fields its short rows show. */
const SHORT_FIELDS = 'summary,status,assignee,parent';

export const searchCommand = defineCommand({
  name: 'search',
  summary: 'issues matching a JQL query (POST /search/jql), one page or --all',
  examples: [
    'jst --role executor search "assignee = currentUser() AND status = \\"To Do\\"" --all',
    'jst --role reviewer search "parent = ABC-1" --max 10 --page-token TOKEN',
  ],
  role: 'chosen',
  json: 'piped',
  fields: {
    jql: { schema: (z) => z.string(), description: 'e.g. assignee = currentUser() AND status = "To Do"', cli: { arg: '<jql>' } },
    fields: fieldList(
      'a comma list or an array of field names: then each issue is its REST JSON with those fields (as jst search --json); default: short rows (key, summary, status, assignee, parent)',
      'default key,summary,status',
    ),
    all: { schema: (z) => z.optional(z.boolean()), description: 'follow nextPageToken to the end', cli: { flag: '--all' } },
    max: {
      schema: (z) => z.optional(z.number().check(z.int(), z.positive())),
      description: 'page size (default 50)',
      cli: {
        flag: '--max <n>',
        parse: (v) => {
          const n = Number(v);
          if (!Number.isInteger(n) || n < 1) throw usageError(`--max must be a positive integer (got "${String(v)}")`);
          return n;
        },
      },
    },
    pageToken: {
      schema: (z) => z.optional(z.string()),
      description: 'the nextPageToken of the page before, to read the next one',
      cli: { flag: '--page-token <token>', help: 'the nextPageToken of the page before' },
    },
  },
  tool: {
    name: 'search',
    roles: ['assigner', 'executor', 'reviewer'],
    title: 'Search issues (JQL)',
    description:
      "jst search JQL as this role (POST /search/jql). Default: one row per issue as text plus short rows (key, summary, status, assignee, parent); with fields, each issue's REST JSON with those fields (as the CLI's --json). A nextPageToken in the result is taken back as pageToken; all follows every page.",
  },
  output: SEARCH_OUTPUT,
  effects: READ,
  run: async (ctx, i, face) => {
    // A tool's default is short rows (ARCHITECTURE §13); fields named explicitly get the REST JSON, as the CLI's --json.
    const short = face.tool !== undefined && i.fields === undefined;
    const fields = commaList(i.fields) ?? (short ? SHORT_FIELDS : undefined);
    const out = await (await import('./run.js')).searchOutcome(ctx, face.role, i.jql, { fields, all: i.all, max: i.max, pageToken: i.pageToken });
    if (!short) return out;
    const issues = out.json.issues.map((x) => {
      const f = x.fields ?? {};
      return {
        key: x.key,
        summary: f.summary ?? '',
        status: f.status?.name ?? '',
        assignee: f.assignee ? (f.assignee.displayName ?? f.assignee.accountId) : null,
        parent: f.parent?.key ?? null,
      };
    });
    const more = out.json.nextPageToken ? `\nMore: pageToken "${out.json.nextPageToken}"\n` : '';
    return { json: { issues, ...(out.json.nextPageToken ? { nextPageToken: out.json.nextPageToken } : {}) }, text: `${out.text}${more}`, code: EXIT.ok };
  },
});
