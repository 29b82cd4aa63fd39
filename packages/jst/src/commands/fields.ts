import { JstError } from '../config/index.js';
import { EXIT } from '../core/errors.js';
import { field, type Z } from './define.js';

/** Inputs several commands share, declared once. */

const KEY_PATTERN = /^[A-Za-z][A-Za-z0-9_]*-[1-9][0-9]*$/;

export const issueKey = (z: Z) => z.string().check(z.regex(KEY_PATTERN, 'an issue key, e.g. ABC-1'));

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

/** A usage error (exit 2) from a spec's own input checks; the same shape as phase/locate.ts's. */
export const usageError = (problem: string, hint?: string) => new JstError({ code: 'USAGE', exitCode: EXIT.usage, problem, ...(hint ? { hint } : {}) });
