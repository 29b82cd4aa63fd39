import { Readable } from 'node:stream';
import type { Prompt } from '../../src/core/prompt.js';
import type { CommandSpec, Face, Fields } from '../../src/commands/define.js';
import type { Role } from '../../src/config/index.js';
import { createContext } from '../../src/compose.js';
import type { Context, Io } from '../../src/core/context.js';
import { emit, type Outcome } from '../../src/core/output.js';
import { FIXTURE_GIT_ENV } from '../../../../test/support/repo.js';

/** What one in-process run printed and returned. */
export interface Ran {
  code: number;
  out: string;
  err: string;
  outcome: Outcome | null;
}

/**
 * A Context for running a command's spec in-process (docs/style.md: a command is a function of its
 * inputs and an injected context): captured stdout/stderr, no stdin, a prompt of the test's own;
 * the configuration is the real `.jst/` of `cwd`, the clients talk to a real jst-tracker.
 */
export function fakeContext(
  cwd: string,
  o: { tty?: boolean; prompt?: Prompt; env?: NodeJS.ProcessEnv; tool?: string } = {},
): { ctx: Context; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  const io: Io = {
    stdout: {
      write: (t: string) => {
        out += t;
        return true;
      },
      isTTY: o.tty ?? false,
    },
    stderr: {
      write: (t: string) => {
        err += t;
        return true;
      },
      isTTY: false,
    },
    stdin: Readable.from([]),
    color: false,
    interactive: false,
  };
  const ctx = createContext({ cwd, env: { ...FIXTURE_GIT_ENV, ...o.env }, io, ...(o.prompt ? { prompt: () => o.prompt! } : {}), tool: o.tool });
  return { ctx, out: () => out, err: () => err };
}

/** Runs a spec as its CLI face would (the outcome printed in the JSON or text form), in-process. */
export async function runSpec<F extends Fields>(
  spec: CommandSpec<F>,
  cwd: string,
  input: Partial<{ [K in keyof F]: unknown }>,
  face: { role?: Role; json?: boolean; tool?: string } = {},
): Promise<Ran> {
  const { ctx, out, err } = fakeContext(cwd, { tool: face.tool });
  const f: Face = { role: face.role ?? (spec.role === 'chosen' || spec.role === 'none' ? 'assigner' : spec.role), json: face.json ?? true, tool: face.tool };
  try {
    const r = await spec.run(ctx, input as never, f);
    const code = emit(ctx.io, r, f.json);
    return { code, out: out(), err: err(), outcome: r };
  } finally {
    ctx.close();
  }
}

/** A prompt that answers every yes/no with `yes` and records the questions. */
export function answering(yes: boolean): Prompt & { asked: string[] } {
  const asked: string[] = [];
  return {
    interactive: false,
    asked,
    ask: async (q) => {
      asked.push(q);
      throw new Error(`unexpected question: ${q}`);
    },
    askList: async (q) => {
      asked.push(q);
      return [];
    },
    yesNo: async (q) => {
      asked.push(q);
      return yes;
    },
    pause: async (q) => {
      asked.push(q);
    },
    close: () => undefined,
  };
}
