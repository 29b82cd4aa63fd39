import { addUnits } from './functions.js';

/**
 * A moment named in a query, and how precisely it was named: `=` matches the whole span (a date
 * matches its day, "2026/01/31 14:00" its minute), the range operators compare with its start.
 */
export interface Moment {
  start: Date;
  spanMs: number;
}

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** Stored times are ISO-8601 text compared as text, which holds only for four-digit years. */
const MIN_YEAR = 1000;
const MAX_YEAR = 9999;

export const DATE_FORMATS =
  "Valid formats include: 'yyyy/MM/dd HH:mm', 'yyyy-MM-dd HH:mm', 'yyyy/MM/dd', 'yyyy-MM-dd', or a period format e.g. '-5d', '4w 2d'.";

/**
 * Jira's date values: absolute dates with an optional time (UTC, the time zone every user here
 * has), or a period relative to `now` such as `-7d`, `-2w`, `-4h`, `-30m`, `"4w 2d"` (w, d, h, m).
 * Returns null when the text is neither.
 */
export function parseDateValue(text: string, now: Date): Moment | null {
  const value = text.trim();
  const absolute = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:\s+(\d{1,2}):(\d{2}))?$/.exec(value);
  if (absolute) {
    const [year, month, day, hour, minute] = absolute.slice(1).map((p: string | undefined) => (p === undefined ? undefined : Number(p)));
    const withTime = hour !== undefined;
    const at = new Date(Date.UTC(year!, month! - 1, day, hour ?? 0, minute ?? 0));
    // Date.UTC rolls 2026-02-31 over into March; such a date does not exist.
    if (at.getUTCMonth() !== month! - 1 || at.getUTCDate() !== day! || (withTime && (hour > 23 || minute! > 59))) return null;
    return inRange({ start: at, spanMs: withTime ? MINUTE_MS : DAY_MS });
  }
  const relative = /^([+-]?)\s*((?:\d{1,7}\s*[wdhm]\s*)+)$/.exec(value);
  if (relative) {
    const sign = relative[1] === '-' ? -1 : 1;
    let at = now;
    for (const part of relative[2]!.matchAll(/(\d+)\s*([wdhm])/g)) {
      at = addUnits(at, sign * Number(part[1]), part[2] as 'w' | 'd' | 'h' | 'm');
    }
    return inRange({ start: at, spanMs: MINUTE_MS });
  }
  return null;
}

/** A moment computed by a function: exact to the millisecond. */
export function exactMoment(at: Date): Moment | null {
  return inRange({ start: at, spanMs: 1 });
}

function inRange(m: Moment): Moment | null {
  if (Number.isNaN(m.start.getTime())) return null;
  const year = m.start.getUTCFullYear();
  return year >= MIN_YEAR && year <= MAX_YEAR ? m : null;
}

/** How the store compares times: the same ISO-8601 UTC text it keeps them in. */
export const isoOf = (d: Date) => d.toISOString();
