import { TrackerClient } from '@jst/client';
import { configRedactor, loadConfig, requireGatewayUrl, requireRoleCredentials, requireTrackerHost, type ConfigCache } from './config/index.js';
import { cloudIdFileCache, makeContext, processIo, type Context, type Io } from './core/context.js';
import { clientLimits } from './core/limits.js';
import type { Prompt } from './core/prompt.js';

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

/**
 * The context of one run (core/context.ts), put together from the layers above core: the configuration
 * from config/, the tracker clients from @jst/client with the role's credential, the code host from
 * codehost/. The CLI (program.ts, cli.ts) and each MCP tool call (mcp/call.ts) build theirs here.
 */
export function createContext(options: ContextOptions = {}): Context {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const pool = options.clientPool;
  return makeContext(
    { cwd, env, io: options.io ?? processIo(env), prompt: options.prompt, tool: options.tool },
    {
      loadConfig: () => options.configCache?.load({ cwd, env }) ?? loadConfig({ cwd, env }),
      client(config, role) {
        const { email, token } = requireRoleCredentials(config, role);
        const made = { siteHost: requireTrackerHost(config), gatewayUrl: requireGatewayUrl(config), email, token, ...clientLimits(env) };
        const key = JSON.stringify(made);
        const c = pool?.get(key) ?? new TrackerClient({ ...made, cloudIdCache: cloudIdFileCache(config.jstDir) });
        pool?.set(key, c);
        return c;
      },
      // Loaded on first use: the code host client brings git and child_process, which `jst raw` never needs.
      codehost: async (config, role) => (await import('./codehost/index.js')).codehostFor(config, role, cwd, env),
      redactor: configRedactor,
      keepsClients: pool !== undefined,
    },
  );
}
