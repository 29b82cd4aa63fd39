// Debian's Chromium driven by playwright-core: the path and flags for the browser tests
// (test/support/browser.ts, one Chromium per test process) and a launch of its own for the
// screenshots (scripts/screenshot-board.mjs, scripts/screenshot-review.mjs).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

/** `apt-get install -y chromium` puts it here (.ci/run does). */
export const CHROMIUM = '/usr/bin/chromium';

/** Headless, no sandbox (root in CI), and nothing that reaches the network on its own. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A fresh Chromium with a throw-away profile that answers Basic prompts with `credentials`, if given. */
export async function launchChromium(credentials) {
  const profile = mkdtempSync(join(tmpdir(), 'jst-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
    ...(credentials ? { httpCredentials: credentials } : {}),
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
