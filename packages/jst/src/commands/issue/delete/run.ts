import { createInterface } from 'node:readline/promises';
import { TrackerHttpError } from '@jst/client';
import { JstError, type Role } from '../../../config/index.js';
import type { Context } from '../../../core/context.js';
import { EXIT } from '../../../core/errors.js';
import { issueKeyArg } from '../../../core/issue-key.js';
import { printed, type Outcome } from '../../../core/output.js';

/** spec §4 client rule 6: deletes only a key named twice (typed again, or --yes KEY). */
export async function issueDelete(
  ctx: Context,
  role: Role,
  key: string,
  o: { withSubtasks?: boolean | undefined; yes?: string | undefined },
): Promise<Outcome> {
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
      return printed(EXIT.question);
    }
    const rl = createInterface({ input: ctx.io.stdin, output: ctx.io.stderr as NodeJS.WritableStream });
    const answer = (await rl.question(`Type ${key} to delete it${o.withSubtasks ? ' with its sub-tasks' : ''}: `)).trim();
    rl.close();
    if (issueKeyArg(answer) !== key) {
      ctx.io.stderr.write('Not deleted: the key typed did not match.\n');
      return printed(EXIT.usage);
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
  return { json: { key, deleted: true }, text: `${key} deleted\n`, code: EXIT.ok };
}
