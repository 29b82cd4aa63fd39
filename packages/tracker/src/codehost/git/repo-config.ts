// The settings every repository of the code host is made with (git/repos.ts ensure()).

/** Configuration every repository gets (ARCHITECTURE §14: pushes over HTTP; force-push allowed as on GitHub). */
export const REPO_CONFIG: Array<[string, string]> = [
  ['http.receivepack', 'true'],
  ['http.uploadpack', 'true'],
  ['receive.denyNonFastForwards', 'false'],
  ['receive.denyDeletes', 'false'],
  ['receive.fsckObjects', 'true'],
  ['core.logAllRefUpdates', 'always'],
  // Several processes may update one ref at once: wait for each other's lock instead of failing.
  ['core.filesRefLockTimeout', '2000'],
  ['core.packedRefsTimeout', '5000'],
  ['uploadpack.allowFilter', 'true'],
];

/**
 * REPO_CONFIG as git-config text, appended to a new repository's config in one write where `git
 * config KEY VALUE` was a git process per key (ten processes became one, `git init`). The values
 * are plain words and numbers, so nothing needs quoting; a section that is already there (`core`)
 * may appear twice, and git reads both.
 */
export const REPO_CONFIG_TEXT = (() => {
  const sections = new Map<string, string[]>();
  for (const [key, value] of REPO_CONFIG) {
    const dot = key.indexOf('.');
    const lines = sections.get(key.slice(0, dot)) ?? [];
    lines.push(`\t${key.slice(dot + 1)} = ${value}\n`);
    sections.set(key.slice(0, dot), lines);
  }
  return [...sections].map(([section, lines]) => `[${section}]\n${lines.join('')}`).join('');
})();
