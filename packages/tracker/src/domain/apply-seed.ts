import { randomUUID } from 'node:crypto';
import { setProjectRole } from '../store/roles.js';
import type { Store } from '../store/store.js';
import { accountIdFor } from './ids.js';
import { displayNameOf, type Seed, type SeedSite } from './seed.js';
import { hashToken, newSalt } from '../kit/tokens.js';
import { hasConditions, workflowOf, type Workflow } from './workflow.js';

/**
 * Writes a seed into the store, declaratively: what exists is left as it is, what differs is
 * updated, what is missing is added. Loading the same seed twice therefore changes nothing.
 * Nothing is ever deleted by a seed (issues and comments belong to the users, not the seed).
 */
export async function applySeed(store: Store, seed: Seed, now = new Date().toISOString()): Promise<void> {
  await store.transaction(async (tx) => {
    await store.lockForSeed(tx);
    const sites = await store.sites.list(tx);
    for (const s of seed.sites) {
      let site = sites.find((row) => (s.cloudId ? row.cloud_id === s.cloudId : row.host === s.host));
      if (!site && sites.some((row) => row.host === s.host)) {
        throw new Error(
          `seed: site "${s.host}" already exists with another cloud id; a seed cannot change a site's cloud id (remove "cloudId" or use the stored one)`,
        );
      }
      if (!site) {
        site = await store.sites.insert(tx, { host: s.host, cloud_id: s.cloudId ?? randomUUID(), token_salt: newSalt() }, now);
      } else if (site.host !== s.host) {
        await store.sites.updateHost(tx, site.id, s.host);
      }
      const userIds = new Map<string, number>();
      for (const u of s.users) {
        let user = await store.users.byEmail(site.id, u.email, tx);
        if (!user) {
          user = await store.users.insert(tx, {
            site_id: site.id,
            account_id: accountIdFor(site.cloud_id, u.email),
            email: u.email,
            display_name: u.displayName,
            active: 1,
          });
        } else if (user.display_name !== u.displayName) {
          await store.users.updateName(tx, user.id, u.displayName);
        }
        userIds.set(u.email, user.id);
        for (const t of u.tokens) {
          await store.users.insertTokenIfAbsent(tx, user.id, {
            token_hash: hashToken(site.token_salt, t.token),
            kind: t.kind,
            scopes: JSON.stringify(t.scopes),
          });
        }
      }
      // ARCHITECTURE §5: a member who is not among "users" is still a person of the site, made
      // without tokens (so they cannot sign in); someone already stored is left as they are, so a
      // later seed that lists them under "users" just adds their tokens and name.
      for (const email of membersOnly(s)) {
        const user =
          (await store.users.byEmail(site.id, email, tx)) ??
          (await store.users.insert(tx, {
            site_id: site.id,
            account_id: accountIdFor(site.cloud_id, email),
            email,
            display_name: displayNameOf(email),
            active: 1,
          }));
        userIds.set(email, user.id);
      }
      for (const p of s.projects) {
        const workflow: Workflow = workflowOf(p.workflow);
        for (const st of workflow.statuses) await store.projects.ensureStatus(tx, site.id, st.name, st.category);
        const lead = p.lead ? (userIds.get(p.lead) ?? null) : null;
        const existing = await store.projects.byKey(site.id, p.key, tx);
        const project =
          existing ?? (await store.projects.insert(tx, { site_id: site.id, key: p.key, name: p.name, lead_user_id: lead, workflow: JSON.stringify(workflow) }));
        if (existing && (existing.name !== p.name || existing.lead_user_id !== lead || existing.workflow !== JSON.stringify(workflow))) {
          await store.projects.update(tx, existing.id, { name: p.name, lead_user_id: lead, workflow: JSON.stringify(workflow) });
        }
        // Whether what a workflow condition is decided by changed (spec §3 rule 5): the workflow, a member's role, a role's holder.
        let standingChanged = existing !== undefined && existing.workflow !== JSON.stringify(workflow);
        for (const m of p.members) standingChanged = (await store.projects.upsertMember(tx, project.id, userIds.get(m.email)!, m.role)) || standingChanged;
        // ARCHITECTURE §5 "roles": who holds each toolkit role (a role the seed leaves out keeps its holder).
        for (const [role, email] of Object.entries(p.roles ?? {}))
          standingChanged = (await setProjectRole(tx, project.id, role, userIds.get(email)!)) || standingChanged;
        // spec §3 rule 5: a transition is checked against the condition read with the issue it writes
        // over; moving every issue's version here makes a transition decided under the condition this
        // seed replaces lose its compare-and-set and decide again, so the two end as one or the other.
        const conditioned = hasConditions(workflow) || (existing !== undefined && hasConditions(JSON.parse(existing.workflow) as Workflow));
        if (existing && standingChanged && conditioned) await store.projects.touchIssues(tx, project.id);
      }
    }
  });
}

/** The e-mails a site's projects name as members that are not among its users, once each. */
function membersOnly(site: SeedSite): Set<string> {
  const users = new Set(site.users.map((u) => u.email));
  return new Set(site.projects.flatMap((p) => p.members.map((m) => m.email)).filter((e) => !users.has(e)));
}
