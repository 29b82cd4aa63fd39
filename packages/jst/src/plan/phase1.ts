import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { accountIdByEmail, projectVisible } from '@jst/client';
import { JstError, requireProjectKey, requireRoleEmail, siteUrl, type Role } from '../config/index.js';
import type { Context } from '../core/context.js';
import { EXIT } from '../core/errors.js';
import { note, type Outcome } from '../core/output.js';
import * as git from '../git/index.js';
import { abandonOutcome } from './abandon.js';
import { issuesNeverMade, planDifference } from './amend.js';
import { clarify } from './clarify.js';
import { dryRunEffects, realEffects, type Effects } from './effects.js';
import { branchContext, failOnHealth, otherBranchGate, pathGate, startBranchGate, statusesGate, worktreesDirGate, type HealthRows } from './gates.js';
import { parsePlan, PLAN_ARGUMENT, readPlanFile, type Draft, type PlanInput } from './plan-file.js';
import { abandonUnderWay, completedPlan, Journal, JOURNAL_FILE, recordCompleted, type JournalData } from './plan-journal.js';
import { checkPlanText, issueTypesGate } from './precheck.js';
import { trackerPriorities, requirePriority } from './priority.js';
import { promptFor, refused, type Prompt } from '../core/terminal-prompt.js';
import { commentOnce, provision, type Leaf, type ProvisionContext } from './provision.js';
import { assignmentReport, handOffLines, type ReportContext } from './report.js';
import { slugify } from './slug.js';

export interface PlanOptions {
  /** The role the command declares (the assigner): phase 1 reads and writes the tracker as it. */
  role: Role;
  /** spec §1 rule 4: the status check as that role, injected by the command (phase 1 knows its rows, not how they are made). */
  healthcheck: () => Promise<HealthRows>;
  request: string[];
  plan?: string | undefined;
  yes?: boolean | undefined;
  /** spec §1 rule 2: plan from this unusual start branch without asking (must be the current branch). */
  fromBranch?: string | undefined;
  confirmHotfix?: boolean | undefined;
  json?: boolean | undefined;
  dryRun?: boolean | undefined;
  /** The plan-file object itself (`jst mcp`'s plan tool), read by the same rules as --plan. */
  planData?: unknown;
  /** Plan anew although the same request was completed before (ARCHITECTURE §13). */
  again?: boolean | undefined;
  /** The MCP tool running the plan (refusals name its inputs, not the CLI's flags). */
  tool?: string | undefined;
  /** Delete what the unfinished run in the journal made, after a yes (`--yes`), instead of planning. */
  abandon?: boolean | undefined;
}

export interface PlanResult {
  keys: string[];
  branches: string[];
  worktrees: string[];
  report: string;
  handOff: string[];
  leaves: Leaf[];
}

/** The `--json` form of a plan run. */
export interface PlanJson {
  keys: string[];
  branches: string[];
  worktrees: string[];
  report: string;
  handOff: string[];
  dryRun: boolean;
  alreadyPlanned: boolean;
  plannedAt?: string;
  abandoned?: boolean;
  pushed?: string[];
}

export async function planOutcome(ctx: Context, o: PlanOptions): Promise<Outcome<PlanJson>> {
  if (o.abandon) {
    const extra = [
      o.request.length ? 'a request' : '',
      o.plan ? '--plan' : '',
      o.dryRun ? '--dry-run' : '',
      o.again ? '--again' : '',
      o.confirmHotfix ? '--confirm-hotfix' : '',
      o.fromBranch !== undefined ? '--from-branch' : '',
    ].filter(Boolean);
    if (extra.length)
      throw refused(`--abandon deletes what the unfinished run made and takes no plan: drop ${extra.join(', ')}`, 'Run jst plan --abandon [--yes] on its own');
    // The tool's plan object (an input it always takes) names the run: its request must be the recorded one.
    const request = o.planData !== undefined ? parsePlan(o.planData, PLAN_ARGUMENT).request : undefined;
    return abandonOutcome(ctx, { role: o.role, yes: o.yes, tool: o.tool, request });
  }
  // Ctrl-C at a question is a cancel (ARCHITECTURE §7 keeps 3 for a question nobody could answer).
  const prompt = promptFor(ctx, ctx.io.interactive && !o.plan && o.planData === undefined, 'Nothing was created; run jst plan again when ready');
  const say = (line: string) => {
    note(ctx.io, line);
  };
  try {
    const r = await plan(ctx, o, prompt, say);
    const made = { keys: r.keys, branches: r.branches, worktrees: r.worktrees, report: r.report, handOff: r.handOff, dryRun: Boolean(o.dryRun) };
    const handOff = r.handOff.map((l) => `${l}\n`).join('');
    if (r.alreadyPlanned) {
      const again = o.tool ? 'again: true' : '--again';
      return {
        json: { ...made, alreadyPlanned: true, plannedAt: r.alreadyPlanned },
        text: `Already planned (${r.alreadyPlanned}): this request was planned before and nothing was created now; to plan it anew, rerun with ${again}.\n${r.report}\n${handOff}`,
        code: EXIT.ok,
      };
    }
    // ARCHITECTURE §7: the Assignment report, then one executor hand-off line per worktree.
    return { json: { ...made, alreadyPlanned: false }, text: `${r.report}\n${handOff}`, code: EXIT.ok };
  } finally {
    prompt.close();
  }
}

// Phase 1 top to bottom in the spec's rule order (docs/style.md: reading the list reads the rules);
// cut into pieces, the order of the gates would no longer be visible in one place.
// eslint-disable-next-line max-lines-per-function
async function plan(ctx: Context, o: PlanOptions, prompt: Prompt, say: (l: string) => void): Promise<PlanResult & { alreadyPlanned?: string }> {
  const config = ctx.config();
  const fault = faultInjector(ctx.env);
  // --- spec §1 rule 3: an empty request is asked for before anything runs, the healthcheck included.
  const draft: Draft = o.plan ? readPlanFile(o.plan) : o.planData !== undefined ? parsePlan(o.planData, PLAN_ARGUMENT) : {};
  if (o.request.length) draft.request = o.request.join(' ').trim();
  // ARCHITECTURE §13: the same request after it completed answers with what it made; nothing is asked or created.
  const requestHash = createHash('sha256').update(JSON.stringify(draft)).digest('hex');
  const done = draft.request && config.jstDir && !o.again ? completedPlan(config.jstDir, requestHash) : null;
  if (done) {
    say(`✓ this request was planned on ${done.finishedAt} (${done.keys.join(', ')}): nothing is created`);
    return {
      keys: done.keys,
      branches: done.branches,
      worktrees: done.worktrees,
      report: done.report,
      handOff: done.handOff,
      leaves: [],
      alreadyPlanned: done.finishedAt,
    };
  }
  const pending = config.jstDir ? Journal.pending(config.jstDir) : null;
  if (pending?.abandoning && !o.dryRun) throw abandonUnderWay(pending, `${config.jstDir}/${JOURNAL_FILE}`);
  let resumePlan: PlanInput | null = null;
  if (!draft.request && pending && !o.dryRun) {
    resumePlan = pending.plan as PlanInput;
    say(`Resuming the unfinished plan run ${pending.runId} (started ${pending.startedAt}): "${resumePlan.request}"`);
  } else if (!draft.request) {
    draft.request = await prompt.ask(
      'What should the assigner plan? (the request)',
      'Pass the request as arguments: jst plan "what to build", or a plan file with --plan',
    );
  }

  // --- spec §1 rule 4: discovery and healthcheck as the assigner; the branch context comes from its rows.
  say('→ healthcheck --role assigner');
  const health = await o.healthcheck();
  const bc = branchContext(health);
  const defaultBase = config.defaultBaseBranch;
  const start = startBranchGate(bc, defaultBase);
  failOnHealth(health, say);
  await otherBranchGate(bc, start, defaultBase, o.fromBranch, prompt, o.tool);
  await worktreesDirGate(bc, prompt);

  // --- spec §1 rules 5-7: clarify (the priority one of the tracker's), scope, base.
  let settled: PlanInput;
  if (resumePlan) settled = resumePlan;
  else {
    say('→ priorities of the tracker');
    const priorities = await trackerPriorities(ctx.client(o.role));
    if (draft.priority !== undefined) draft.priority = requirePriority(draft.priority, priorities);
    settled = await clarify(draft, prompt, priorities);
  }
  pathGate(settled, start, bc);
  const hotfix = settled.path === 'hotfix';
  if (hotfix && !resumePlan) {
    // spec §1 rule 7: the hotfix path is named and waits for an explicit yes.
    // The yes is the person's alone: a tool without elicitation gets the exact command they run (ARCHITECTURE §13).
    const yes =
      o.confirmHotfix ||
      (await prompt.yesNo(
        `This is the HOTFIX path: one branch hotfix/<KEY>-${slugify(settled.summary)} cut from origin/${bc.production}, merged to ${bc.production} and later to ${defaultBase}. Create it?`,
        'Confirm the hotfix path with --confirm-hotfix (nothing was created)',
        o.tool && config.jstDir ? { command: () => hotfixCommand(config.jstDir!, repoRootOf(ctx, config.repoRoot), o.planData, o.fromBranch) } : undefined,
      ));
    if (!yes) throw refused('the hotfix path was not confirmed, so nothing was created (spec §1 rule 7)');
  }

  // --- Every check that can fail, before the first issue (issue 6 "Safety").
  const project = requireProjectKey(config);
  const client = ctx.client(o.role);
  // What the tracker would refuse in the plan's own text (summaries, sizes), before any call.
  checkText(settled, { project, worktreesDir: bc.worktreesDir.detail.split(' ')[0]!, siteUrl: siteUrl(config) }, resumePlan !== null);
  say(`→ project ${project} visible to the assigner`);
  if (!(await projectVisible(client, project)))
    throw refused(
      `project ${project} is not visible to the assigner (PROJECT_KEY in ${config.files.team})`,
      'Check the key and that the assigner account is a member of the project',
    );
  const executorEmail = requireRoleEmail(config, 'executor');
  say(`→ executor account ${executorEmail}`);
  const executorAccountId = await accountIdByEmail(client, executorEmail).catch((e: unknown) => {
    throw refused(e instanceof Error ? e.message : String(e));
  });
  say('→ configured statuses exist in the workflow');
  await statusesGate(ctx, client, project);
  say('→ issue types the assigner may create');
  await issueTypesGate(client, project, settled.steps.length > 0);
  const base = hotfix ? bc.production! : defaultBase;
  const startPoint = hotfix ? `origin/${bc.production}` : start === 'base' ? defaultBase : `origin/${defaultBase}`;
  const repo = config.repoRoot ?? (await git.worktreeInfo(ctx.cwd, { env: ctx.env })).root;
  await syncWithOrigin(ctx, repo, { hotfix, onBase: start === 'base', base: defaultBase, dryRun: Boolean(o.dryRun), say, prompt });
  const planHash = createHash('sha256').update(JSON.stringify(settled)).digest('hex');

  const worktreesDir = bc.worktreesDir.detail;
  if (prompt.interactive && !o.yes && !o.dryRun && !resumePlan) {
    const what = settled.steps.length ? `a parent Task and ${settled.steps.length} Subtasks` : `one ${hotfix ? 'hotfix ' : ''}Task`;
    if (!(await prompt.yesNo(`Create ${what} in ${project}, assigned to ${executorEmail}, with worktrees under ${worktreesDir}?`)))
      throw refused('not confirmed; nothing was created');
  }

  // --- From here on every step is journalled (or, with --dry-run, only printed).
  const site = siteUrl(config);
  let effects: Effects;
  let journal: Journal | null = null;
  if (o.dryRun) {
    effects = dryRunEffects(say, await client.apiBase(), repo);
  } else {
    effects = realEffects(client, repo, config.jstDir!, git.withGitCaFile(ctx.env, config.settings.CODEHOST_CA_FILE?.value));
    journal = await openJournal({
      jstDir: config.jstDir!,
      planHash,
      plan: settled,
      pending,
      fromJournal: resumePlan !== null,
      fault,
      say,
      find: (m) => effects.findIssueByMarker(project, m),
    });
  }
  const common = { plan: settled, project, executorAccountId, base, startPoint, worktreesDir, repo, env: ctx.env, effects, journal, progress: say };
  const { leaves, report } = await provisionAndReport(common, { siteUrl: site, base, defaultBase, production: bc.production });
  // Recorded before the journal goes: a run cut off between the two is answered as planned, never planned twice.
  const made = {
    keys: leaves.map((l) => l.key),
    branches: leaves.map((l) => l.branch),
    worktrees: leaves.map((l) => l.worktree),
    report,
    handOff: handOffLines(leaves),
  };
  if (!o.dryRun && config.jstDir && draft.request) recordCompleted(config.jstDir, { requestHash, finishedAt: new Date().toISOString(), ...made });
  journal?.finish();
  return {
    keys: leaves.map((l) => l.key),
    branches: leaves.map((l) => l.branch),
    worktrees: leaves.map((l) => l.worktree),
    report,
    handOff: handOffLines(leaves),
    leaves,
  };
}

/**
 * The run's journal: a new one, the recorded run resumed, or the recorded run finished by a corrected
 * plan (amend.ts). A create cut off before it landed made nothing: the tracker is asked, not guessed at.
 */
async function openJournal(j: {
  jstDir: string;
  planHash: string;
  plan: PlanInput;
  pending: JournalData | null;
  fromJournal: boolean;
  fault: (() => void) | undefined;
  say: (l: string) => void;
  find: (marker: string) => Promise<string | null>;
}): Promise<Journal> {
  const absent = j.pending && j.pending.planHash !== j.planHash ? await issuesNeverMade(j.pending, j.find) : new Set<string>();
  const { journal } = Journal.open(j.jstDir, randomBytes(6).toString('hex'), j.planHash, j.plan, j.fault, (recorded) =>
    planDifference(recorded, j.plan, absent),
  );
  if (journal.amended && !j.fromJournal) j.say(`Finishing the unfinished plan run ${journal.runId} with the corrected plan (what it made is unchanged)`);
  return journal;
}

/** spec §1 rules 9-12: the provisioning, then the Assignment report on the top-level issue. */
async function provisionAndReport(c: ProvisionContext, r: Omit<ReportContext, 'plan' | 'leaves'>): Promise<{ leaves: Leaf[]; report: string }> {
  try {
    const leaves = await provision(c);
    const report = assignmentReport({ plan: c.plan, leaves, ...r });
    // spec §1 rule 12: the report is posted on the parent issue (the single issue when single-step).
    await commentOnce(c, 'report', leaves[0]!.key, report, false);
    return { leaves, report };
  } catch (e) {
    // Creation began: the journal keeps what was made, and the person is told both ways on.
    if (c.journal && e instanceof Error) e.message = `${e.message}\n${stoppedHalfway(c.journal.file)}`;
    throw e;
  }
}

/** What a person does when a run stops after it began creating (ARCHITECTURE §7). */
function stoppedHalfway(file: string): string {
  return `The plan stopped halfway; ${file} records what it made. Either fix the cause and rerun jst plan with the same plan (or one corrected only in what was not made yet) to finish it, or run jst plan --abandon to delete what it made.`;
}

/** checkPlanText, and for the run's own recorded plan the ways on: a corrected plan file, or --abandon. */
function checkText(plan: PlanInput, o: Parameters<typeof checkPlanText>[1], fromJournal: boolean): void {
  try {
    checkPlanText(plan, o);
  } catch (e) {
    if (!fromJournal || !(e instanceof JstError)) throw e;
    throw refused(
      `the unfinished run's recorded plan cannot be finished as it is: ${e.problem}`,
      'Rerun with the plan corrected (jst plan --plan FILE), or jst plan --abandon to delete what it made',
    );
  }
}

/** spec §1 rule 8: fetch on both paths; planned work also pulls the base fast-forward only. */
async function syncWithOrigin(
  ctx: Context,
  repo: string,
  s: { hotfix: boolean; onBase: boolean; base: string; dryRun: boolean; say: (l: string) => void; prompt: Prompt },
): Promise<void> {
  // git trusts the code host's authority for origin (ARCHITECTURE §23).
  const o = { env: git.withGitCaFile(ctx.env, ctx.config().settings.CODEHOST_CA_FILE?.value) };
  s.say('→ git fetch origin');
  if (s.dryRun) s.say(`git -C ${repo} fetch origin`);
  else await git.fetch(repo, o);
  if (s.hotfix || !s.onBase) return;
  s.say(`→ git pull --ff-only origin ${s.base}`);
  if (s.dryRun) {
    s.say(`git -C ${repo} pull --ff-only origin ${s.base}`);
    return;
  }
  try {
    await git.pullFfOnly(repo, s.base, o);
  } catch (e) {
    if (!(e instanceof JstError) || e.code !== 'GIT_PULL_DIVERGED') throw e;
    const goOn = await s.prompt.yesNo(
      `${s.base} has diverged from origin/${s.base} (a fast-forward pull is not possible). Plan from your local ${s.base} anyway?`,
      `Reconcile ${s.base} with origin/${s.base} (rebase or merge), then rerun`,
    );
    if (!goOn) throw refused(`${s.base} has diverged from origin/${s.base}; nothing was created`, `Reconcile it, then rerun`);
  }
}

/**
 * Fault injection for the kill-and-rerun test (issue 6 "Safety"): JST_FAULT_KILL_AT=N kills this
 * process with SIGKILL right after the Nth journal write, exactly as a crash would.
 */
function faultInjector(env: NodeJS.ProcessEnv): (() => void) | undefined {
  const at = Number(env.JST_FAULT_KILL_AT ?? 0);
  if (!at) return undefined;
  let writes = 0;
  return () => {
    if (++writes === at) process.kill(process.pid, 'SIGKILL');
  };
}

/**
 * The command that says the hotfix yes in a terminal, for a person whose MCP client cannot ask them:
 * the plan the tool was given, saved under `.jst/` (ignored by git as `plan-journal*`).
 */
function hotfixCommand(jstDir: string, repo: string, plan: unknown, fromBranch: string | undefined): string {
  const file = join(jstDir, `plan-journal.hotfix-${createHash('sha256').update(JSON.stringify(plan)).digest('hex').slice(0, 12)}.json`);
  writeFileSync(file, `${JSON.stringify(plan, null, 2)}\n`);
  return `cd ${shellQuote(repo)} && jst plan --plan ${shellQuote(file)} --confirm-hotfix${fromBranch ? ` --from-branch ${shellQuote(fromBranch)}` : ''}`;
}

function repoRootOf(ctx: Context, root: string | null | undefined): string {
  return root ?? ctx.cwd;
}

const shellQuote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
