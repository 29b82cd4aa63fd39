import type { Comment } from '@jst/client';
import { JstError, type Role } from '../../../config/index.js';
import type { Context } from '../../../core/context.js';
import { EXIT } from '../../../core/errors.js';
import { issueKeyArg } from '../../../core/issue-key.js';
import type { Outcome } from '../../../core/output.js';
import { documentFrom } from '../../../phase/document.js';

/** Adds a comment: literal text, Markdown or an ADF file. */
export async function commentAdd(
  ctx: Context,
  role: Role,
  key: string,
  o: { bodyFile?: string | undefined; adfFile?: string | undefined; stdin?: boolean; markdown?: boolean | undefined },
): Promise<Outcome<Comment>> {
  key = issueKeyArg(key); // abc-1 = ABC-1
  const body = await documentFrom(ctx, { textFile: o.bodyFile, adfFile: o.adfFile, stdin: o.stdin ?? false, markdown: o.markdown }, 'comment body');
  if (!body) throw new JstError({ code: 'USAGE', problem: 'no comment body', hint: 'Pass --body-file F, --adf-file F or - (stdin)' });
  const c = await ctx.client(role).addComment(key, body);
  return { json: c, text: `comment ${c.id} added to ${key}\n`, code: EXIT.ok };
}
