/** The types of the code host's integration with the tracker (integration.ts), apart so the host can name its mover. */

/** The seed's `"tracker"` of a repository. */
export interface TrackerLink {
  site: string;
  as: string;
  onBranchCreate?: string;
  onPullOpen?: string;
  onMerge?: string;
}

export type Trigger = 'branch' | 'open' | 'merge';

export interface MoveAsk {
  site: string;
  as: string;
  key: string;
  to: string;
  onlyFromInitial: boolean;
  text: string;
  link: string;
}
export type IssueMover = (ask: MoveAsk) => Promise<{ outcome: 'moved' | 'skipped' | 'failed'; message: string }>;
