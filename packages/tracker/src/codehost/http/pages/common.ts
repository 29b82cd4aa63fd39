import type { FastifyInstance, FastifyRequest } from 'fastify';
import { userOfToken } from '../../domain/access.js';
import { notFound } from '../../domain/errors.js';
import type { CodeHost } from '../../domain/host.js';
import type { ChUser } from '../../domain/model.js';
import { setGitCallerLogin } from '../../git/slots.js';
import { GhError } from '../errors.js';
import { tokenOf } from '../rest/common.js';

/** What the code host's page routes (routes.ts, forms.ts, repo-routes.ts) share. */

/** The realm of the browser's sign-in prompt: git's (ARCHITECTURE §14), so one credential serves both. */
export const CHALLENGE = 'Basic realm="jst-tracker code host", charset="UTF-8"';
/**
 * The largest form body: a review or comment of BODY_MAX (65,536) characters, each up to 9 bytes
 * once urlencoded (a 3-byte character as three %XX), and the few other fields.
 */
export const FORM_BODY_MAX = 640 * 1024;

export interface RepoParams {
  owner: string;
  repo: string;
}
export interface PullParams extends RepoParams {
  number: string;
}

/** A page answer that is no GitHub error: a status, a title, lines, and a way back. */
export class PageRefusal extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly lines: string[],
    readonly back?: string,
  ) {
    super(title);
  }
}

/** The viewer: HTTP Basic with any user name and a code-host token as the password. */
export async function viewerOf(host: CodeHost, request: FastifyRequest): Promise<{ user: ChUser; tokenHash: string }> {
  const token = tokenOf(request.headers.authorization);
  const user = token === null ? null : await userOfToken(host, token);
  if (!user || token === null) throw new GhError(401, 'Bad credentials');
  setGitCallerLogin(user.login);
  return { user, tokenHash: host.hash(token) };
}

export const numberOf = (text: string): number => {
  if (!/^[1-9]\d{0,9}$/.test(text)) throw notFound();
  return Number(text);
};

/**
 * Whether a POST comes from one of this site's own pages: the browser says so (`Sec-Fetch-Site:
 * same-origin`), or, from a browser that does not send that header, its `Origin` is this site's.
 * A browser resends a Basic credential on a cross-site form post too, so every form needs this
 * (and its token). With the pages' `Referrer-Policy: no-referrer` a browser sends `Origin: null`
 * on its own same-origin posts, hence Sec-Fetch-Site first.
 */
export function sameOrigin(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin';
  const origin = request.headers.origin;
  return origin !== undefined && origin === `${request.protocol}://${request.host}`;
}

/** Before the sign-in: a cross-site post never makes the browser prompt for a credential. */
export function requireSameOrigin(request: FastifyRequest, what: string): void {
  if (!sameOrigin(request)) {
    throw new PageRefusal(403, 'Refused', [
      `This ${what} was not sent from this site's own pull request page, so it was not made. Open the pull request here and use the form there.`,
    ]);
  }
}

/** The fields of an urlencoded form body, the first value of each. */
export function formFields(body: unknown): Record<string, string> {
  return body !== null && typeof body === 'object' ? (body as Record<string, string>) : {};
}

/** The pages take one kind of body: a form, urlencoded (the first value of each field). */
export function formsOnly(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_MAX }, (_req, body, done) => {
    const fields: Record<string, string> = {};
    for (const [k, v] of new URLSearchParams(body as string)) if (!(k in fields)) fields[k] = v;
    done(null, fields);
  });
}
