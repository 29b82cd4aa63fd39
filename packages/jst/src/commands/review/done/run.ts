import { issueWithComments } from '@jst/client';
import type { Role } from '../../../config/index.js';
import type { Context } from '../../../core/context.js';
import { EXIT } from '../../../core/errors.js';
import { refuse, usage } from '../../../core/errors.js';
import { APPROVED } from '../../../phase/markers.js';
import { closeApproved, requireMoveOffered, reviewerVerdictOf } from '../../../phase/race.js';
import { finish, stepper } from '../../../phase/steps.js';
import { requireIssueKey } from '../../../core/issue-key.js';
import { nextStep } from '../../../phase/spell.js';
import { promptFor } from '../../../core/terminal-prompt.js';
import type { Outcome } from '../../../core/output.js';

export interface DoneOptions {
  keys: string[];
  yes?: string[] | undefined;
  json?: boolean | undefined;
}

interface Checked {
  key: string;
  parent: string | null;
  state: 'already-done' | 'ready';
  /** The transition to Done offered when the key was checked. */
  transitionId?: string;
}

/**
 * `jst done KEY… [--yes KEY…]` (ARCHITECTURE §11), the reviewer: each key moves to STATUS_DONE
 * only after an explicit yes for that key, and only from STATUS_IN_REVIEW with an `APPROVED — `
 * verdict from the reviewer's account. Every key is checked, and every yes collected, before the
 * first issue moves; an issue already done is a success that changes nothing. After the yes each
 * key is read again and moved under the protocol of phase/race.ts, so a verdict asking for changes
 * given meanwhile and this command never both succeed (a key lost that way: exit 1, `lost`).
 */
export async function doneOutcome(ctx: Context, role: Role, o: DoneOptions): Promise<Outcome> {
  const { say, warn, warnings } = stepper(ctx);
  if (!o.keys.length) throw usage('USAGE', 'jst done needs at least one issue KEY');
  // Keys in any case (abc-1 = ABC-1), for the keys and their yes alike.
  const keys = [...new Set(o.keys.map(requireIssueKey))];
  const yes = new Set((o.yes ?? []).map(requireIssueKey));
  // A --yes that repeats none of the keys is named (a typo would otherwise read as a missing yes).
  const stray = [...yes].filter((k) => !keys.includes(k));
  const strayNote = stray.length
    ? `${stray.map((k) => `--yes ${k}`).join(', ')} names no key given to jst done (expected ${keys.map((k) => `--yes ${k}`).join(' ')})`
    : '';
  if (strayNote) warn(strayNote);
  const s = ctx.config().statuses;
  const client = ctx.client(role);

  const checked: Checked[] = [];
  for (const key of keys) {
    say(`→ read ${key} (status and comments)`);
    // The comments ride with the issue: one call where they fit its first page (docs/limits.md).
    const { issue, comments } = await issueWithComments(client, key, ['status', 'parent']);
    const status = issue.fields.status?.name ?? '';
    const parent = issue.fields.parent?.key ?? null;
    if (status === s.done) {
      checked.push({ key, parent, state: 'already-done' });
      continue;
    }
    if (status !== s.inReview)
      throw refuse(
        'DONE_STATUS',
        `${key} is in "${status}", not "${s.inReview}": only reviewed work is closed`,
        'Nothing was moved. The executor opens the pull request with jst pr, then the reviewer approves it',
      );
    const verdict = (await reviewerVerdictOf(ctx, client, key, comments))?.verdict;
    if (verdict?.kind !== 'approved') {
      throw refuse(
        'DONE_NOT_APPROVED',
        `${key} has ${verdict ? `"${verdict.line}" as its newest verdict` : 'no verdict'}, not "${APPROVED}…"`,
        `Nothing was moved. Approve it first: ${nextStep.verdict(ctx, key, 'approve')}`,
      );
    }
    const transitionId = await requireMoveOffered(client, key, s.done); // spec §3 rule 5: before the yes
    checked.push({ key, parent, state: 'ready', transitionId });
  }

  // spec: each key only after an explicit yes for that key.
  const ready = checked.filter((c) => c.state === 'ready');
  // A terminal asks; jst mcp asks through elicitation; otherwise the question ends the run (exit 3).
  const prompter = promptFor(ctx, ctx.io.interactive, `Nothing was moved; run jst done ${keys.join(' ')} again when ready`);
  const declined: string[] = [];
  // A yes asked now comes after the check: those keys are read again before they move (phase/race.ts).
  const asked = new Set<string>();
  try {
    for (const c of ready) {
      if (yes.has(c.key)) continue;
      asked.add(c.key);
      const command = `jst done ${keys.join(' ')} ${ready.map((r) => `--yes ${r.key}`).join(' ')}`;
      // The yes before Done is the person's alone: a tool without elicitation gets the command they run (ARCHITECTURE §13).
      if (
        !(await prompter.yesNo(
          `Move ${c.key} to "${s.done}"?`,
          `${strayNote ? `${strayNote}. ` : ''}Nothing was moved. Confirm each key explicitly: ${command}`,
          { command: () => command },
        ))
      )
        declined.push(c.key);
    }
  } finally {
    prompter.close();
  }

  const moved: string[] = [];
  const lost: { key: string; reason: string }[] = [];
  for (const c of ready) {
    if (declined.includes(c.key)) continue;
    // A yes on the command line was given before the check, so the check is the re-read after the yes.
    const checkedAfterYes = !asked.has(c.key) && c.transitionId !== undefined ? { transitionId: c.transitionId } : undefined;
    const r = await closeApproved(ctx, client, c.key, s, say, undefined, checkedAfterYes);
    if (r.moved) moved.push(c.key);
    else if (r.already) c.state = 'already-done';
    else lost.push({ key: c.key, reason: r.why });
  }
  const already = checked.filter((c) => c.state === 'already-done').map((c) => c.key);
  for (const k of already) say(`✓ ${k} is already in "${s.done}"`);

  // The parent's pull request follows only from sub-tasks that are Done; a declined key is still
  // the reviewer's to decide: close it later, or send it back to the executor.
  const closed = checked.filter((c) => !declined.includes(c.key) && !lost.some((l) => l.key === c.key));
  const parents = [...new Set(closed.map((c) => c.parent).filter((p): p is string => p !== null))];
  const next = [
    ...declined.map((k) => `${k} stays in "${s.inReview}". To close it: jst done ${k}   or, to send it back: ${nextStep.verdict(ctx, k, 'request-changes')}`),
    ...parents.map((p) => `When every sub-task pull request of ${p} is merged: ${nextStep.openParentPr(ctx, p)}`),
  ];
  for (const l of lost) warn(`${l.key} not moved: ${l.reason}`);
  return finish(
    { moved, alreadyDone: already, declined, lost, status: s.done, warnings, next },
    [
      ...moved.map((k) => `${k} → "${s.done}"`),
      ...already.map((k) => `${k} was already "${s.done}": nothing changed`),
      ...declined.map((k) => `${k} not moved (no yes)`),
      ...lost.map((l) => `${l.key} not moved: ${l.reason}`),
    ],
    next,
    declined.length || lost.length ? EXIT.failed : EXIT.ok,
  );
}
