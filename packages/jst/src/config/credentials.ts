import type { JstConfig } from './load.js';
import { bad, missing, orThrow, type ConfigProblem } from './problems.js';
import { codehostTokenSettings, isRole, roleSettings, settingSpec, type CodehostRole, type Role, type SettingName } from '../core/settings.js';
import { looksLikeFilePath } from './values.js';

const NO_DEFAULT = 'there is no default account (all three roles may use the same one)';

/**
 * ARCHITECTURE §10: the one role a local file holds credentials for (`JST_ONLY_ROLE`, written by
 * `jst dispatch` into the file it gives an agent); null for an ordinary local file, which holds all three.
 */
export function onlyRole(config: JstConfig): Role | null {
  const value = config.settings.JST_ONLY_ROLE?.value.trim().toLowerCase();
  return value !== undefined && isRole(value) ? value : null;
}

/** A JST_ONLY_ROLE that names no role: every role's command would be refused, so it is an error of its own. */
export function checkOnlyRole(config: JstConfig): ConfigProblem[] {
  const set = config.settings.JST_ONLY_ROLE;
  if (set === undefined || onlyRole(config) !== null) return [];
  return [
    bad(config, 'JST_ONLY_ROLE', 'CONFIG_ROLE', `is "${set.value}", not assigner, executor or reviewer`, 'Remove JST_ONLY_ROLE: only jst dispatch writes it'),
  ];
}

/**
 * A setting missing from a file limited to another role is that limit at work, not a slip: the
 * message says so, naming the setting, instead of asking the reader to add a credential.
 */
function limitedTo(config: JstConfig, role: Role, problems: ConfigProblem[]): ConfigProblem[] {
  const only = onlyRole(config);
  if (only === null || only === role) return problems;
  return problems.map((p) =>
    p.code !== 'CONFIG_MISSING' || p.setting === null
      ? p
      : {
          ...p,
          code: 'CONFIG_ROLE_LIMITED',
          message: `${p.setting} is not set: ${config.files.local} holds only the ${only}'s credentials (JST_ONLY_ROLE=${only}), so the ${role}'s commands do not run here`,
          fix: `This is the ${only}'s sandbox (jst dispatch): leave the ${role}'s work to the ${role}`,
        },
  );
}

/** spec §2: all six credential values are required, with no default pair (a file limited to one role: that role's). */
export function checkRoleCredentials(config: JstConfig, role: Role): ConfigProblem[] {
  const names = roleSettings(role);
  const email = config.settings[names.email];
  const problems = email === undefined ? [missing(config, names.email, `${role} account e-mail`, NO_DEFAULT)] : [];
  // The value is not echoed: a token pasted into the wrong line must not leak through this message.
  if (email !== undefined && !/^[^\s@]+@[^\s@]+$/.test(email.value)) {
    problems.push(bad(config, names.email, 'CONFIG_EMAIL', 'is not an e-mail address', `Set ${names.email} to the ${role} account's e-mail address`));
  }
  return limitedTo(config, role, [...problems, ...checkToken(config, names.token, true)]);
}

/** spec §5 rule 3: the role picks its own pair; there is no default account. */
export function requireRoleCredentials(config: JstConfig, role: Role): { email: string; token: string } {
  const names = roleSettings(role);
  return orThrow(checkRoleCredentials(config, role), () => ({
    email: config.settings[names.email]?.value ?? '',
    token: config.settings[names.token]?.value ?? '',
  }));
}

/** The role's e-mail from local configuration alone (spec §1 rule 9: no tracker call, no token needed). */
export function requireRoleEmail(config: JstConfig, role: Role): string {
  const name = roleSettings(role).email;
  return orThrow(
    checkRoleCredentials(config, role).filter((p) => p.setting === name),
    () => config.settings[name]?.value ?? '',
  );
}

/**
 * ARCHITECTURE §10: the setting a role's code-host token is read from: its own
 * (`CODEHOST_EXECUTOR_TOKEN`, `CODEHOST_REVIEWER_TOKEN`) when set, else `CODEHOST_PAT_TOKEN`. In a
 * file limited to one role (JST_ONLY_ROLE), another role has no fallback: its own setting is the one missing.
 */
export function codehostTokenSetting(config: JstConfig, role: CodehostRole): SettingName {
  const { own, shared } = codehostTokenSettings(role);
  if (config.settings[own] !== undefined) return own;
  const only = onlyRole(config);
  return only !== null && only !== role ? own : shared;
}

/** The problems of a role's code-host token (none when it is set and is no file path). */
export function checkCodehostToken(config: JstConfig, role: CodehostRole): ConfigProblem[] {
  return limitedTo(config, role, checkToken(config, codehostTokenSetting(config, role), true));
}

export function requireCodehostToken(config: JstConfig, role: CodehostRole): { setting: SettingName; token: string } {
  const setting = codehostTokenSetting(config, role);
  return orThrow(checkCodehostToken(config, role), () => ({ setting, token: config.settings[setting]?.value ?? '' }));
}

export function checkToken(config: JstConfig, name: SettingName, required: boolean): ConfigProblem[] {
  const setting = config.settings[name];
  if (setting === undefined)
    return required ? [missing(config, name, settingSpec(name).description, name === 'CODEHOST_PAT_TOKEN' ? undefined : NO_DEFAULT)] : [];
  const dirs = [config.cwd, ...(config.jstDir === null ? [] : [config.jstDir])];
  // spec §2: a token setting holds the token value, not a file path.
  if (!looksLikeFilePath(setting.value, dirs)) return [];
  return [
    bad(
      config,
      name,
      'CONFIG_TOKEN_IS_PATH',
      'holds a file path, not a token',
      `Paste the token value itself into ${name} (${name}=<token>), not the path of a file that contains it`,
    ),
  ];
}
