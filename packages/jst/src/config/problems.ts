import { JstError } from '../core/errors.js';
import { describeSource, settingFilePath, type JstConfig } from './load.js';
import type { SettingName } from '../core/settings.js';

/** One rule a configuration breaks; the healthcheck's `env_config` row lists these. */
export interface ConfigProblem {
  readonly code: string;
  readonly setting: SettingName | null;
  /** The file the bad value was read from, or the file a missing setting belongs in; null for the environment. */
  readonly file: string | null;
  readonly line?: number | undefined;
  /** What is wrong, naming setting and source. Never contains a token value. */
  readonly message: string;
  /** What to do about it. */
  readonly fix: string;
}

export function problemToError(problem: ConfigProblem): JstError {
  return new JstError({
    code: problem.code,
    problem: problem.message,
    hint: problem.fix,
    file: problem.file ?? undefined,
    line: problem.line,
    setting: problem.setting ?? undefined,
  });
}

/** Throws the first problem as a JstError (exit 2); returns `value` when there is none. */
export function orThrow<T>(problems: readonly ConfigProblem[], value: () => T): T {
  const first = problems[0];
  if (first !== undefined) throw problemToError(first);
  return value();
}

export function missing(config: JstConfig, name: SettingName, what: string, note?: string): ConfigProblem {
  const file = settingFilePath(config, name);
  if (emptiedInEnvironment(config, name)) {
    // ARCHITECTURE §10: the empty variable hides whatever the file holds, so the file is not the fix.
    const fix = `Set ${name}=<${what}> in the environment, or remove the empty variable (unset ${name}) so ${file} is read${note === undefined ? '' : `; ${note}`}`;
    return { code: 'CONFIG_MISSING', setting: name, file: null, message: `${name} is set but empty in the environment, which overrides ${file}`, fix };
  }
  const fix = `Add ${name}=<${what}> to ${file} or set it in the environment${note === undefined ? '' : `; ${note}`}`;
  return { code: 'CONFIG_MISSING', setting: name, file, message: `${name} is not set in ${file} nor in the environment`, fix };
}

/** "is not set in <file>", or "is set but empty in the environment" when an empty variable won (ARCHITECTURE §10). */
export function unsetWhere(config: JstConfig, name: SettingName): string {
  return emptiedInEnvironment(config, name) ? 'is set but empty in the environment' : `is not set in ${settingFilePath(config, name)}`;
}

/** Whether an empty environment variable is what leaves the setting unset (ARCHITECTURE §10). */
function emptiedInEnvironment(config: JstConfig, name: SettingName): boolean {
  return config.emptied[name]?.kind === 'environment';
}

export function bad(config: JstConfig, name: SettingName, code: string, what: string, fix: string): ConfigProblem {
  const source = config.settings[name]?.source ?? { kind: 'default' };
  const file = source.kind === 'file' ? source.file : null;
  const line = source.kind === 'file' ? source.line : undefined;
  return { code, setting: name, file, line, message: `${name} (from ${describeSource(source)}) ${what}`, fix };
}
