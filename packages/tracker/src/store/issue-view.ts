import { after, type Maybe } from '../maybe.js';
import type { Comments } from './comments.js';
import type { Issues } from './issues.js';
import type { IssueFound, IssueRef, IssueRow, IssueViewRows, IssueWithComments, IssueWithProject, ViewWants } from './rows.js';

/**
 * The issue view's read model (GET /issue, a search page's issues), read by one call for both
 * dialects and both ways of answering: at once on SQLite outside a transaction, every statement
 * within the caller's turn; a promise on PostgreSQL (Prepared.rows, StoreAdapter.issueView). The
 * rule of who may see the issue is the domain's, handed in (`visible`): nothing beside the issue
 * is read for one it refuses.
 */

const NO_ISSUES: IssueRow[] = [];

export function issueViewReader(issues: Issues, comments: Comments) {
  /**
   * What the view shows beside an issue already read, each only when shown (and read only when
   * the issue's own statement did not bring it: `read`, PostgreSQL's). Sub-tasks are not
   * looked for when the issue was read knowing it has none (`hasSubtasks`), nor for a Subtask
   * (an issue's parent never changes, and a parent has no parent).
   */
  function related(found: IssueFound, wants: ViewWants, read?: IssueWithComments): Maybe<IssueViewRows> {
    const { issue } = found;
    const first = read?.comments;
    const subtasks = wants.subtasks && issue.parent_id === null && found.hasSubtasks !== false ? (read?.subtasks ?? issues.subtasksOf(issue.id)) : NO_ISSUES;
    const parent =
      wants.parent && issue.parent_id !== null ? (read?.parent === undefined ? issues.byId(issue.parent_id) : (read.parent ?? undefined)) : undefined;
    return after(subtasks, (subtasks) =>
      after(parent, (parent) =>
        after(
          wants.comments === 0 ? undefined : (first ?? comments.ofIssue(issue.id, { startAt: 0, maxResults: wants.comments, descending: false })),
          (comments): IssueViewRows => ({ issue, project: found.project, role: found.role, subtasks, parent, comments }),
        ),
      ),
    );
  }

  return {
    /**
     * The issue (by key on its site, or by row id) with its project and `userId`'s role there,
     * and what `wants` shows beside it; undefined when it is missing or `visible` refuses it.
     */
    read(ref: IssueRef, userId: number, wants: ViewWants, visible: (found: IssueWithProject) => boolean): Maybe<IssueViewRows | undefined> {
      return after(issues.withFirstComments(ref, userId, wants.comments), (found) => (found && visible(found) ? related(found, wants, found) : undefined));
    },

    /** What `wants` shows beside an issue found already (a search page's). */
    related: (found: IssueFound, wants: ViewWants): Maybe<IssueViewRows> => related(found, wants),
  };
}

export type IssueViewReader = ReturnType<typeof issueViewReader>;
