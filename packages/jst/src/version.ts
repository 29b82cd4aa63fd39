/** Replaced at bundle time; the fallback is for runs from the TypeScript sources. */
declare const __JST_VERSION__: string | undefined;
export const VERSION = typeof __JST_VERSION__ === 'string' ? __JST_VERSION__ : '0.1.0';
