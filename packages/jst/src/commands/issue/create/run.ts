import { createInterface } from 'node:readline/promises';
import { validateAdf, type AdfDoc } from '@jst/adf';
import { TrackerHttpError, accountIdByEmail, assignByEmail, transitionTo, type IssueFields } from '@jst/client';
import { JstError, requireRoleEmail, type Role } from '../../../config/index.js';
import type { Context } from '../../../core/context.js';
import { EXIT } from '../../../core/errors.js';
import { line, printJson } from '../../../core/output.js';
import { textDocument } from '../../../phase/document.js';
import { issueKeyArg } from '../../../core/issue-key.js';
import { readFileArg, readStdin } from '../../../phase/input.js';
import { wantsJson, type OutputOptions } from '../view/run.js';

/**
 * Plain text → one ADF paragraph per non-empty line (nothing interpreted), Markdown → ADF nodes
 * with `markdown`, or an ADF file checked locally.
 */
async function documentFrom(
  ctx: Context,
  o: { textFile?: string | undefined; adfFile?: string | undefined; stdin?: boolean; markdown?: boolean | undefined },
  what: string,
): Promise<AdfDoc | undefined> {
  const given = [o.textFile, o.adfFile, o.stdin ? '-' : undefined].filter((x) => x !== undefined);
  if (given.length > 1)
    throw new JstError({ code: 'USAGE', problem: `give the ${what} one way only`, hint: 'Use one of a text file, an ADF file or - (stdin)' });
  if (o.adfFile) {
    if (o.markdown)
      throw new JstError({
        code: 'USAGE',
        problem: '--markdown applies to text, not to --adf-file',
        hint: 'Drop --markdown, or pass the Markdown as a text file',
      });
    const text = readFileArg(o.adfFile, 'ADF');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      throw new JstError({ code: 'USAGE', problem: `${o.adfFile} is not JSON: ${(e as Error).message}` });
    }
    const v = validateAdf(json);
    if (!v.ok)
      throw new JstError({
        code: 'USAGE',
        problem: `${o.adfFile} is not valid ADF: ${v.message} at ${v.path}`,
        hint: 'Fix the document, or pass plain text with a text file instead',
      });
    return v.doc;
  }
  const fromStdin = o.stdin || o.textFile === '-';
  if (!fromStdin && !o.textFile) return undefined;
  const text = fromStdin ? await readStdin(ctx.io) : readFileArg(o.textFile!, what);
  return textDocument(text, o.markdown ?? false, fromStdin ? `the ${what} on standard input` : o.textFile!);
}

/** EMAIL | @me | executor (the executor's e-mail from local configuration only, spec §1 rule 9). */
function resolveWho(ctx: Context, who: string): string {
  return who === 'executor' ? requireRoleEmail(ctx.config(), 'executor') : who;
}

export interface CreateOptions extends OutputOptions {
  type: string;
  summary: string;
  parent?: string;
  assignee?: string;
  project?: string;
  descriptionFile?: string;
  adfFile?: string;
  description?: string;
  markdown?: boolean;
}

/** spec §4 endpoint 6 / client rule 3: prints the new key (or {id, key, self} with --json). */
export async function issueCreate(ctx: Context, role: Role, o: CreateOptions): Promise<number> {
  if (o.type !== 'Task' && o.type !== 'Subtask') throw new JstError({ code: 'USAGE', problem: `--type must be Task or Subtask (got "${o.type}")` });
  if (o.type === 'Subtask' && !o.parent) throw new JstError({ code: 'USAGE', problem: 'a Subtask needs --parent KEY' });
  if (o.type === 'Task' && o.parent) throw new JstError({ code: 'USAGE', problem: 'only a Subtask takes --parent' });
  if (o.description !== undefined && o.description !== '-')
    throw new JstError({ code: 'USAGE', problem: '--description takes only - (read plain text from stdin)', hint: 'Use --description-file F for a file' });
  const project = o.project ?? ctx.config().projectKey;
  if (!project)
    throw new JstError({
      code: 'CONFIG',
      problem: 'no project key',
      setting: 'PROJECT_KEY',
      file: ctx.config().files.team,
      hint: 'Set PROJECT_KEY in .jst/team.env or pass --project KEY',
    });
  const description = await documentFrom(
    ctx,
    { textFile: o.descriptionFile, adfFile: o.adfFile, stdin: o.description === '-', markdown: o.markdown },
    'description',
  );
  const client = ctx.client(role);
  const fields: IssueFields = { project: { key: project }, issuetype: { name: o.type }, summary: o.summary };
  if (description) fields.description = description;
  if (o.parent) fields.parent = { key: issueKeyArg(o.parent) };
  if (o.assignee) {
    const who = resolveWho(ctx, o.assignee);
    fields.assignee = { accountId: who === '@me' ? (await client.myself()).accountId : await accountIdByEmail(client, who) };
  }
  const created = await client.createIssue(fields);
  if (o.json) printJson(ctx.io, created);
  else line(ctx.io, created.key);
  return EXIT.ok;
}

/** spec §4 client rule 4: EMAIL | @me | executor | none. */
export async function issueAssign(ctx: Context, role: Role, key: string, who: string, o: OutputOptions): Promise<number> {
  key = issueKeyArg(key); // abc-1 = ABC-1
  const accountId = await assignByEmail(ctx.client(role), key, who === 'none' ? null : resolveWho(ctx, who));
  if (wantsJson(ctx, o)) printJson(ctx.io, { key, accountId });
  else line(ctx.io, accountId ? `${key} assigned to ${accountId}` : `${key} unassigned`);
  return EXIT.ok;
}

/** spec §4 client rule 5: by destination status name; none matching stops with nothing posted. */
export async function issueTransition(ctx: Context, role: Role, key: string, status: string, o: OutputOptions): Promise<number> {
  key = issueKeyArg(key); // abc-1 = ABC-1
  const t = await transitionTo(ctx.client(role), key, status);
  if (wantsJson(ctx, o)) printJson(ctx.io, { key, status, transition: { id: t.id, name: t.name } });
  else line(ctx.io, `${key} → ${status} (transition "${t.name}", id ${t.id})`);
  return EXIT.ok;
}

/** spec §4 client rule 6: deletes only a key named twice (typed again, or --yes KEY). */
export async function issueDelete(ctx: Context, role: Role, key: string, o: OutputOptions & { withSubtasks?: boolean; yes?: string }): Promise<number> {
  key = issueKeyArg(key); // abc-1 = ABC-1
  if (o.yes !== undefined && issueKeyArg(o.yes) !== key) {
    throw new JstError({
      code: 'USAGE',
      problem: `--yes ${o.yes} does not repeat the key ${key}`,
      hint: 'Name the issue to delete twice: jst issue delete KEY --yes KEY',
    });
  }
  if (o.yes === undefined) {
    if (!ctx.io.interactive) {
      ctx.io.stderr.write(`Delete ${key}${o.withSubtasks ? ' and its sub-tasks' : ''}? Confirm by passing --yes ${key}.\n`);
      return EXIT.question;
    }
    const rl = createInterface({ input: ctx.io.stdin, output: ctx.io.stderr as NodeJS.WritableStream });
    const answer = (await rl.question(`Type ${key} to delete it${o.withSubtasks ? ' with its sub-tasks' : ''}: `)).trim();
    rl.close();
    if (issueKeyArg(answer) !== key) {
      ctx.io.stderr.write('Not deleted: the key typed did not match.\n');
      return EXIT.usage;
    }
  }
  try {
    await ctx.client(role).deleteIssue(key, o.withSubtasks ?? false);
  } catch (e) {
    // The tracker's remedy names its API parameter (deleteSubtasks=true); a jst user's is the flag.
    if (e instanceof TrackerHttpError && e.status === 400 && !o.withSubtasks && /sub-?tasks?/i.test(e.vendorMessage)) {
      throw new JstError({
        code: 'HAS_SUBTASKS',
        exitCode: EXIT.failed,
        problem: `${key} has sub-tasks, so it was not deleted (nothing was)`,
        hint: `Rerun with --with-subtasks to delete it together with them: jst --role ${role} issue delete ${key} --with-subtasks --yes ${key}`,
      });
    }
    throw e;
  }
  if (wantsJson(ctx, o)) printJson(ctx.io, { key, deleted: true });
  else line(ctx.io, `${key} deleted`);
  return EXIT.ok;
}

export async function commentAdd(
  ctx: Context,
  role: Role,
  key: string,
  o: OutputOptions & { bodyFile?: string; adfFile?: string; stdin?: boolean; markdown?: boolean },
): Promise<number> {
  key = issueKeyArg(key); // abc-1 = ABC-1
  const body = await documentFrom(ctx, { textFile: o.bodyFile, adfFile: o.adfFile, stdin: o.stdin ?? false, markdown: o.markdown }, 'comment body');
  if (!body) throw new JstError({ code: 'USAGE', problem: 'no comment body', hint: 'Pass --body-file F, --adf-file F or - (stdin)' });
  const c = await ctx.client(role).addComment(key, body);
  if (o.json) printJson(ctx.io, c);
  else line(ctx.io, `comment ${c.id} added to ${key}`);
  return EXIT.ok;
}
