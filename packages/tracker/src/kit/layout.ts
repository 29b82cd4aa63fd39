import { html, type Html } from './html.js';

/**
 * The frame of every web page the server shows (the board's and the code host's review pages):
 * one stylesheet, one deferred script, the security headers, nothing inline.
 */

/** Where the board's static files are served (no data in them, no authentication needed). */
export const ASSETS = '/_board/assets';

/**
 * Headers on every board response: scripts and styles only from this origin, no inline script or
 * style attribute anywhere (so no 'unsafe-inline'), never framed, never sniffed, no referrer.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; object-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

export interface PageOptions {
  title: string;
  /** Shown in the header: who is signed in. */
  viewer?: string | undefined;
  /** The project the page belongs to: its poll address and the version it was rendered at. */
  poll?: { projectKey: string; version: string } | undefined;
  /** The header's filter form (board pages only). */
  filter?: Html | undefined;
}

/** The page around a body: one stylesheet, one deferred script, nothing inline. */
export function page(options: PageOptions, main: Html): string {
  const poll = options.poll;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · jst-tracker</title>
<link rel="stylesheet" href="${ASSETS}/board.css">
<script src="${ASSETS}/board.js" defer></script>
</head>
<body${poll ? html` data-poll="/_board/version/${poll.projectKey}" data-version="${poll.version}"` : ''}>
<header class="top">
<a class="brand" href="/">jst-tracker</a>
${options.filter ?? ''}
${options.viewer ? html`<span class="viewer">${options.viewer}</span>` : ''}
</header>
<p id="flash" class="flash" role="status" hidden></p>
${main}
</body>
</html>
`.text;
}

/** A page that says what went wrong and shows no data (401, 404, 400 outside a board). */
export function messagePage(title: string, lines: string[]): string {
  return page({ title }, html`<main class="message"><h1>${title}</h1>${lines.map((l) => html`<p>${l}</p>`)}</main>`);
}
