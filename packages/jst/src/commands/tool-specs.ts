import { issueViewCommand } from './issue/view.js';
import { planCommand, planDryRunCommand } from './plan/plan.js';
import { doneCommand } from './review/done.js';
import { reviewCommand } from './review/brief.js';
import { parentPrCommand } from './review/parent-pr.js';
import { reviewVerdictCommand } from './review/verdict.js';
import { searchCommand } from './search/search.js';
import { healthcheckCommand } from './setup/healthcheck.js';
import type { CommandSpec } from './spec.js';
import { noteCommand } from './work/note.js';
import { prBaseCommand } from './work/pr-base.js';
import { prCommand } from './work/pr.js';
import { startCommand } from './work/start.js';

/** The specs that are MCP tools (ARCHITECTURE §13), in the order `jst mcp` lists them. */
export const TOOL_SPECS: readonly CommandSpec[] = [
  healthcheckCommand,
  issueViewCommand,
  searchCommand,
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
