import { existsSync } from 'node:fs';
import { CHROMIUM, launchChromium, type Browser } from '../../scripts/chromium.mjs';

export type { Browser };

/**
 * Whether browser tests run here: yes when Chromium is installed. Without it they skip with a
 * printed notice, unless JST_REQUIRE_BROWSER=1 (CI), where a missing browser is a failure.
 */
export function browserAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.JST_REQUIRE_BROWSER === '1') {
    throw new Error(`JST_REQUIRE_BROWSER=1 but ${CHROMIUM} is missing: install it with "apt-get install -y chromium".`);
  }
  process.stderr.write(`notice: browser tests skipped: ${CHROMIUM} is missing (apt-get install -y chromium; JST_REQUIRE_BROWSER=1 makes this a failure)\n`);
  return false;
}

/** A fresh headless Chromium (its own throw-away profile) that answers Basic prompts with these credentials. */
export const openBrowser = (credentials?: { username: string; password: string }): Promise<Browser> => launchChromium(credentials);

/**
 * A page in a fresh Chromium signed in with these credentials (the browser kept in `browsers` for
 * the caller to close), watching what a page must never do: open a dialog (an injected
 * `alert(…)`, dismissed) or break its Content-Security-Policy (the console's reports).
 */
export async function watchedPage(browsers: Browser[], credentials: { username: string; password: string }) {
  const b = await openBrowser(credentials);
  browsers.push(b);
  const page = await b.context.newPage();
  const dialogs: string[] = [];
  const violations: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('console', (m) => {
    if (/Content.Security.Policy/i.test(m.text())) violations.push(m.text());
  });
  return { page, dialogs, violations };
}
