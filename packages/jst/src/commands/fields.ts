import { ISSUE_KEY_ANY_CASE } from '@jst/protocol';
import { field, type Z } from './define.js';

/** Inputs several commands share, declared once. */

export const issueKey = (z: Z) => z.string().check(z.regex(ISSUE_KEY_ANY_CASE, 'an issue key, e.g. ABC-1'));

/** `--markdown` / `markdown: true`: the text is CommonMark made into ADF nodes; without it the text stays literal (spec §2). */
export const markdown = (help: string) =>
  field({
    schema: (z) => z.optional(z.boolean()),
    description: 'read the text as Markdown (CommonMark + tables, strikethrough) and store it as ADF nodes; default: literal text',
    cli: { flag: '--markdown', help },
  });

export const MARKDOWN_HELP = 'the text is CommonMark, made into ADF nodes (headings, lists, code, tables…); without it it stays literal';

/** A file the CLI reads the text from; a tool passes the text itself. */
export const bodyFile = (help: string) => field({ schema: (z) => z.optional(z.string()), cli: { flag: '--body-file <file>', help }, tool: false });

/** A comma list on the CLI; a list or a comma list for a tool. */
export const fieldList = (description: string, cliHelp?: string) =>
  field({
    schema: (z) => z.optional(z.union([z.string(), z.array(z.string())])),
    description,
    cli: { flag: '--fields <list>', ...(cliHelp ? { help: cliHelp } : {}) },
  });

export const commaList = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v.join(',') : v);

/** A positional words list (`[notes...]`), or one string from a tool. */
export const words = (v: string | string[] | undefined): string[] => (Array.isArray(v) ? v.map(String) : typeof v === 'string' && v !== '' ? [v] : []);

/** The verdict's inputs the CLI's `jst review` shares (its --summary, --body-file, --markdown). */
export const VERDICT_FIELDS = {
  summary: field({
    schema: (z) => z.string(),
    description: "one line: the verdict's first line after the dash",
    cli: { flag: '--summary <text>', help: "the verdict's one-line summary" },
  }),
  bodyFile: bodyFile('the rest of the review'),
  body: field({ schema: (z) => z.optional(z.string()), description: 'the rest of the review' }),
  markdown: markdown(MARKDOWN_HELP),
};

const item = (z: Z) => ({
  summary: z.optional(z.string()),
  scope: z.optional(z.string()),
  acceptanceCriteria: z.optional(z.union([z.string(), z.array(z.string())])),
});

/** The plan-file object of ARCHITECTURE §7; the command itself checks it (unknown keys, open questions). */
export const PLAN_OBJECT = field({
  schema: (z) =>
    z.looseObject({
      request: z.optional(z.string().check(z.describe('what the person asked for'))),
      ...item(z),
      priority: z.optional(z.string().check(z.describe('e.g. Highest, High, Medium, Low'))),
      path: z.optional(z.enum(['planned', 'hotfix'])),
      markdown: z.optional(z.boolean()),
      steps: z.optional(z.array(z.looseObject(item(z))).check(z.describe('present and non-empty = multistep (a parent and one sub-task per step)'))),
    }),
  description: 'The plan-file object (jst plan --plan FILE): request, summary, scope, acceptanceCriteria, priority, path, steps',
});

export const FROM_BRANCH = field({
  schema: (z) => z.optional(z.string()),
  description:
    'plan from this branch, which is neither the default base nor the production branch, without asking (spec §1 rule 2); must name the current branch',
  cli: { flag: '--from-branch <name>' },
});
