/**
 * The size limits jst-tracker holds every caller to, as the hosted service does (docs/limits.md
 * lists each with its answer and how to change it). One place, so the docs, the rules and the
 * tests agree.
 */

/**
 * Longest rich-text field (description, comment body), counted as the hosted service counts it:
 * characters (UTF-16 code units, as a Java string counts them) of the field's stored JSON, so
 * ADF's own markup counts too and a document's node count is bounded with it.
 */
export const TEXT_FIELD_MAX = 32_767;

/** The vendor's words for a field over TEXT_FIELD_MAX, in `errors.<field>`. */
export const TEXT_TOO_LONG = 'The entered text is too long. It exceeds the allowed limit of 32,767 characters.';

/** Most comments one issue may carry; the next POST …/comment is 400. */
export const COMMENTS_PER_ISSUE_MAX = 5_000;

/**
 * Most comments in one answer: the `comment` field of GET /issue and of a search (the newest
 * pages are read with GET …/comment), and GET …/comment's own `maxResults` cap (its default).
 */
export const COMMENT_PAGE_MAX = 100;

/** Default request-body cap in bytes (`--body-limit`); a valid body is far smaller (see docs/limits.md). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
