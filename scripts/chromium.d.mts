import type { BrowserContext } from 'playwright-core';

export declare const CHROMIUM: string;
export declare const CHROMIUM_ARGS: readonly string[];
export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}
export declare function launchChromium(credentials?: { username: string; password: string }): Promise<Browser>;
