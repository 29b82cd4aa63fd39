import { commentListCommand } from './comment/list/spec.js';
import { issueViewCommand } from './issue/view/spec.js';
import { planCommand, planDryRunCommand } from './plan/plan/spec.js';
import { doneCommand } from './review/done/spec.js';
import { reviewCommand } from './review/brief/spec.js';
import { parentPrCommand } from './review/parent-pr/spec.js';
import { reviewVerdictCommand } from './review/verdict/spec.js';
import { searchCommand } from './search/search/spec.js';
import { healthcheckCommand } from './setup/healthcheck/spec.js';
import type { CommandSpec } from './define.js';
import { noteCommand } from './work/note/spec.js';
import { prBaseCommand } from './work/pr-base/spec.js';
import { prCommand } from './work/pr/spec.js';
import { startCommand } from './work/start/spec.js';

/** The specs that are MCP tools (ARCHITECTURE §13), in the order `jst mcp` lists them. */
export const TOOL_SPECS: readonly CommandSpec[] = [
  healthcheckCommand,
  issueViewCommand,
  searchCommand,
  commentListCommand,
  planCommand,
  planDryRunCommand,
  startCommand,
  noteCommand,
  prBaseCommand,
  prCommand,
  reviewCommand,
  reviewVerdictCommand,
  parentPrCommand,
  doneCommand,
];
