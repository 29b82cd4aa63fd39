import { existsSync } from 'node:fs';
import { chromium, type Browser as Chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, type Browser } from '../../scripts/chromium.mjs';

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

/**
 * One Chromium per test process, and a browser context per "browser" a test opens. A context is
 * Chromium's own isolation of a profile (its cookies, storage, cache and HTTP credentials, as an
 * incognito window), so each test still signs in from nothing; what is shared is the program. A
 * launch cost ~1.9 s on a 2-CPU machine where a context costs ~0.6 s (2026-11-28), and the browser
 * tests open some 90. The process goes 5 s after its last context closes, and with the test process
 * in any case: Playwright talks to it over a pipe, and Chromium exits when that pipe closes.
 */
let shared: Promise<Chromium> | null = null;
let contexts = 0;
let idle: NodeJS.Timeout | undefined;
const IDLE_MS = 5000;

function chromiumProcess(): Promise<Chromium> {
  if (shared === null) {
    const launched = chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS] });
    shared = launched;
    launched.then(
      (b) =>
        b.on('disconnected', () => {
          if (shared === launched) shared = null;
        }),
      () => {
        if (shared === launched) shared = null;
      },
    );
  }
  return shared;
}

/** A fresh browser context (nothing of another test's) that answers Basic prompts with these credentials. */
export async function openBrowser(credentials?: { username: string; password: string }): Promise<Browser> {
  clearTimeout(idle);
  const context = await (
    await chromiumProcess()
  ).newContext({ viewport: { width: 1280, height: 800 }, ...(credentials ? { httpCredentials: credentials } : {}) });
  contexts++;
  let closed = false;
  return {
    context,
    async close() {
      if (closed) return;
      closed = true;
      await context.close();
      if (--contexts > 0) return;
      const closing = shared;
      idle = setTimeout(() => {
        if (contexts === 0 && shared === closing && closing !== null) {
          shared = null;
          void closing.then((b) => b.close()).catch(() => undefined);
        }
      }, IDLE_MS);
      idle.unref();
    },
  };
}

/**
 * A page in a fresh browser context signed in with these credentials (kept in `browsers` for the
 * caller to close), watching what a page must never do: open a dialog (an injected `alert(…)`,
 * dismissed) or break its Content-Security-Policy (the console's reports).
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
