import { TrackerHttpError, type TrackerClient } from '@jst/client';
import { refused } from '../core/terminal-prompt.js';

/** The vendor's default priority scheme: what a tracker that does not serve GET /priority is taken to have. */
export const VENDOR_DEFAULT_PRIORITIES = ['Highest', 'High', 'Medium', 'Low', 'Lowest'] as const;

export interface Priorities {
  names: string[];
  /** Offered to a person; a bare Enter takes it. */
  default: string;
}

/**
 * spec §1 rule 5: the priority is one of the tracker's (GET /priority). Only a 404 (a tracker that
 * does not serve the list) falls back to the vendor's default names; any other failure stops.
 */
export async function trackerPriorities(client: TrackerClient): Promise<Priorities> {
  let names: string[];
  let marked: string | undefined;
  try {
    const list = await client.priorities();
    names = list.map((p) => p.name).filter((n) => typeof n === 'string' && n !== '');
    marked = list.find((p) => p.isDefault === true)?.name;
  } catch (e) {
    if (!(e instanceof TrackerHttpError && e.status === 404)) throw e;
    names = [...VENDOR_DEFAULT_PRIORITIES];
  }
  if (names.length === 0) names = [...VENDOR_DEFAULT_PRIORITIES];
  const fallback = names.includes('Medium') ? 'Medium' : names[Math.floor(names.length / 2)]!;
  return { names, default: marked ?? fallback };
}

/** The tracker's own spelling of `answer` (matched without regard to case), or null. */
export function matchPriority(answer: string, p: Priorities): string | null {
  return p.names.find((n) => n.toLowerCase() === answer.trim().toLowerCase()) ?? null;
}

/** A priority given up front (plan file): one of the tracker's, or the run stops before anything is created. */
export function requirePriority(given: string, p: Priorities): string {
  const found = matchPriority(given, p);
  if (found === null)
    throw refused(
      `the priority "${given}" is not one of the tracker's priorities (${p.names.join(', ')})`,
      'Use one of those names in the plan file\'s "priority"',
    );
  return found;
}
