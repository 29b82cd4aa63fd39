import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TrackerClient, type CloudIdCache } from '@jst/client';
import { codehostFor, type CodehostClient } from '../codehost/index.js';
import {
  JstError,
  configRedactor,
  isRole,
  type ConfigCache,
  loadConfig,
  requireGatewayUrl,
  requireRoleCredentials,
  requireTrackerHost,
  type CodehostRole,
  type JstConfig,
  type Role,
} from '../config/index.js';
import { clientLimits } from './limits.js';
import type { Prompt } from './prompt.js';

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
  codehost(role: CodehostRole): Promise<CodehostClient>;
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

export interface ContextOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  io?: Io;
  prompt?: (interactive: boolean) => Prompt;
  /**
   * Tracker clients kept across contexts (a long-lived `jst mcp` session builds one context per
   * tool call and should not open a new connection for each); keyed by everything that built them.
   */
  clientPool?: Map<string, TrackerClient>;
  /** The configuration kept across contexts, loaded again when its files change (`jst mcp`; config/cache.ts). */
  configCache?: ConfigCache;
  tool?: string | undefined;
}

export function createContext(options: ContextOptions = {}): Context {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  let config: JstConfig | undefined;
  const clients = new Map<Role, TrackerClient>();
  const codehosts = new Map<CodehostRole, Promise<CodehostClient>>();
  const ctx: Context = {
    cwd,
    env,
    io: options.io ?? processIo(env),
    prompt: options.prompt,
    tool: options.tool,
    config() {
      if (!config) {
        config = options.configCache?.load({ cwd, env }) ?? loadConfig({ cwd, env });
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
      if (!c) {
        const cfg = ctx.config();
        const { email, token } = requireRoleCredentials(cfg, role);
        const made = {
          siteHost: requireTrackerHost(cfg),
          gatewayUrl: requireGatewayUrl(cfg),
          email,
          token,
          ...clientLimits(env),
        };
        const key = JSON.stringify(made);
        c = options.clientPool?.get(key) ?? new TrackerClient({ ...made, cloudIdCache: cloudIdFileCache(cfg.jstDir) });
        options.clientPool?.set(key, c);
        clients.set(role, c);
      }
      return c;
    },
    codehost(role) {
      let c = codehosts.get(role);
      if (!c) codehosts.set(role, (c = codehostFor(ctx.config(), role, cwd, env)));
      return c;
    },
    redact(text) {
      try {
        return configRedactor(ctx.config())(text);
      } catch {
        return text;
      }
    },
    close() {
      if (!options.clientPool) for (const c of clients.values()) c.close();
    },
  };
  return ctx;
}
