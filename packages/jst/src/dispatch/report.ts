import type { Context } from '../core/context.js';
import { terminalText } from '../core/text.js';
import type { Waiting } from './find.js';

export interface DispatchOptions {
  once: boolean;
  intervalSeconds: number;
  maxAgents: number;
  dryRun: boolean;
  json: boolean;
}

export type AgentRef = { key: string; role: string; handOff: string; round: number };
export interface StartLine extends AgentRef {
  attempt: number;
  worktree: string;
  log: string;
  why: string;
}
export interface ExitLine extends AgentRef {
  attempt: number;
  exitCode: number;
  seconds: number;
  log: string;
  next: 'done' | 'retry' | 'left';
  /** Stopped for running past AGENT_TIMEOUT_MINUTES. */
  timedOut: boolean;
}

/** The `--json` document of one round (one line of JSON each, docs/dispatch.md). */
export interface RoundDoc {
  pass: number;
  at: string;
  dryRun: boolean;
  searches: number;
  commentReads: number;
  started: StartLine[];
  wouldStart: (AgentRef & { worktree: string; why: string; command: string | null })[];
  running: (AgentRef & { pid: number | null })[];
  deferred: (AgentRef & { why: string })[];
  exited: ExitLine[];
  waiting: Waiting[];
}

/** How `jst dispatch` (ARCHITECTURE §15) prints a round (docs/dispatch.md "Output"), and waits between rounds. */
export function print(ctx: Context, o: DispatchOptions, doc: RoundDoc): void {
  // A command line in the team's file may hold a secret: nothing leaves unredacted.
  if (o.json) {
    ctx.io.stdout.write(ctx.redact(`${JSON.stringify(doc)}\n`));
    return;
  }
  const lines: string[] = [];
  if (doc.pass)
    lines.push(
      `Round ${doc.pass}: ${o.dryRun ? `${doc.wouldStart.length} to start (dry run: nothing started)` : `${doc.started.length} started`}, ${doc.running.length} running, ${doc.deferred.length} waiting for a free slot, ${doc.waiting.length} for you (${doc.searches} searches)`,
    );
  for (const w of doc.wouldStart)
    lines.push(
      `  would start ${w.key}: ${w.role}'s agent, round ${w.round}, in ${w.worktree}: ${w.why}${w.command ? '' : ` (AGENT_${w.role.toUpperCase()}_CMD is unset)`}`,
    );
  for (const d of doc.deferred) lines.push(`  later ${d.key}: ${d.role}'s agent, round ${d.round} (${d.why})`);
  for (const e of doc.exited.filter((x) => x.exitCode !== 0))
    lines.push(
      `  failed ${e.key}: ${e.role}'s agent, round ${e.round}, attempt ${e.attempt}, exit ${e.exitCode}${e.next === 'retry' ? ' (started once more on a later round)' : ' (left for you)'}: ${e.log}`,
    );
  for (const w of doc.waiting) lines.push(`  for you ${w.key}: ${w.why}${w.command ? `: ${w.command}` : ''}`);
  ctx.io.stdout.write(shown(ctx, ctx.redact(`${lines.join('\n')}\n`)));
}

/** Waits `ms`, or until woken (an agent exited, Ctrl-C) when `stop` says so. */
export function sleep(ms: number, setWake: (w: () => void) => void, stop: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    setWake(() => {
      if (stop()) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
}

/** A line for the terminal: keys, reasons and paths come from the tracker and the checkout, so control characters are removed (ARCHITECTURE §11). */
export function shown(ctx: Context, text: string): string {
  return terminalText(text, ctx.io.color);
}
