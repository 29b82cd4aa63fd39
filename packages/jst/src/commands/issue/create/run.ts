import { accountIdByEmail, type CreatedIssue, type IssueFields } from '@jst/client';
import { JstError, type Role } from '../../../config/index.js';
import type { Context } from '../../../core/context.js';
import { EXIT } from '../../../core/errors.js';
import { issueKeyArg } from '../../../core/issue-key.js';
import type { Outcome } from '../../../core/output.js';
import { documentFrom } from '../../../phase/document.js';
import { resolveWho } from '../../../phase/roles.js';

export interface CreateOptions {
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
export async function issueCreate(ctx: Context, role: Role, o: CreateOptions): Promise<Outcome<CreatedIssue>> {
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
  return { json: created, text: `${created.key}\n`, code: EXIT.ok };
}
