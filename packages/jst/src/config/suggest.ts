/** Levenshtein distance with adjacent transpositions (optimal string alignment): typos are usually one of these. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  const at = (i: number, j: number): number => d[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      (d[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * The candidate closest to `input`, or undefined when none is close enough to be a plausible typo.
 * Case is ignored for the comparison (names are case-sensitive, so `worktrees_dir` is still unknown,
 * but the suggestion should point at `WORKTREES_DIR`).
 */
export function closestName(input: string, candidates: readonly string[]): string | undefined {
  const wanted = input.toUpperCase();
  // Allow roughly one edit per four characters, at least two: enough for typos, not for unrelated names.
  const limit = Math.max(2, Math.floor(wanted.length / 4));
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(wanted, candidate.toUpperCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= limit ? best : undefined;
}
