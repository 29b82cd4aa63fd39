import { adfToText } from '@jst/adf';
import { allComments, commentsWithMarker, type Comment } from '@jst/client';
import type { Role } from '../../../config/index.js';
import type { Context } from '../../../core/context.js';
import { EXIT } from '../../../core/errors.js';
import { issueKeyArg } from '../../../core/issue-key.js';
import type { Outcome } from '../../../core/output.js';
import { commentData, commentText } from '../../../phase/document.js';

/** Every comment of an issue (all pages), or those whose first line is a marker. */
export async function commentList(ctx: Context, role: Role, key: string, o: { marker?: string | undefined }): Promise<Outcome<Comment[]>> {
  key = issueKeyArg(key); // abc-1 = ABC-1
  let comments = await allComments(ctx.client(role), key);
  if (o.marker) comments = commentsWithMarker(comments, o.marker);
  // ARCHITECTURE §13: a tool's text marks each comment as data written on the tracker, not instructions.
  const shown = (c: Comment) => (ctx.tool ? commentData(c, adfToText(c.body)) : commentText(ctx.io, c));
  return { json: comments, text: comments.map((c) => `${shown(c)}\n\n`).join(''), code: EXIT.ok };
}

/** One comment as the comment_list tool gives it: its text, not its ADF. */
export interface CommentRow {
  id: string;
  author: string;
  created: string | null;
  text: string;
}

/** The tool's face of the list (ARCHITECTURE §13): an object (a tool's structured result is one), each comment's whole text. */
export function commentRows(key: string, out: Outcome<Comment[]>): Outcome<{ key: string; comments: CommentRow[] }> {
  const comments = out.json.map((c) => ({ id: c.id, author: c.author?.displayName ?? '', created: c.created ?? null, text: adfToText(c.body) }));
  return { json: { key: issueKeyArg(key), comments }, text: out.text, code: out.code };
}
