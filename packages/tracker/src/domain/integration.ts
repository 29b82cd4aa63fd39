import { findIssue } from './access.js';
import { addComment } from './comments.js';
import { ApiError } from './errors.js';
import { doTransition } from './issues.js';
import { storeOf } from './store-access.js';
import type { Caller, Tracker } from './tracker.js';
import { transitionsFrom } from './workflow.js';

/** One move the code host asks of the tracker (ARCHITECTURE §22 "Integration with the tracker"). */
export interface IssueMoveRequest {
  /** The site's host, as the seed names it. */
  site: string;
  /** The e-mail of the user the move is made as. */
  as: string;
  key: string;
  /** The status to move to. */
  to: string;
  /** Only when the issue is in its workflow's initial status (spec §3 rule 3: the branch-create automation). */
  onlyFromInitial: boolean;
  /** The comment's sentence and the address it links (the pull request, or the branch). */
  text: string;
  link: string;
}

export interface IssueMoveOutcome {
  outcome: 'moved' | 'skipped' | 'failed';
  message: string;
}

const failed = (message: string): IssueMoveOutcome => ({ outcome: 'failed', message });

/**
 * Moves an issue as the named user through the tracker's own transition (doTransition, the one
 * POST /issue/{key}/transitions calls), so the workflow's conditions (§21) and the user's
 * permissions apply; then comments, linking what made the move. A refusal is the outcome, never
 * thrown: the push or merge that asked goes on.
 */
export async function moveIssueAs(tracker: Tracker, req: IssueMoveRequest): Promise<IssueMoveOutcome> {
  const site = (await tracker.siteForHost(req.site)) ?? null;
  if (!site || (tracker.siteCount > 1 && site.host !== req.site.toLowerCase())) return failed(`no tracker site ${req.site}`);
  const user = await storeOf(tracker).users.byEmail(site.id, req.as);
  if (!user || !user.active) return failed(`no active tracker user ${req.as} on ${req.site}`);
  const caller: Caller = { site, user, baseUrl: '' };
  try {
    const access = await findIssue(tracker, caller, req.key);
    const workflow = tracker.workflowOf(access.project);
    const status = await tracker.statusById(site.id, access.issue.status_id);
    if (status.name === req.to) return { outcome: 'skipped', message: `${req.key} is already in ${req.to}` };
    if (req.onlyFromInitial && status.name !== workflow.initial) {
      return { outcome: 'skipped', message: `${req.key} is in ${status.name}, not ${workflow.initial}: a branch moves only an issue not started` };
    }
    const transition = transitionsFrom(workflow, status.name).find((t) => t.to === req.to);
    if (!transition) return failed(`${req.key}: no transition from ${status.name} to ${req.to}`);
    await doTransition(tracker, caller, req.key, { transition: { id: transition.id } });
    await addComment(tracker, caller, req.key, {
      body: {
        type: 'doc',
        version: 1,
        content: [
          {
            type: 'paragraph',
            content: [
              { type: 'text', text: `${req.text}: ` },
              { type: 'text', text: req.link, marks: [{ type: 'link', attrs: { href: req.link } }] },
            ],
          },
        ],
      },
    });
    return { outcome: 'moved', message: `${req.key} moved from ${status.name} to ${req.to} as ${req.as}` };
  } catch (e) {
    if (e instanceof ApiError) return failed(`${req.key} not moved to ${req.to} as ${req.as}: ${e.message}`);
    throw e;
  }
}
