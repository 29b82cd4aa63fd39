import type { CodehostSeed } from './codehost/domain/seed.js';
import type { IssueMover } from './codehost/domain/integration.js';
import { moveIssueAs } from './domain/integration.js';
import { SeedError, type Seed } from './domain/seed.js';
import type { Tracker } from './domain/tracker.js';
import { workflowOf } from './domain/workflow.js';

/**
 * The code host's integration with the tracker (ARCHITECTURE §22), where the two meet: the seed's
 * `"tracker"` of a repository checked against the seed's sites, and the move the code host asks
 * for made by the tracker's own domain (domain/integration.ts), as the named user.
 */

/** A repository's `"tracker"` names a site, a user and statuses of this seed: the first that does not throws, naming its JSON path. */
export function checkTrackerLinks(codehost: CodehostSeed, seed: Seed, file = '<seed>'): void {
  codehost.repos.forEach((repo, ri) => {
    const link = repo.tracker;
    if (!link) return;
    const tp = `$.codehost.repos[${ri}].tracker`;
    const site = seed.sites.find((s) => s.host.toLowerCase() === link.site.toLowerCase());
    if (!site) throw new SeedError(file, `${tp}.site`, `names no site of $.sites (${seed.sites.map((s) => s.host).join(', ') || 'none'})`);
    if (!site.users.some((u) => u.email.toLowerCase() === link.as.toLowerCase())) {
      throw new SeedError(file, `${tp}.as`, `names no user of the site ${site.host} (its users' e-mail addresses)`);
    }
    const reached = new Set(site.projects.flatMap((p) => workflowOf(p.workflow).transitions.map((t) => t.to)));
    for (const key of ['onBranchCreate', 'onPullOpen', 'onMerge'] as const) {
      const status = link[key];
      if (status !== undefined && !reached.has(status)) {
        throw new SeedError(
          file,
          `${tp}.${key}`,
          `"${status}" is a status no transition of the site ${site.host}'s workflows reaches (${[...reached].join(', ')})`,
        );
      }
    }
  });
}

/** The code host's mover: the tracker's own transition and comment, as the named user. */
export function trackerMover(tracker: Tracker): IssueMover {
  return (ask) => moveIssueAs(tracker, ask);
}
