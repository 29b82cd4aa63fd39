import { tenantCommand } from './commands/account/tenant/spec.js';
import { whoamiCommand } from './commands/account/whoami/spec.js';
import { batchCommand } from './commands/api/batch/spec.js';
import { rawCommand } from './commands/api/raw/spec.js';
import { commentAddCommand } from './commands/comment/add/spec.js';
import { commentListCommand } from './commands/comment/list/spec.js';
import { issueAssignCommand } from './commands/issue/assign/spec.js';
import { issueCreateCommand } from './commands/issue/create/spec.js';
import { issueDeleteCommand } from './commands/issue/delete/spec.js';
import { issueTransitionCommand } from './commands/issue/transition/spec.js';
import { issueTransitionsCommand } from './commands/issue/transitions/spec.js';
import { issueViewCommand } from './commands/issue/view/spec.js';
import { planCommand } from './commands/plan/plan/spec.js';
import { projectExistsCommand } from './commands/project/exists/spec.js';
import { projectListCommand } from './commands/project/list/spec.js';
import { projectStatusesCommand } from './commands/project/statuses/spec.js';
import { doneCommand } from './commands/review/done/spec.js';
import { reviewCommand } from './commands/review/brief/spec.js';
import { searchCommand } from './commands/search/search/spec.js';
import { healthcheckCommand } from './commands/setup/healthcheck/spec.js';
import { initCommand } from './commands/setup/init/spec.js';
import { mcpCommand } from './mcp/command.js';
import type { CommandSpec } from './commands/define.js';
import { userSearchCommand } from './commands/user/search/spec.js';
import { dispatchCommand } from './commands/work/dispatch/spec.js';
import { noteCommand } from './commands/work/note/spec.js';
import { prBaseCommand } from './commands/work/pr-base/spec.js';
import { prCommand } from './commands/work/pr/spec.js';
import { startCommand } from './commands/work/start/spec.js';

/**
 * Every CLI command, in the order `jst --help` lists them. The list stands beside program.ts, above
 * both the command folders and the MCP face, because one command, `jst mcp`, is that face's own (mcp/command.ts).
 */
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
