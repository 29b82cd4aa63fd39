/** What a failed call told us, as a message that says what failed and what to do. No credential is ever included. */
export class TrackerHttpError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly errorMessages: string[],
    readonly errors: Record<string, string>,
    readonly loginReason?: string,
  ) {
    super(describe(method, path, status, errorMessages, errors));
    this.name = 'TrackerHttpError';
  }

  /** The vendor's own words, joined. */
  get vendorMessage(): string {
    return [...this.errorMessages, ...Object.entries(this.errors).map(([k, v]) => `${k}: ${v}`)].join('; ');
  }
}

export class TrackerNetworkError extends Error {
  constructor(
    readonly method: string,
    readonly url: string,
    /** What the network said (`ECONNREFUSED (connect ECONNREFUSED 127.0.0.1:9)`), for a caller's own message. */
    readonly detail: string,
  ) {
    super(
      joinSentences(
        `${method} ${url} could not be completed: ${detail}`,
        'Check that the tracker address (TRACKER_ACCOUNT_URL / TRACKER_GATEWAY_URL) is right and reachable.',
      ),
    );
    this.name = 'TrackerNetworkError';
  }
}

/** A 2xx answer in JSON that is not what the call gives (ARCHITECTURE §11): never used. */
export class TrackerShapeError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    what: string,
  ) {
    super(
      `${method} ${path} answered something that is not ${what}: the address reaches something other than the tracker's REST API, or a tracker jst does not know; check TRACKER_ACCOUNT_URL and TRACKER_GATEWAY_URL`,
    );
    this.name = 'TrackerShapeError';
  }
}

/**
 * A 2xx answer whose body is not JSON (issue 14 item 5): a login page, a proxy's error page or
 * another service at the configured address. Never a success.
 */
export class TrackerResponseError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    contentType: string | undefined,
    text: string,
  ) {
    const start = text.replace(/\s+/g, ' ').trim().slice(0, 60);
    super(
      `${method} ${path} answered HTTP ${status} with a body that is not JSON (${contentType ? `content-type ${contentType}, ` : ''}starting ${JSON.stringify(start)}): the address reaches something other than the tracker's REST API (a proxy or a login page); check TRACKER_ACCOUNT_URL and TRACKER_GATEWAY_URL`,
    );
    this.name = 'TrackerResponseError';
  }
}

function hint(status: number, text: string): string {
  if (status === 401 && /scope does not match/i.test(text)) {
    return 'The token is valid but lacks a scope this operation needs: this is not a credential problem; grant the scope or use a classic token.';
  }
  if (status === 401 && /AUTHENTICATED_FAILED/.test(text)) {
    return 'A scoped token works only through the API gateway: check TRACKER_GATEWAY_URL.';
  }
  if (status === 401) return 'The e-mail and token were refused: the token may be stale or revoked. Create a new API token and update .jst/local.env.';
  if (status === 403) return 'Your account can see this but may not change it: ask a project admin for the permission.';
  if (status === 404) return 'It does not exist, or your account may not see it (the tracker answers both with 404): check the key and the project membership.';
  if (status === 429) return 'The tracker is rate-limiting: wait and retry.';
  return '';
}

/** Two sentences as one message: a period between them unless the first already ends in punctuation. */
export function joinSentences(first: string, second: string): string {
  if (second === '') return first;
  if (first === '') return second;
  return /[.?!:;]$/.test(first.trimEnd()) ? `${first.trimEnd()} ${second}` : `${first}. ${second}`;
}

function describe(method: string, path: string, status: number, errorMessages: string[], errors: Record<string, string>): string {
  const vendor = [...errorMessages, ...Object.entries(errors).map(([k, v]) => `${k}: ${v}`)].join('; ');
  const h = hint(status, vendor);
  return joinSentences(`${method} ${path} failed with HTTP ${status}${vendor ? `: ${cutQuote(vendor)}` : ''}`, h);
}

/** At most this many characters of the tracker's own words in a message (docs/limits.md); `vendorMessage` keeps them all. */
export const QUOTE_MAX = 300;

/** The tracker's words as a message quotes them: one line, cut to QUOTE_MAX characters saying how many were left out. */
function cutQuote(text: string): string {
  const one = text.replace(/\s*[\r\n]+\s*/g, ' ');
  if (one.length <= QUOTE_MAX) return one;
  const end = /[\ud800-\udbff]/.test(one[QUOTE_MAX - 1] ?? '') ? QUOTE_MAX - 1 : QUOTE_MAX;
  return `${one.slice(0, end)}… (${one.length - end} more characters)`;
}
