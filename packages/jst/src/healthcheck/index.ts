// `jst healthcheck --role R`: the status check of ARCHITECTURE §6 (spec §2 rows, §4 status check script).
export { exitCodeOf, runHealthcheck } from './check.js';
export { formatReport, reportJson, reportObject, rerunHint } from './format.js';
export { ROW_NAMES, type CodehostFetch, type HealthReport, type HealthRow, type HealthcheckContext, type RowName, type RowStatus } from './types.js';
