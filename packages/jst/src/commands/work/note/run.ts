import type { Role } from '../../../config/index.js';
import type { Context } from '../../../core/context.js';
import type { Outcome } from '../../../core/output.js';
import { bodyText, writtenBody } from '../../../phase/body.js';
import { dirtyFiles, issueCheckout } from '../../../phase/checkout.js';
import { usage } from '../../../core/errors.js';
import { markedBody, TASK_MEMORY } from '../../../phase/markers.js';
import { finish, stepper } from '../../../phase/steps.js';

export interface NoteOptions {
  words: string[];
  bodyFile?: string | undefined;
  markdown?: boolean | undefined;
  json?: boolean | undefined;
}

/** `jst note [TEXT…] [--body-file F]` (ARCHITECTURE §11): the executor's task memory on the current issue. */
export async function noteOutcome(ctx: Context, role: Role, o: NoteOptions): Promise<Outcome> {
  const { say } = stepper(ctx);
  const text = bodyText(o, 'note');
  if (text === null)
    throw usage(
      'USAGE',
      ctx.tool ? `${ctx.tool} needs a non-empty text` : 'jst note needs the text of the note',
      ctx.tool ? 'Pass text: the note itself' : 'Pass it as words (jst note "parser done; UI next") or with --body-file F',
    );
  const here = await issueCheckout(ctx, 'jst note');
  const body = markedBody(TASK_MEMORY, [], writtenBody(text, o.markdown, o.bodyFile ?? 'the note'));
  say(`→ comment on ${here.key}: ${TASK_MEMORY}`);
  const posted = await ctx.client(role).addComment(here.key, body.adf);
  // The next step as it is: a commit first only when something is left uncommitted (what jst pr refuses on).
  const dirty = (await dirtyFiles(here.root, ctx.env).catch(() => ['?'])).length > 0;
  return finish(
    { key: here.key, commentId: posted.id, text: body.text },
    [`${here.key}: task memory saved (comment ${posted.id}); jst start prints it next time.`],
    [dirty ? 'There are uncommitted changes: commit them (git commit), then jst pr when the work is done' : 'When the work is done: jst pr'],
  );
}
