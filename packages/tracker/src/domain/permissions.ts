/** Project roles (ARCHITECTURE §5). A non-member has no role: its reads are masked as 404. */
export type ProjectRole = 'admin' | 'member' | 'viewer';

export type Action = 'browse' | 'comment' | 'create' | 'edit' | 'assign' | 'transition' | 'delete' | 'modifyReporter';

const GRANTS: Record<ProjectRole, ReadonlySet<Action>> = {
  admin: new Set<Action>(['browse', 'comment', 'create', 'edit', 'assign', 'transition', 'delete', 'modifyReporter']),
  member: new Set<Action>(['browse', 'comment', 'create', 'edit', 'assign', 'transition']),
  viewer: new Set<Action>(['browse', 'comment']),
};

export function can(role: ProjectRole | null | undefined, action: Action): boolean {
  return role ? GRANTS[role].has(action) : false;
}

/** Who may hold an issue: people who can work on it, not read-only viewers. */
export function assignable(role: ProjectRole | null | undefined): boolean {
  return role === 'admin' || role === 'member';
}

export const PROJECT_ROLES: readonly ProjectRole[] = ['admin', 'member', 'viewer'];
