import { tenantCommand } from './account/tenant.js';
import { whoamiCommand } from './account/whoami.js';
import { batchCommand } from './api/batch.js';
import { rawCommand } from './api/raw.js';
import { commentAddCommand } from './comment/add.js';
import { commentListCommand } from './comment/list.js';
import { issueAssignCommand } from './issue/assign.js';
import { issueCreateCommand } from './issue/create.js';
import { issueDeleteCommand } from './issue/delete.js';
import { issueTransitionCommand } from './issue/transition.js';
import { issueTransitionsCommand } from './issue/transitions.js';
import { issueViewCommand } from './issue/view.js';
import { planCommand } from './plan/plan.js';
import { projectExistsCommand } from './project/exists.js';
import { projectListCommand } from './project/list.js';
import { projectStatusesCommand } from './project/statuses.js';
import { doneCommand } from './review/done.js';
import { reviewCommand } from './review/brief.js';
import { searchCommand } from './search/search.js';
import { healthcheckCommand } from './setup/healthcheck.js';
import { initCommand } from './setup/init.js';
import { mcpCommand } from './setup/mcp.js';
import type { CommandSpec } from './spec.js';
import { dispatchCommand } from './work/dispatch.js';
import { noteCommand } from './work/note.js';
import { prBaseCommand } from './work/pr-base.js';
import { prCommand } from './work/pr.js';
import { startCommand } from './work/start.js';

/** Every CLI command, in the order `jst --help` lists them. */
export const CLI_SPECS: readonly CommandSpec[] = [
  rawCommand,
  whoamiCommand,
  tenantCommand,
  projectListCommand,
  projectExistsCommand,
  projectStatusesCommand,
  issueViewCommand,
  issueCreateCommand,
  issueAssignCommand,
  issueTransitionsCommand,
  issueTransitionCommand,
  issueDeleteCommand,
  commentAddCommand,
  commentListCommand,
  searchCommand,
  batchCommand,
  healthcheckCommand,
  planCommand,
  startCommand,
  prBaseCommand,
  noteCommand,
  prCommand,
  reviewCommand,
  doneCommand,
  dispatchCommand,
  mcpCommand,
  initCommand,
];

/** The one-line descriptions of the command groups (`jst issue --help`). */
export const GROUPS: Readonly<Record<string, string>> = {
  project: 'projects visible to the role',
  issue: 'read, create, assign, transition and delete issues',
  comment: 'add and list comments',
};
