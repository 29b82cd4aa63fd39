import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CloudIdCache, TrackerClient } from '@jst/client';
import type { Codehost } from './codehost.js';
import { JstError } from './errors.js';
import type { Prompt } from './prompt.js';
import { isRole, type CodehostRole, type JstConfig, type Role } from './settings.js';

/** Where a command writes, and whether a person is watching (colour, prompts, human output). */
export interface Io {
  stdout: { write(text: string): unknown; isTTY?: boolean | undefined };
  stderr: { write(text: string): unknown; isTTY?: boolean | undefined };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean | undefined };
  /** Colour only on a terminal and never with NO_COLOR. */
  color: boolean;
  interactive: boolean;
}

/** What every command is a function of (docs/style.md): built once per run, injected, never global. */
export interface Context {
  cwd: string;
  env: NodeJS.ProcessEnv;
  io: Io;
  config(): JstConfig;
  client(role: Role): TrackerClient;
  /** How commands ask the person; absent = on the terminal (core/terminal-prompt.ts promptFor). `jst mcp` maps it to elicitation. */
  prompt?: ((interactive: boolean) => Prompt) | undefined;
  /** The MCP tool this run serves (its refusals name the tool's inputs, not the CLI's flags); undefined on the CLI. */
  tool?: string | undefined;
  /**
   * The code host of ARCHITECTURE §11 as the role's identity (ARCHITECTURE §10: the executor's token
   * pushes and opens pull requests, the reviewer's reviews); built on first use, a configuration
   * error names what it needs.
   */
  codehost(role: CodehostRole): Promise<Codehost>;
  /** Strips every configured secret from text that is about to be shown. */
  redact(text: string): string;
  close(): void;
}

export function processIo(env: NodeJS.ProcessEnv = process.env): Io {
  // isTTY is undefined, not false, when stdout is a pipe or a file, whatever its declared type says.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-conversion
  const tty = Boolean(process.stdout.isTTY);
  // process.stdin is built on first touch and costs ~10 ms at start-up: only commands that read it pay.
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    get stdin() {
      return process.stdin;
    },
    color: tty && env.NO_COLOR === undefined && env.TERM !== 'dumb',
    get interactive() {
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-conversion -- undefined on a pipe, as above
      return tty && Boolean(process.stdin.isTTY);
    },
  };
}

/**
 * The cloudId of each site host, cached in `.jst/cloud-id.json` (spec §4 client rule 1). Every
 * client of a run shares it, the healthcheck's too, so the two never disagree about the site; the
 * client replaces a stale entry itself when the tracker answers 404 for it.
 */
export function cloudIdFileCache(jstDir: string | null): CloudIdCache | undefined {
  if (!jstDir) return undefined;
  const file = join(jstDir, 'cloud-id.json');
  const read = (): Record<string, string> => {
    try {
      return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : {};
    } catch {
      return {};
    }
  };
  return {
    get: (host) => read()[host],
    set: (host, cloudId) => {
      try {
        mkdirSync(jstDir, { recursive: true });
        writeFileSync(file, `${JSON.stringify({ ...read(), [host]: cloudId }, null, 2)}\n`);
      } catch {
        /* a cache that cannot be written only costs one tenant_info call next time */
      }
    },
  };
}

/**
 * What a context is made of that core does not make: the loaded configuration, a role's tracker
 * client and code host, and the redactor of a configuration's secrets. The composition (src/compose.ts,
 * above config/ and codehost/) gives them; the context asks for each on first use and keeps it for the run.
 */
export interface ContextParts {
  loadConfig(): JstConfig;
  client(config: JstConfig, role: Role): TrackerClient;
  codehost(config: JstConfig, role: CodehostRole): Promise<Codehost>;
  redactor(config: JstConfig): (text: string) => string;
  /** Whether `close()` leaves the tracker clients open: a session's pool keeps them (`jst mcp`). */
  keepsClients: boolean;
}

export function makeContext(base: Pick<Context, 'cwd' | 'env' | 'io' | 'prompt' | 'tool'>, parts: ContextParts): Context {
  let config: JstConfig | undefined;
  const clients = new Map<Role, TrackerClient>();
  const codehosts = new Map<CodehostRole, Promise<Codehost>>();
  const ctx: Context = {
    cwd: base.cwd,
    env: base.env,
    io: base.io,
    prompt: base.prompt,
    tool: base.tool,
    config() {
      if (!config) {
        config = parts.loadConfig();
        // A setting the program does not know is reported, never silently ignored (a typo is the usual cause).
        for (const w of config.warnings) ctx.io.stderr.write(`jst: warning: ${w.message}\n`);
      }
      return config;
    },
    client(role) {
      if (!isRole(role)) {
        throw new JstError({
          code: 'USAGE',
          problem: `--role must be assigner, executor or reviewer (got "${String(role)}")`,
          hint: 'There is no default account: pass --role explicitly',
        });
      }
      let c = clients.get(role);
      if (!c) clients.set(role, (c = parts.client(ctx.config(), role)));
      return c;
    },
    codehost(role) {
      let c = codehosts.get(role);
      if (!c) codehosts.set(role, (c = parts.codehost(ctx.config(), role)));
      return c;
    },
    redact(text) {
      try {
        return parts.redactor(ctx.config())(text);
      } catch {
        return text;
      }
    },
    close() {
      if (!parts.keepsClients) for (const c of clients.values()) c.close();
    },
  };
  return ctx;
}
