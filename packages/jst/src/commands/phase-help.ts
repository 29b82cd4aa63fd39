import type { Role } from '../config/index.js';

/** The `--help` tail of every phase 2-3 command: its fixed role, its steps on stderr, its exit codes. */
export const phaseHelp = (role: Role, codes: string) =>
  `Runs as the ${role} (--role ${role} is accepted, no other role). Each step is printed on stderr.\nExit codes: 0 done, ${codes}\nWith --json an error also prints {"error": {"code", "exitCode", "message"}} on stdout (README "Error codes").`;
