import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import type { TrackerClient } from '@jst/client';
import { configCache, JstError, type ConfigCache } from '../config/index.js';
import { createContext } from '../compose.js';
import type { Context, Io } from '../core/context.js';
import { errorObject, EXIT, messageFor } from '../core/errors.js';
import * as git from '../git/index.js';
import type { Outcome } from '../core/output.js';
import { terminalText } from '../core/text.js';
import { ElicitPrompt, type Elicitor } from './elicit.js';

/** How long a call that sent progress waits after the last notification before its result (see callTool). */
const PROGRESS_SETTLE_MS = 20;

/** A tool result as the MCP SDK takes it (CallToolResult). */
export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** What one `jst mcp` process keeps between tool calls. */
export interface Session {
  cwd: string;
  env: NodeJS.ProcessEnv;
  clientPool: Map<string, TrackerClient>;
  /** `.jst/` as last read for each folder, read again when a file changes (config/cache.ts). */
  configs: ConfigCache;
  /** The git common dir of the server's folder (null outside a repository), found once. */
  home: Promise<string | null>;
  /** Where a step line goes besides the progress notifications (the server's stderr). */
  log(line: string): void;
}

/** Per call: a progress sink (when the client sent a progressToken) and the elicitation channel. */
export interface CallChannel extends Elicitor {
  progress?: ((n: number, message: string) => Promise<void>) | undefined;
}

export function openSession(cwd: string, env: NodeJS.ProcessEnv, log: (line: string) => void): Session {
  return { cwd, env, clientPool: new Map(), configs: configCache(), home: commonDir(cwd, env), log };
}

export function closeSession(s: Session): void {
  for (const c of s.clientPool.values()) c.close();
  s.clientPool.clear();
}

/**
 * Runs one command for one tool call (docs/style.md "One command, three faces"): a Context of its own
 * with captured io, the role's credentials read from `.jst` as the CLI reads them, questions put
 * through elicitation. Each line the command prints on stderr is one progress notification. A
 * command that stops (a rule, a refusal, a question nobody can answer here) is a tool result with
 * `isError: true` and the command's own text, never a protocol error. Every text leaves redacted.
 */
export async function callTool(
  session: Session,
  channel: CallChannel,
  cwdArg: string | undefined,
  work: (ctx: Context) => Promise<Outcome>,
  tool?: string,
): Promise<ToolResult> {
  let sent = Promise.resolve();
  let steps = 0;
  let ctx: Context | undefined;
  const redact = (text: string) => (ctx ? ctx.redact(text) : text);
  const io = capturedIo((line) => {
    const text = redact(line);
    session.log(text);
    if (channel.progress) {
      const n = ++steps;
      sent = sent.then(() => channel.progress!(n, text)).catch(() => undefined);
    }
  });
  // Every step's notification is written before the result. The SDK's client dispatches a
  // notification a microtask later but a response at once, so when both arrive in one read it drops
  // the notifications that came first; a short pause after the last one lets it read them apart.
  const drained = async () => {
    io.flush();
    await sent;
    if (steps > 0) await new Promise((r) => setTimeout(r, PROGRESS_SETTLE_MS));
  };
  try {
    // git reads kept by the previous call (a branch's config, the refs) are read again: the person
    // may have changed them between calls.
    git.forgetReads();
    const cwd = await resolveCwd(session, cwdArg);
    ctx = createContext({
      cwd,
      env: session.env,
      io,
      clientPool: session.clientPool,
      configCache: session.configs,
      prompt: () => new ElicitPrompt(channel),
      tool,
    });
    const out = await work(ctx);
    await drained();
    const json = redactJson(out.json, redact);
    return {
      content: [{ type: 'text', text: terminalText(redact(out.text), false).replace(/\n$/, '') }],
      ...(isObject(json) ? { structuredContent: json } : {}),
      ...(out.code === EXIT.ok ? {} : { isError: true }),
    };
  } catch (e) {
    await drained();
    // The CLI's --json error ({"error": {code, exitCode, message}}), plus the question when one is left open.
    const message = redact(messageFor(e));
    const { error } = errorObject(e, message);
    const { question, command } = e as { question?: unknown; command?: unknown };
    return {
      content: [{ type: 'text', text: terminalText(message, false) }],
      structuredContent: {
        error: {
          ...error,
          ...(typeof question === 'string' ? { question: redact(question) } : {}),
          ...(typeof command === 'string' ? { command: redact(command) } : {}),
        },
      },
      isError: true,
    };
  } finally {
    ctx?.close();
  }
}

/** A tool's `cwd`: the server's folder when absent; else a folder of the same repository (its worktrees included). */
async function resolveCwd(session: Session, arg: string | undefined): Promise<string> {
  if (arg === undefined || arg === '') return session.cwd;
  const dir = resolve(session.cwd, arg);
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    /* reported below */
  }
  if (!isDir)
    throw new JstError({
      code: 'MCP_CWD',
      problem: `cwd ${dir} is not a folder`,
      hint: 'Pass a folder of this repository or one of its worktrees, or leave cwd out',
    });
  const home = await session.home;
  if (home === null) return dir;
  if ((await commonDir(dir, session.env)) !== home) {
    throw new JstError({
      code: 'MCP_CWD',
      problem: `cwd ${dir} is outside the repository this server runs in (${session.cwd})`,
      hint: 'Pass a folder of this repository or one of its worktrees, or start jst mcp in the other repository',
    });
  }
  return dir;
}

async function commonDir(cwd: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  try {
    return (await git.worktreeInfo(cwd, { env })).commonDir;
  } catch {
    return null;
  }
}

/** stdout kept, stderr cut into lines for `onLine`, no stdin, no colour, nobody at a terminal. */
function capturedIo(onLine: (line: string) => void): Io & { flush(): void } {
  let pending = '';
  let stdin: Readable | undefined;
  const stdout = {
    text: '',
    write(t: string) {
      this.text += t;
      return true;
    },
    isTTY: false,
  };
  return {
    stdout,
    stderr: {
      write(t: string) {
        pending += t;
        const lines = pending.split('\n');
        pending = lines.pop()!;
        for (const l of lines) onLine(l);
        return true;
      },
      isTTY: false,
    },
    // An empty stream, made only if a command reads it (most never do; it costs a stream per call).
    get stdin() {
      return (stdin ??= Readable.from([]));
    },
    color: false,
    interactive: false,
    flush() {
      if (pending) {
        onLine(pending);
        pending = '';
      }
    },
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The JSON, with every configured secret replaced (only re-parsed when one was found). */
function redactJson(value: unknown, redact: (t: string) => string): unknown {
  const text = JSON.stringify(value);
  const clean = redact(text);
  return clean === text ? value : (JSON.parse(clean) as unknown);
}
