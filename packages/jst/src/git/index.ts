// Thin typed wrapper over the git binary (no shell), for the healthcheck and the plan.
export { GitError, gitProcessCount, resetGitProcessCount, runGit, type GitOptions, type GitResult } from './run.js';
export {
  branchExists,
  checkRefFormat,
  configGet,
  configSet,
  currentBranch,
  fetch,
  gitVersion,
  isIgnored,
  isLinkedWorktree,
  parseWorktreeList,
  pullFfOnly,
  push,
  remoteBranchExists,
  remoteOrigins,
  remoteUrl,
  repoRoot,
  worktreeAdd,
  worktreeBranch,
  worktreeInfo,
  worktreeList,
  type WorktreeEntry,
  type WorktreeInfo,
} from './git.js';
export { displayRemote, parseRemote, type RemoteRepo } from './remote.js';
export { GIT_TOKEN_VARIABLE, withGitCaFile, withGitConfig, withGitToken } from './credential.js';
export { forgetReads, keptRead, readKey } from './reads.js';
