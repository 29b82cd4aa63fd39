/**
 * A stored timestamp as GitHub sends every one (ARCHITECTURE §22 "Fidelity"): UTC to the second,
 * `2026-11-27T02:06:53Z`, never milliseconds. Stored times keep their milliseconds (they order
 * what happened within a second); only the answer drops them.
 */
export function ghTime(stored: string): string;
export function ghTime(stored: string | null): string | null;
export function ghTime(stored: string | null): string | null {
  if (stored === null) return null;
  const d = new Date(stored);
  return Number.isNaN(d.getTime()) ? stored : d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
