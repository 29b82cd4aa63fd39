/**
 * `Retry-After` (RFC 9110 §10.2.3), as the tracker's client and the code host's client honour it on
 * a 429 or 503: delay-seconds (digits only) or an HTTP-date, in any of the three forms a recipient
 * must accept. How long a caller is willing to wait, and how often, is the caller's own limit.
 */

/** The longest wait a header can ask for (a day): anything beyond is read as this, never as Infinity. */
export const RETRY_AFTER_MAX_MS = 24 * 60 * 60 * 1000;

const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const TIME = '\\d{2}:\\d{2}:\\d{2}';
/** IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT` and the obsolete RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT`: GMT by their own words. */
const GMT_DATE = new RegExp(`^(?:${DAY}, \\d{2} ${MONTH} \\d{4}|(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, \\d{2}-${MONTH}-\\d{2}) ${TIME} GMT$`);
/** The obsolete asctime form `Sun Nov  6 08:49:37 1994`, which is GMT without saying so. */
const ASCTIME = new RegExp(`^${DAY} ${MONTH} [ \\d]\\d ${TIME} \\d{4}$`);

/** The wait a `Retry-After` value asks for, in ms (0 for a date already past, at most RETRY_AFTER_MAX_MS); null when absent or unreadable. */
export function retryAfterMs(value: string | null | undefined, now = Date.now()): number | null {
  const text = value?.trim() ?? '';
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  else if (GMT_DATE.test(text)) ms = Date.parse(text) - now;
  else if (ASCTIME.test(text)) ms = Date.parse(`${text} GMT`) - now;
  else return null;
  return Number.isNaN(ms) ? null : Math.min(RETRY_AFTER_MAX_MS, Math.max(0, ms));
}
