import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS, LIMIT_SETTINGS } from '@jst/client';
import { JstError } from './errors.js';

/** The bounds of every tracker call (docs/limits.md "## jst"), from the process environment. */
export interface ClientLimits {
  timeoutMs: number;
  maxResponseBytes: number;
}

/** Reads JST_TIMEOUT_MS and JST_MAX_RESPONSE_BYTES; a value that is not a positive whole number is a usage error. */
export function clientLimits(env: Readonly<Record<string, string | undefined>>): ClientLimits {
  return {
    timeoutMs: positive(env, LIMIT_SETTINGS.timeout, DEFAULT_TIMEOUT_MS, 'milliseconds for a whole call, e.g. 30000'),
    maxResponseBytes: positive(env, LIMIT_SETTINGS.size, DEFAULT_MAX_RESPONSE_BYTES, 'bytes, e.g. 67108864 for 64 MiB'),
  };
}

function positive(env: Readonly<Record<string, string | undefined>>, name: string, fallback: number, unit: string): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw.trim());
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new JstError({
      code: 'CONFIG_LIMIT',
      problem: `${name} must be a positive whole number of ${unit} (got "${raw}")`,
      hint: `Fix or unset ${name} in the environment`,
      setting: name,
    });
  }
  return value;
}

/**
 * The longest issue summary the tracker takes: 255 characters (Jira Cloud's limit, answered 400
 * "Summary must be less than 255 characters."; jst-tracker's SUMMARY_MAX in
 * packages/tracker/src/domain/issue-input.ts). `jst plan` holds every summary to it before it
 * creates anything.
 */
export const TRACKER_SUMMARY_MAX = 255;

/**
 * The longest rich-text field (description, comment body) the tracker takes: 32,767 characters of
 * the field's ADF JSON (Jira Cloud's limit, answered 400 "The entered text is too long…";
 * jst-tracker's TEXT_FIELD_MAX in packages/tracker/src/domain/limits.ts).
 */
export const TRACKER_TEXT_FIELD_MAX = 32_767;
