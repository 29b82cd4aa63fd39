/** The code host's limits, as GitHub's (docs/limits.md lists them with the tracker's). */
export const TITLE_MAX = 256;
/** Pull request bodies, review bodies and comments: GitHub's 65,536 characters. */
export const BODY_MAX = 65_536;
/** `per_page` is clamped to this, as GitHub does. */
export const PER_PAGE_MAX = 100;
export const PER_PAGE_DEFAULT = 30;
/** A pull request's commits listing stops at 250, its files listing at 3,000 (GitHub's numbers). */
export const PULL_COMMITS_MAX = 250;
export const PULL_FILES_MAX = 3000;
/** A file's patch is left out above this many bytes, as GitHub leaves out a large file's diff. */
export const PATCH_BYTES_MAX = 512 * 1024;
/** Patch text in one page of a files listing; files past it come without `patch`. */
export const PAGE_PATCH_BYTES_MAX = 2 * 1024 * 1024;
/** Largest JSON request body of the REST interface. */
export const REST_BODY_MAX = 1024 * 1024;
/** Default cap of one push (`jst-tracker serve --push-limit MB`). */
export const DEFAULT_PUSH_LIMIT_MB = 100;
/** A merge claim older than this is taken to belong to a process that died mid-merge. */
export const MERGE_CLAIM_STALE_MS = 5 * 60 * 1000;
/** Comments on one pull request, and reviews of one: as the tracker's 5,000 comments per issue, so no caller can grow one without end. */
export const COMMENTS_MAX = 5000;
export const REVIEWS_MAX = 5000;
/** Webhooks (ARCHITECTURE §22; docs/limits.md "Webhooks"): per repository, as GitHub's 20. */
export const HOOKS_PER_REPO_MAX = 20;
/** A hook's URL, in characters. */
export const HOOK_URL_MAX = 2048;
/** A hook's secret, in characters (an empty secret is no secret). */
export const HOOK_SECRET_MAX = 256;
/** A payload is not sent above GitHub's 25 MB; its delivery is recorded as failed, saying so. */
export const HOOK_PAYLOAD_MAX = 25 * 1024 * 1024;
/** A push payload lists at most 20 commits, as GitHub's. */
export const PUSH_COMMITS_MAX = 20;
/** Deliveries kept per hook (the newest; queued ones are kept until sent). */
export const DELIVERIES_KEPT = 500;
/** How long a delivery may take: connect, send, answer (GitHub's 10 s). */
export const HOOK_TIMEOUT_MS = 10_000;
/** Bytes of a receiver's answer read (and kept) at most; the rest is not read. */
export const HOOK_RESPONSE_MAX = 64 * 1024;
