// Configuration layer of jst: `.jst/team.env` + `.jst/local.env` + environment (ARCHITECTURE §4, §10; spec §2).
export { EXIT_USAGE, JstError, fileLocation, isJstError, joinSentences, type JstErrorOptions } from '../core/errors.js';
export { formatEnvValue, parseEnvFile, readEnvFile, serializeEnvFile, type EnvEntry, type EnvLine } from './env-file.js';
export { JST_DIR_NAME, findRepoRoot, locateJstDir, type JstLocation } from './locate.js';
export {
  FILE_NAMES,
  ROLES,
  SECRET_SETTINGS,
  SETTINGS,
  SETTING_NAMES,
  codehostTokenSettings,
  codehostRoleOf,
  isRole,
  isSettingName,
  roleSettings,
  settingSpec,
  type CodehostRole,
  type Role,
  type SettingFile,
  type SettingKind,
  type SettingName,
  type SettingSpec,
} from '../core/settings.js';
export { closestName, editDistance } from './suggest.js';
export { hostPart, isInsecureUrl, isLoopbackHost, looksLikeFilePath, normalizeBaseUrl, normalizeTrackerHost, siteUrlForHost } from './values.js';
export {
  describeSource,
  displayProductionBranch,
  loadConfig,
  settingFilePath,
  settingSource,
  type ConfigWarning,
  type JstConfig,
  type LoadConfigOptions,
  type SettingValue,
  type StatusNames,
  type ValueSource,
} from './load.js';
export { configCache, type ConfigCache } from './cache.js';
export { problemToError, unsetWhere, type ConfigProblem } from './problems.js';
export {
  checkCodehostToken,
  checkRoleCredentials,
  codehostTokenSetting,
  onlyRole,
  requireCodehostToken,
  requireRoleCredentials,
  requireRoleEmail,
} from './credentials.js';
export {
  isValidBranchName,
  readWorktreesDir,
  requireAgentSandbox,
  requireBranchPair,
  requireCodehostApiUrl,
  requireGatewayUrl,
  requireProductionBranch,
  requireProjectKey,
  requireTrackerHost,
  requireWorktreesDir,
  siteUrl,
  validateConfig,
  type AgentSandbox,
  type WorktreesDirState,
  type WorktreesDirStatus,
} from './validate.js';
export { MIN_ANYWHERE, REDACTED, basicAuthSecrets, configRedactor, configSecrets, redact, redactorOf } from './redact.js';
export { findBwrap, sandboxState, type SandboxState } from './sandbox.js';
