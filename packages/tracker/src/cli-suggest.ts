/**
 * "Did you mean …?" for a mistyped option of jst-tracker's command line.
 *
 * The tracker has its own (rather than sharing jst's config/suggest.ts): jst-tracker stands alone
 * and depends on no part of the jst toolkit, and its candidates are a dozen option names, where
 * a plain edit count (no transpositions, no case folding) says all that is needed.
 */
function edits(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** The option closest to `typed` (both without dashes): a unique one it starts, or one within two edits. */
export function closestOption(typed: string, options: readonly string[]): string | undefined {
  const started = options.filter((o) => typed.length >= 3 && o.startsWith(typed));
  if (started.length === 1) return started[0];
  let best: { option: string; distance: number } | undefined;
  for (const option of options) {
    const distance = edits(typed, option);
    if (!best || distance < best.distance) best = { option, distance };
  }
  return best && best.distance <= Math.max(2, Math.floor(typed.length / 4)) ? best.option : undefined;
}
