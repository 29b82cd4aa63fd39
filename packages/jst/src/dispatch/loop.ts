import { resolve } from 'node:path';
import type { Context } from '../core/context.js';
import { JstError } from '../config/index.js';
import { EXIT } from '../core/errors.js';
import * as git from '../git/index.js';
import { usage } from '../core/errors.js';
import { logPath, startAgent, timeoutOf } from './agents.js';
import { takeLock } from './lock.js';
import { print, shown, sleep, type AgentRef, type DispatchOptions, type ExitLine, type RoundDoc, type StartLine } from './report.js';
import { agentSandbox, requireSandbox, type RunSandbox } from './sandbox.js';
import { findWork, type Accounts, type Candidate, type Found } from './find.js';
import { keyOrder, worktreeBranches, worktreeOf } from './worktrees.js';
import { entryId, Journal, journalPath, MAX_ATTEMPTS, stateOf, type Attempt, type Entry } from './dispatch-journal.js';

/**
 * `jst dispatch` (ARCHITECTURE §15): rounds of searches, each starting the team's agent for every
 * hand-off found, at most `maxAgents` at once, one per issue and round (the issue's hand-off
 * number, find.ts), journalled before it starts. Dispatch writes nothing to the tracker or the
 * code host; the agents act through jst's own commands.
 */
export const DISPATCH_LIMITS = { maxAgents: 16, intervalSeconds: { min: 1, max: 86_400 } } as const;

interface Setup {
  main: string;
  jstDir: string;
  project: string;
  ids: Accounts;
  commands: Record<'executor' | 'reviewer', string | null>;
  /** How long one agent may run (AGENT_TIMEOUT_MINUTES), in milliseconds. */
  timeoutMs: number;
  /** How agents are confined (AGENT_SANDBOX), with what bwrap needs to know of the repository. */
  sandbox: RunSandbox;
}

interface Live {
  entry: Entry;
  attempt: Attempt;
  started: number;
  exit: Promise<void>;
}

/** A hand-off `--once` found no free slot for: started when one frees (ARCHITECTURE §15). */
interface Queued {
  ref: AgentRef;
  start: () => StartLine;
}

export async function dispatchLoop(ctx: Context, o: DispatchOptions): Promise<number> {
  checkOptions(o);
  const setup = await prepare(ctx, o);
  // One dispatch per checkout: a second would read the same journal and start the same agents.
  const lock = o.dryRun ? null : takeLock(setup.jstDir);
  try {
    return await run(ctx, o, setup);
  } finally {
    lock?.release();
  }
}

async function run(ctx: Context, o: DispatchOptions, setup: Setup): Promise<number> {
  const journal = new Journal(journalPath(setup.jstDir), !o.dryRun);
  const live = new Map<string, Live>();
  let exited: ExitLine[] = [];
  let anyFailed = false;
  let stopping = false;
  let wake: (() => void) | null = null;
  const onSigint = () => {
    // A second Ctrl-C leaves at once; the agents run on (their own process group), and the journal
    // shows them running to the next dispatch.
    if (stopping) process.exit(EXIT.cancelled);
    ctx.io.stderr.write(shown(ctx, `jst dispatch: stopping: no new agents; waiting for ${live.size} running (Ctrl-C again to leave them running and exit)\n`));
    stopping = true;
    wake?.();
  };
  process.on('SIGINT', onSigint);
  try {
    for (let pass = 1; !stopping; pass += 1) {
      const onExit = (l: ExitLine) => {
        exited.push(l);
        if (l.exitCode !== 0) anyFailed = true;
        wake?.();
      };
      const single = o.once || o.dryRun;
      const queue: Queued[] = [];
      const state: RoundState = { journal, live, onExit, stopping: () => stopping, queue: o.once && !o.dryRun ? queue : null };
      const doc = single
        ? await round(ctx, o, setup, state, pass)
        : await round(ctx, o, setup, state, pass).catch((e: unknown) => {
            // A long-running loop outlives a tracker that is briefly away: said, then the next round.
            if (e instanceof JstError) throw e;
            ctx.io.stderr.write(
              shown(ctx, ctx.redact(`jst dispatch: round ${pass} stopped: ${(e as Error).message}; the next round in ${o.intervalSeconds} s\n`)),
            );
            return null;
          });
      if (single) {
        // --once finishes the round's work, at most --max-agents at a time: a freed slot takes the next.
        while (queue.length) {
          if (stopping) {
            doc!.deferred.push(...queue.splice(0).map((q) => ({ ...q.ref, why: 'stopping (Ctrl-C): no new agents' })));
            break;
          }
          if (live.size < o.maxAgents) doc!.started.push(queue.shift()!.start());
          else await Promise.race([...live.values()].map((l) => l.exit));
        }
        await Promise.all([...live.values()].map((l) => l.exit));
        doc!.exited = exited;
        doc!.running = doc!.running.filter((r) => !doc!.started.some((x) => x.key === r.key && x.round === r.round));
        print(ctx, o, doc!);
        break;
      }
      if (!doc) {
        await sleep(
          o.intervalSeconds * 1000,
          (w) => {
            wake = w;
          },
          () => stopping,
        );
        continue;
      }
      doc.exited = exited;
      exited = [];
      print(ctx, o, doc);
      await sleep(
        o.intervalSeconds * 1000,
        (w) => {
          wake = w;
        },
        () => stopping,
      );
      wake = null;
    }
    if (live.size) await Promise.all([...live.values()].map((l) => l.exit));
    if (!o.once && exited.length) print(ctx, o, { ...emptyDoc(0, o), exited });
  } finally {
    process.off('SIGINT', onSigint);
  }
  return anyFailed ? EXIT.failed : EXIT.ok;
}

function checkOptions(o: DispatchOptions): void {
  if (!Number.isInteger(o.maxAgents) || o.maxAgents < 1 || o.maxAgents > DISPATCH_LIMITS.maxAgents) {
    throw usage(
      'USAGE',
      `--max-agents must be a whole number from 1 to ${DISPATCH_LIMITS.maxAgents} (got ${String(o.maxAgents)})`,
      'e.g. jst dispatch --max-agents 2',
    );
  }
  const { min, max } = DISPATCH_LIMITS.intervalSeconds;
  if (!Number.isInteger(o.intervalSeconds) || o.intervalSeconds < min || o.intervalSeconds > max) {
    throw usage(
      'USAGE',
      `--interval must be a whole number of seconds from ${min} to ${max} (got ${String(o.intervalSeconds)})`,
      'e.g. jst dispatch --interval 60',
    );
  }
}

/** The main checkout, its `.jst/`, the project, the three accounts and the agent commands. */
async function prepare(ctx: Context, o: DispatchOptions): Promise<Setup> {
  const info = await git.worktreeInfo(ctx.cwd, { env: ctx.env }).catch(() => null);
  if (!info)
    throw usage('NOT_IN_CHECKOUT', `${ctx.cwd} is not inside a git checkout`, 'Run jst dispatch in the main checkout of the repository jst plan worked in');
  if (info.linked)
    throw usage('NOT_MAIN_CHECKOUT', `jst dispatch runs in the main checkout, and ${info.root} is a linked worktree`, `cd ${info.mainPath} && jst dispatch`);
  const cfg = ctx.config();
  if (!cfg.jstDir) throw usage('CONFIG', `no .jst/ folder in ${info.root}`, 'Run jst init first');
  if (!cfg.projectKey) throw usage('CONFIG', 'PROJECT_KEY is unset in .jst/team.env', 'Set PROJECT_KEY, then rerun jst dispatch');
  const commands = { executor: cfg.settings.AGENT_EXECUTOR_CMD?.value ?? null, reviewer: cfg.settings.AGENT_REVIEWER_CMD?.value ?? null };
  const timeoutMs = timeoutOf(cfg.settings.AGENT_TIMEOUT_MINUTES?.value);
  if (!o.dryRun && !commands.executor && !commands.reviewer) {
    throw usage(
      'CONFIG',
      'AGENT_EXECUTOR_CMD and AGENT_REVIEWER_CMD are both unset in .jst/team.env: there is no agent to start',
      'Set them (e.g. AGENT_EXECUTOR_CMD=claude -p "/jst:executor"), or see what would start: jst dispatch --dry-run --once',
    );
  }
  // ARCHITECTURE §15: never unsandboxed by accident; refused before any tracker call or agent.
  const mode = o.dryRun ? { mode: 'none' as const, bwrap: null } : requireSandbox(cfg, ctx.env);
  const g = { env: ctx.env };
  // Relative to the main checkout when git prints it so (no --path-format: git before 2.31 lacks it).
  const gitCommonDir = resolve(info.root, (await git.runGit(['rev-parse', '--git-common-dir'], info.root, g)).stdout);
  const identity = { name: await git.configGet(info.root, 'user.name', g), email: await git.configGet(info.root, 'user.email', g) };
  // The addresses an agent's git may give its role's token to (git/credential.ts): origin's only.
  const origins = await git.remoteOrigins(info.root, 'origin', g);
  // The three accounts, each by its own credential (GET /myself): markers count only from them.
  const [assigner, executor, reviewer] = await Promise.all(
    (['assigner', 'executor', 'reviewer'] as const).map(async (r) => (await ctx.client(r).myself()).accountId),
  );
  return {
    main: info.root,
    jstDir: cfg.jstDir,
    project: cfg.projectKey,
    ids: { assigner: assigner!, executor: executor!, reviewer: reviewer! },
    commands,
    timeoutMs,
    sandbox: { ...mode, gitCommonDir, identity, origins },
  };
}

const emptyDoc = (pass: number, o: DispatchOptions): RoundDoc => ({
  pass,
  at: new Date().toISOString(),
  dryRun: o.dryRun,
  searches: 0,
  commentReads: 0,
  started: [],
  wouldStart: [],
  running: [],
  deferred: [],
  exited: [],
  waiting: [],
});

/** One round: the searches, then for each hand-off found, start it, or say why not. */
/** What a round shares with the loop: the journal, the agents running, what to do when one exits, and whether Ctrl-C came. */
interface RoundState {
  journal: Journal;
  live: Map<string, Live>;
  onExit: (l: ExitLine) => void;
  stopping: () => boolean;
  /** With --once, where a hand-off with no free slot waits for one; null: it is deferred to the next round. */
  queue: Queued[] | null;
}

async function round(ctx: Context, o: DispatchOptions, s: Setup, st: RoundState, pass: number): Promise<RoundDoc> {
  const { journal, live, onExit, stopping, queue } = st;
  const doc = emptyDoc(pass, o);
  // What each journalled agent is doing, read BEFORE the searches: an agent that ended after this
  // point shows its work in them, so "gone, and its round not over" always means it did not finish it.
  const before = new Map(journal.entries().map((e) => [entryId(e.key, e.round), e.attempts.map((a) => stateOf(a, live.has(entryId(e.key, e.round))))]));
  const found = await findWork((r) => ctx.client(r), s.project, ctx.config().statuses, s.ids);
  found.candidates.push(...unfinished(journal, found));
  // Oldest issue first (ABC-2 before ABC-10), whatever the hand-off: with few slots, work is taken in order.
  found.candidates.sort((a, b) => keyOrder(a.key, b.key));
  doc.searches = found.searches;
  doc.commentReads = found.commentReads;
  doc.waiting.push(...found.waiting);
  const worktrees = await worktreeBranches(s.main, ctx.env);
  for (const c of found.candidates) {
    const ref = { key: c.key, role: c.role, handOff: c.handOff, round: c.round };
    const worktree = worktreeOf(c, worktrees, s.main);
    if (!worktree) {
      doc.waiting.push({ key: c.key, why: `its worktree ${c.worktree ?? ''} does not exist on this machine`, command: null });
      continue;
    }
    const id = entryId(c.key, c.round);
    const states = before.get(id) ?? [];
    const entry = journal.get(c.key, c.round);
    if (live.has(id) || states.includes('running')) {
      doc.running.push({ ...ref, pid: entry?.attempts.at(-1)?.pid ?? null });
      continue;
    }
    const log = entry?.log ?? logPath(s.jstDir, c.key, c.round);
    if (states.at(-1) === 'succeeded') {
      doc.waiting.push({
        key: c.key,
        why: `its ${c.role}'s agent for round ${c.round} exited 0 without handing the issue on (no Run report or verdict): see ${log}`,
        command: null,
      });
      continue;
    }
    const failures = states.filter((x) => x === 'failed' || x === 'unknown').length;
    if (failures >= MAX_ATTEMPTS) {
      doc.waiting.push({ key: c.key, why: `its ${c.role}'s agent for round ${c.round} failed ${failures} times: left for you, see ${log}`, command: null });
      continue;
    }
    const command = s.commands[c.role];
    const why = failures ? `${c.why}; again after a failed attempt` : c.why;
    if (o.dryRun) {
      doc.wouldStart.push({ ...ref, worktree, why, command });
      continue;
    }
    if (!command) {
      doc.waiting.push({ key: c.key, why: `${c.why}, but AGENT_${c.role.toUpperCase()}_CMD is unset in .jst/team.env`, command: null });
      continue;
    }
    if (stopping()) {
      doc.deferred.push({ ...ref, why: 'stopping (Ctrl-C): no new agents' });
      continue;
    }
    const start = () => launch(ctx, s, journal, live, { c, worktree, log, command, why }, onExit);
    if (queue && (live.size >= o.maxAgents || queue.length)) {
      queue.push({ ref, start });
      continue;
    }
    if (live.size >= o.maxAgents) {
      doc.deferred.push({ ...ref, why: `--max-agents ${o.maxAgents} are running` });
      continue;
    }
    doc.started.push(start());
  }
  for (const [, l] of live)
    if (!doc.started.some((x) => entryId(x.key, x.round) === entryId(l.entry.key, l.entry.round)))
      doc.running.push({ key: l.entry.key, role: l.entry.role, handOff: l.entry.handOff, round: l.entry.round, pid: l.attempt.pid });
  return doc;
}

/**
 * The journalled agents whose issue is still at their round but no longer looks like that hand-off
 * (an executor's agent that ran `jst start`, moving the issue to In Progress, then failed): the same
 * hand-off again, so the rules below retry it once, or leave it for the person, as for any other.
 */
function unfinished(journal: Journal, found: Found): Candidate[] {
  const due = new Set(found.candidates.map((c) => c.key));
  return journal
    .entries()
    .filter((e) => !due.has(e.key) && found.rounds.get(e.key) === e.round)
    .map((e) => ({
      key: e.key,
      handOff: e.handOff,
      role: e.role,
      round: e.round,
      worktree: e.worktree,
      why: `its ${e.role}'s agent for round ${e.round} has not handed it on`,
    }));
}

/** Journals the attempt, then starts the agent; its exit is journalled and reported when it comes. */
function launch(
  ctx: Context,
  s: Setup,
  journal: Journal,
  live: Map<string, Live>,
  x: { c: Candidate; worktree: string; log: string; command: string; why: string },
  onExit: (l: ExitLine) => void,
): StartLine {
  const { c } = x;
  const id = entryId(c.key, c.round);
  const attempt = journal.begin({ key: c.key, round: c.round, role: c.role, handOff: c.handOff, worktree: x.worktree, log: x.log });
  const entry = journal.get(c.key, c.round)!;
  const n = entry.attempts.length;
  const env = {
    ...ctx.env,
    JST_ISSUE_KEY: c.key,
    JST_ROLE: c.role,
    JST_WORKTREE_DIR: x.worktree,
    JST_DISPATCH_ROUND: String(c.round),
    JST_DISPATCH_HANDOFF: c.handOff,
  };
  const sandbox = agentSandbox(ctx.config(), s.sandbox, s.jstDir, c.role, x.worktree, env);
  const agent = startAgent({
    command: x.command,
    cwd: x.worktree,
    env: sandbox?.env ?? env,
    wrap: sandbox,
    log: x.log,
    timeoutMs: s.timeoutMs,
    header: `=== jst dispatch: ${c.key} ${c.role} round ${c.round} attempt ${n} (${c.handOff}) at ${attempt.startedAt} in ${x.worktree}`,
  });
  attempt.pid = agent.pid;
  journal.update();
  // Only now, with its pid on disk, does the agent's command run: a dispatch killed before this line
  // leaves a shell that exits unrun (agents.ts GATE), never an agent the journal cannot see.
  agent.go();
  const started = Date.now();
  const line: StartLine = { key: c.key, role: c.role, handOff: c.handOff, round: c.round, attempt: n, worktree: x.worktree, log: x.log, why: x.why };
  ctx.io.stderr.write(
    shown(
      ctx,
      ctx.redact(`→ start ${c.key}: ${c.role}'s agent, round ${c.round}${n > 1 ? `, attempt ${n}` : ''} (${x.why}), pid ${agent.pid ?? '?'}, log ${x.log}\n`),
    ),
  );
  const exit = agent.exit.then((status) => {
    sandbox?.cleanup();
    const timedOut = agent.timedOut();
    // An agent stopped at its time limit failed, whatever its shell's exit code said (124, as timeout(1)).
    const code = timedOut && status === 0 ? 124 : status;
    attempt.exitCode = code;
    attempt.endedAt = new Date().toISOString();
    journal.update();
    live.delete(id);
    const seconds = Math.round((Date.now() - started) / 100) / 10;
    const next = code === 0 ? 'done' : n < MAX_ATTEMPTS ? 'retry' : 'left';
    const tail =
      (timedOut ? `: stopped after ${Math.round(s.timeoutMs / 600) / 100} min (AGENT_TIMEOUT_MINUTES)` : '') +
      (next === 'done' ? '' : next === 'retry' ? ': it is started once more on a later round' : ': left for you');
    ctx.io.stderr.write(
      shown(
        ctx,
        `${code === 0 ? '✓' : '✗'} ${c.key}: ${c.role}'s agent, round ${c.round}${n > 1 ? `, attempt ${n}` : ''}, exited ${code} after ${seconds} s${tail} (log ${x.log})\n`,
      ),
    );
    onExit({ key: c.key, role: c.role, handOff: c.handOff, round: c.round, attempt: n, exitCode: code, seconds, log: x.log, next, timedOut });
  });
  live.set(id, { entry, attempt, started, exit });
  return line;
}
