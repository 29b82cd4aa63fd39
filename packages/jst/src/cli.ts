/**
 * The jst entry point. `raw` and `batch`, which scripts and agents call in loops, take a fast path
 * that parses its few arguments by hand: commander and the other commands' modules are loaded only
 * for everything else (issue 5: within 25 ms of `node -e 0`).
 */
import type { Role } from './config/index.js';

const ROLES = ['assigner', 'executor', 'reviewer'];

/** `[--role R] raw METHOD PATH [BODY]` or `[--role R] batch`, with --role before or after the verb; null = not that shape. */
export function fastPath(argv: string[]): { role: Role; verb: 'raw' | 'batch'; args: string[] } | null {
  let role: string | undefined;
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--role' && i + 1 < argv.length) role = argv[++i];
    else if (a.startsWith('--role=')) role = a.slice(7);
    else if (a.startsWith('-') && a !== '-')
      return null; // --help and anything else: the full parser
    else rest.push(a);
  }
  if (!role || !ROLES.includes(role)) return null;
  const [verb, ...args] = rest;
  if (verb === 'raw' && args.length >= 2 && args.length <= 3) return { role: role as Role, verb, args };
  if (verb === 'batch' && args.length === 0) return { role: role as Role, verb, args };
  return null;
}

async function run(argv: string[]): Promise<number> {
  const fast = fastPath(argv);
  if (!fast) return (await import('./program.js')).main(argv);
  const [{ createContext }, { exitCodeFor, messageFor }, { emit, errorLine }] = await Promise.all([
    import('./compose.js'),
    import('./core/errors.js'),
    import('./core/output.js'),
  ]);
  const ctx = createContext();
  try {
    if (fast.verb === 'batch') return emit(ctx.io, await (await import('./commands/api/batch/run.js')).batch(ctx, fast.role), false);
    const [method, path, body] = fast.args as [string, string, string | undefined];
    return emit(ctx.io, await (await import('./commands/api/raw/run.js')).raw(ctx, fast.role, method, path, body), false);
  } catch (e) {
    process.stderr.write(errorLine(ctx.redact(messageFor(e))));
    return exitCodeFor(e);
  } finally {
    ctx.close();
  }
}

// A reader that went away (`jst … | head`) ends what is shown, not the command: the rest of the
// output is dropped and the work (a plan's steps, a verdict) finishes as it would have.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE' && e.code !== 'ERR_STREAM_DESTROYED') throw e;
  });
}

// run() turns every failure into an exit code itself; the promise never rejects.
void run(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
