import path from 'node:path';
import { readEnvFile, type EnvEntry } from './env-file.js';
import { fileLocation } from '../core/errors.js';
import { exposedFileWarning } from './file-mode.js';

export type { ConfigWarning, JstConfig, SettingValue, StatusNames, ValueSource } from '../core/settings.js';
import { JST_DIR_NAME, locateJstDir, type JstLocation } from './locate.js';
import {
  FILE_NAMES,
  SETTING_NAMES,
  isSettingName,
  settingSpec,
  type ConfigWarning,
  type JstConfig,
  type SettingFile,
  type SettingName,
  type SettingValue,
  type ValueSource,
} from '../core/settings.js';
import { closestName } from './suggest.js';
import { normalizeBaseUrl, normalizeTrackerHost } from './values.js';

export interface LoadConfigOptions {
  cwd?: string | undefined;
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Where `.jst/` is for `cwd`, when the caller has just located it (config/cache.ts); else found here. */
  location?: JstLocation | undefined;
}

/**
 * Reads `.jst/team.env` and `.jst/local.env` (each optional here) and applies the process
 * environment on top (ARCHITECTURE §10). Loading is lenient: it throws only for a file it cannot
 * read or parse; rule violations are left to `validateConfig` and the `require*` functions, so the
 * healthcheck can report them as rows instead of crashing.
 */
export function loadConfig(options: LoadConfigOptions = {}): JstConfig {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const env = options.env ?? process.env;
  const { jstDir, repoRoot } = options.location ?? locateJstDir(cwd);
  const dir = jstDir ?? path.join(repoRoot ?? cwd, JST_DIR_NAME);
  const files = { team: path.join(dir, FILE_NAMES.team), local: path.join(dir, FILE_NAMES.local) };
  const warnings: ConfigWarning[] = [];
  // A value in its own file beats one misplaced in the other file; the environment beats both.
  const placed = new Map<SettingName, SettingValue>();
  const misplaced = new Map<SettingName, SettingValue>();
  const filesFound = { team: false, local: false };
  for (const kind of ['team', 'local'] as const) {
    const entries = jstDir === null ? null : readEnvFile(files[kind]);
    filesFound[kind] = entries !== null;
    for (const entry of entries ?? []) collect(entry, kind, files[kind], placed, misplaced, warnings);
    const exposed = kind === 'local' && entries !== null ? exposedFileWarning(files.local) : null;
    if (exposed !== null) warnings.push(exposed);
  }
  const settings: Partial<Record<SettingName, SettingValue>> = {};
  const emptied: Partial<Record<SettingName, ValueSource>> = {};
  for (const name of SETTING_NAMES) {
    const fromEnv = env[name];
    // ARCHITECTURE §10: a variable present in the environment overrides both files, also when it is
    // empty; an empty value then means what it means in a file (unset, or the run-time default).
    const value = fromEnv !== undefined ? { value: fromEnv, source: { kind: 'environment' } as const } : (placed.get(name) ?? misplaced.get(name));
    if (value === undefined) continue;
    if (value.value !== '') settings[name] = value;
    else emptied[name] = value.source;
  }
  const get = (name: SettingName): string | null => settings[name]?.value ?? null;
  const withDefault = (name: SettingName): string => get(name) ?? settingSpec(name).runtimeDefault ?? '';
  const urlOrDefault = (name: SettingName): string | null => normalizeBaseUrl(withDefault(name));
  return {
    cwd,
    jstDir,
    repoRoot,
    files,
    filesFound,
    settings,
    emptied,
    defaultBaseBranch: withDefault('DEFAULT_BASE_BRANCH'),
    productionBranch: get('PRODUCTION_BRANCH'),
    projectKey: get('PROJECT_KEY'),
    statuses: {
      todo: withDefault('STATUS_TODO'),
      inProgress: withDefault('STATUS_IN_PROGRESS'),
      inReview: withDefault('STATUS_IN_REVIEW'),
      done: withDefault('STATUS_DONE'),
    },
    trackerHost: normalizeTrackerHost(get('TRACKER_ACCOUNT_URL') ?? ''),
    worktreesDir: get('WORKTREES_DIR'),
    gatewayUrl: urlOrDefault('TRACKER_GATEWAY_URL'),
    codehostApiUrl: urlOrDefault('CODEHOST_API_URL'),
    warnings,
  };
}

function collect(
  entry: EnvEntry,
  kind: SettingFile,
  file: string,
  placed: Map<SettingName, SettingValue>,
  misplaced: Map<SettingName, SettingValue>,
  warnings: ConfigWarning[],
): void {
  const where = fileLocation(file, entry.line);
  const base = { setting: entry.name, file, line: entry.line };
  if (!isSettingName(entry.name)) {
    // A setting the program does not know is reported, never silently ignored: it is usually a typo.
    const suggestion = closestName(entry.name, SETTING_NAMES) as SettingName | undefined;
    const advice = suggestion === undefined ? 'remove it or check the spelling' : `did you mean ${suggestion}?`;
    warnings.push({ ...base, code: 'UNKNOWN_SETTING', suggestion, message: `unknown setting ${entry.name} in ${where}: ${advice}` });
    return;
  }
  const home = settingSpec(entry.name).file;
  const target = home === kind ? placed : misplaced;
  if (home !== kind) {
    warnings.push({
      ...base,
      code: 'WRONG_FILE',
      message: `${entry.name} in ${where} belongs in ${FILE_NAMES[home]}: move it there`,
    });
  }
  const previous = target.get(entry.name);
  if (previous !== undefined && previous.source.kind === 'file' && previous.source.file === file) {
    warnings.push({
      ...base,
      code: 'DUPLICATE_SETTING',
      message: `${entry.name} is set again in ${where}; the earlier line ${previous.source.line} is ignored`,
    });
  }
  target.set(entry.name, { value: entry.value, source: { kind: 'file', file, line: entry.line } });
}

/** Human form of a source: `/repo/.jst/local.env:4`, `the environment` or `the default`. */
export function describeSource(source: ValueSource): string {
  if (source.kind === 'file') return fileLocation(source.file, source.line);
  return source.kind === 'environment' ? 'the environment' : 'the default';
}

export function settingSource(config: JstConfig, name: SettingName): ValueSource {
  return config.settings[name]?.source ?? { kind: 'default' };
}

/** The file a setting belongs in (whether or not it exists yet). */
export function settingFilePath(config: JstConfig, name: SettingName): string {
  return config.files[settingSpec(name).file];
}

/** spec §2 / ARCHITECTURE §10: a missing production branch reads `unset`. */
export function displayProductionBranch(config: JstConfig): string {
  return config.productionBranch ?? 'unset';
}
