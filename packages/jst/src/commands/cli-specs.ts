import { tenantCommand } from './account/tenant/spec.js';
import { whoamiCommand } from './account/whoami/spec.js';
import { batchCommand } from './api/batch/spec.js';
import { rawCommand } from './api/raw/spec.js';
import { commentAddCommand } from './comment/add/spec.js';
import { commentListCommand } from './comment/list/spec.js';
import { issueAssignCommand } from './issue/assign/spec.js';
import { issueCreateCommand } from './issue/create/spec.js';
import { issueDeleteCommand } from './issue/delete/spec.js';
import { issueTransitionCommand } from './issue/transition/spec.js';
import { issueTransitionsCommand } from './issue/transitions/spec.js';
import { issueViewCommand } from './issue/view/spec.js';
import { planCommand } from './plan/plan/spec.js';
import { projectExistsCommand } from './project/exists/spec.js';
import { projectListCommand } from './project/list/spec.js';
import { projectStatusesCommand } from './project/statuses/spec.js';
import { doneCommand } from './review/done/spec.js';
import { reviewCommand } from './review/brief/spec.js';
import { searchCommand } from './search/search/spec.js';
import { healthcheckCommand } from './setup/healthcheck/spec.js';
import { initCommand } from './setup/init/spec.js';
import { mcpCommand } from './setup/mcp/spec.js';
import type { CommandSpec } from './define.js';
import { userSearchCommand } from './user/search/spec.js';
import { dispatchCommand } from './work/dispatch/spec.js';
import { noteCommand } from './work/note/spec.js';
import { prBaseCommand } from './work/pr-base/spec.js';
import { prCommand } from './work/pr/spec.js';
import { startCommand } from './work/start/spec.js';

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
  userSearchCommand,
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
  user: 'find accounts',
};
