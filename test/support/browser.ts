import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Debian's Chromium (`apt-get install -y chromium`; .ci/run installs it). */
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

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

export interface Browser { context: BrowserContext; close(): Promise<void> }

/** A fresh headless Chromium (its own throw-away profile) that answers Basic prompts with these credentials. */
export async function openBrowser(credentials?: { username: string; password: string }): Promise<Browser> {
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
