import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendHtml } from '../../../kit/pages.js';
import { repoFor } from '../../domain/access.js';
import { createComment } from '../../domain/comments.js';
import { CodehostError, noPush } from '../../domain/errors.js';
import type { CodeHost } from '../../domain/host.js';
import { BODY_MAX } from '../../domain/limits.js';
import type { ChUser } from '../../domain/model.js';
import { updatePull } from '../../domain/pulls.js';
import { FormTokens, loadReviewPage, type PageForm } from '../../domain/review-page.js';
import { createReview } from '../../domain/reviews.js';
import type { RepoAccess } from '../../domain/views.js';
import { formFields, numberOf, PageRefusal, requireSameOrigin, viewerOf, type PullParams } from './common.js';
import type { FormDraft } from './forms-view.js';
import { pullPath } from './frame.js';
import { reviewPage } from './review-view.js';

/**
 * The conversation page's forms (ARCHITECTURE §22 "Forms"): a review, a comment, close and reopen.
 * Each calls the very domain function its REST operation calls (reviews.ts createReview,
 * comments.ts createComment, pulls.ts updatePull) and so refuses what it refuses, in GitHub's
 * words; each is guarded as the Merge button is (same origin, before the sign-in; a token made for
 * this credential, pull request and form; the pages' SameSite-free Basic credential is why).
 * Done: 303 back to the pull request (Post/Redirect/Get). Refused: the conversation again, 422,
 * with the refusal (escaped) above the forms and the form filled in as it was sent.
 */

/** The conversation page, with the viewer's form tokens (none for a reader) and an optional refusal. */
export async function sendConversation(
  host: CodeHost,
  forms: FormTokens,
  reply: FastifyReply,
  viewer: { user: ChUser; tokenHash: string },
  a: RepoAccess,
  n: number,
  status = 200,
  refusal?: { lines: string[]; draft: FormDraft },
): Promise<FastifyReply> {
  const view = await loadReviewPage(host, a, n);
  const writer = view.canWrite;
  const id = a.repo.id;
  const formToken = (f: PageForm) => forms.makeFor(f, viewer.tokenHash, id, n);
  return sendHtml(
    reply,
    status,
    reviewPage(view, viewer.user, {
      mergeToken: writer ? forms.make(viewer.tokenHash, id, n, view.detail.headSha) : '',
      formTokens: writer ? { review: formToken('review'), comment: formToken('comment'), close: formToken('close'), reopen: formToken('reopen') } : null,
      refusal,
    }),
  );
}

const LABELS: Record<PageForm, string> = { review: 'review', comment: 'comment', close: 'close', reopen: 'reopen' };

/** The sentences a domain refusal carries (GitHub's `errors[]` messages, or its notes). */
function refusalLines(e: CodehostError): string[] {
  const lines = [...e.notes, ...e.problems.flatMap((p) => (p.message !== undefined ? [p.message] : []))];
  return lines.length > 0 ? lines : [e.message];
}

export function pullFormRoutes(app: FastifyInstance, host: CodeHost, forms: FormTokens): void {
  /** The checks every form passes before it does anything: origin, sign-in, read (404 else), write, token. */
  async function formOf(request: FastifyRequest<{ Params: PullParams }>, form: PageForm) {
    requireSameOrigin(request, LABELS[form]);
    const viewer = await viewerOf(host, request);
    const a = await repoFor(host, viewer.user, request.params.owner, request.params.repo, 'read');
    const n = numberOf(request.params.number);
    if (a.permission === 'read') throw noPush();
    const fields = formFields(request.body);
    const back = pullPath(a.repo, n);
    if (!forms.checkFor(form, fields.token ?? '', viewer.tokenHash, a.repo.id, n)) {
      throw new PageRefusal(
        403,
        'Refused',
        [`The ${LABELS[form]} form is out of date or was not made for you: reload the pull request's page and send it again.`],
        back,
      );
    }
    return { viewer, a, n, fields, back };
  }

  /** Runs a form's domain call; a refusal of the domain's is the page again, 422, with the refusal. */
  async function attempt(
    reply: FastifyReply,
    ctx: Awaited<ReturnType<typeof formOf>>,
    draft: FormDraft,
    run: () => Promise<string>,
    precheck: string[] = [],
  ): Promise<FastifyReply> {
    if (precheck.length > 0) return sendConversation(host, forms, reply, ctx.viewer, ctx.a, ctx.n, 422, { lines: precheck, draft });
    let anchor: string;
    try {
      anchor = await run();
    } catch (e) {
      if (e instanceof CodehostError && (e.kind === 'refused' || e.kind === 'invalid')) {
        return sendConversation(host, forms, reply, ctx.viewer, ctx.a, ctx.n, 422, { lines: refusalLines(e), draft });
      }
      throw e;
    }
    return reply.code(303).header('location', `${ctx.back}${anchor}`).send();
  }

  const tooLong = (body: string) => (body.length > BODY_MAX ? [`Body is too long (maximum is ${BODY_MAX} characters)`] : []);

  app.post<{ Params: PullParams }>('/:owner/:repo/pull/:number/reviews', async (request, reply) => {
    const ctx = await formOf(request, 'review');
    const body = ctx.fields.body ?? '';
    const event = ctx.fields.event ?? 'COMMENT';
    const draft: FormDraft = { form: 'review', body, event };
    const known = event === 'COMMENT' || event === 'APPROVE' || event === 'REQUEST_CHANGES';
    const sha = ctx.fields.sha ?? '';
    const precheck = [...tooLong(body), ...(known ? [] : ['event must be one of APPROVE, REQUEST_CHANGES, COMMENT'])];
    return attempt(
      reply,
      ctx,
      draft,
      async () => {
        const { review } = await createReview(host, ctx.a, ctx.n, {
          event: event as 'COMMENT' | 'APPROVE' | 'REQUEST_CHANGES',
          body,
          commit_id: /^[0-9a-f]{40}$/.test(sha) ? sha : null,
        });
        return `#pullrequestreview-${review.review.id}`;
      },
      precheck,
    );
  });

  app.post<{ Params: PullParams }>('/:owner/:repo/pull/:number/comments', async (request, reply) => {
    const ctx = await formOf(request, 'comment');
    const body = ctx.fields.body ?? '';
    const precheck = [...tooLong(body), ...(body.trim() === '' ? ['Body cannot be blank'] : [])];
    return attempt(reply, ctx, { form: 'comment', body }, async () => `#issuecomment-${(await createComment(host, ctx.a, ctx.n, body)).comment.id}`, precheck);
  });

  for (const form of ['close', 'reopen'] as const) {
    app.post<{ Params: PullParams }>(`/:owner/:repo/pull/:number/${form}`, async (request, reply) => {
      const ctx = await formOf(request, form);
      return attempt(reply, ctx, { form, body: '' }, async () => {
        const detail = await updatePull(host, ctx.a, ctx.n, { state: form === 'close' ? 'closed' : 'open' });
        // updatePull leaves a merged pull request as it is; GitHub's words for why.
        if (form === 'close' && detail.pull.merged === 1)
          throw new CodehostError('refused', 'Unprocessable Entity', [], ['state cannot be changed. The pull request has been merged.']);
        return '';
      });
    });
  }
}
