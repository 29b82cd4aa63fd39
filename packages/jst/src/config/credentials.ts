import type { JstConfig } from './load.js';
import { bad, missing, orThrow, type ConfigProblem } from './problems.js';
import { roleSettings, settingSpec, type Role, type SettingName } from './schema.js';
import { looksLikeFilePath } from './values.js';

const NO_DEFAULT = 'there is no default account (all three roles may use the same one)';

/** spec §2: all six credential values are required, with no default pair. */
export function checkRoleCredentials(config: JstConfig, role: Role): ConfigProblem[] {
  const names = roleSettings(role);
  const email = config.settings[names.email];
  const problems = email === undefined ? [missing(config, names.email, `${role} account e-mail`, NO_DEFAULT)] : [];
  // The value is not echoed: a token pasted into the wrong line must not leak through this message.
  if (email !== undefined && !/^[^\s@]+@[^\s@]+$/.test(email.value)) {
    problems.push(bad(config, names.email, 'CONFIG_EMAIL', 'is not an e-mail address', `Set ${names.email} to the ${role} account's e-mail address`));
  }
  return [...problems, ...checkToken(config, names.token, true)];
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

export function requireCodehostToken(config: JstConfig): string {
  return orThrow(checkToken(config, 'CODEHOST_PAT_TOKEN', true), () => config.settings.CODEHOST_PAT_TOKEN?.value ?? '');
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
