import { Type, type TSchema } from '@sinclair/typebox';

/**
 * `GET|PUT|DELETE /repos/{owner}/{repo}/branches/{branch}/protection`, after GitHub's
 * branch-protection (GET), protected-branch (PUT) and its PUT body. The PUT's 422 carries plain
 * sentences (GitHub's validation_failed_simple), one per field.
 */
export const BranchParams = Type.Object({ owner: Type.String(), repo: Type.String(), branch: Type.String({ minLength: 1 }) });

const sentence = (schema: TSchema, field: string, what: string) => ({ ...schema, 'x-gh-sentence': `Invalid request. "${field}" ${what}.` });
const nullableObject = (properties: Record<string, TSchema>, required: string[] = []) =>
  Type.Unsafe<Record<string, unknown> | null>({ type: ['object', 'null'], properties, required });
const Strings = Type.Array(Type.String());

export const ProtectionBody = Type.Object({
  required_status_checks: Type.Unsafe<{ strict: boolean; contexts: string[]; checks?: { context: string; app_id?: number }[] } | null>(
    sentence(
      nullableObject(
        {
          strict: Type.Boolean(),
          contexts: Strings,
          checks: Type.Array(Type.Object({ context: Type.String(), app_id: Type.Optional(Type.Integer()) })),
        },
        ['strict', 'contexts'],
      ),
      'required_status_checks',
      'must be null or an object with strict and contexts',
    ),
  ),
  enforce_admins: Type.Unsafe<boolean | null>(sentence(Type.Unsafe({ type: ['boolean', 'null'] }), 'enforce_admins', 'must be a boolean or null')),
  required_pull_request_reviews: Type.Unsafe<{
    dismiss_stale_reviews?: boolean;
    require_code_owner_reviews?: boolean;
    required_approving_review_count?: number;
    require_last_push_approval?: boolean;
  } | null>(
    sentence(
      nullableObject({
        dismissal_restrictions: Type.Object({}),
        dismiss_stale_reviews: Type.Boolean(),
        require_code_owner_reviews: Type.Boolean(),
        required_approving_review_count: Type.Integer(),
        require_last_push_approval: Type.Boolean(),
        bypass_pull_request_allowances: Type.Object({}),
      }),
      'required_pull_request_reviews',
      'must be null or an object',
    ),
  ),
  restrictions: Type.Unsafe<{ users: string[]; teams: string[]; apps?: string[] } | null>(
    sentence(
      nullableObject({ users: Strings, teams: Strings, apps: Strings }, ['users', 'teams']),
      'restrictions',
      'must be null or an object with users and teams',
    ),
  ),
  required_linear_history: Type.Optional(Type.Unsafe<boolean>(sentence(Type.Boolean(), 'required_linear_history', 'must be a boolean'))),
  allow_force_pushes: Type.Optional(
    Type.Unsafe<boolean | null>(sentence(Type.Unsafe({ type: ['boolean', 'null'] }), 'allow_force_pushes', 'must be a boolean or null')),
  ),
  allow_deletions: Type.Optional(Type.Unsafe<boolean>(sentence(Type.Boolean(), 'allow_deletions', 'must be a boolean'))),
  block_creations: Type.Optional(Type.Unsafe<boolean>(sentence(Type.Boolean(), 'block_creations', 'must be a boolean'))),
  required_conversation_resolution: Type.Optional(Type.Unsafe<boolean>(sentence(Type.Boolean(), 'required_conversation_resolution', 'must be a boolean'))),
  lock_branch: Type.Optional(Type.Unsafe<boolean>(sentence(Type.Boolean(), 'lock_branch', 'must be a boolean'))),
  allow_fork_syncing: Type.Optional(Type.Unsafe<boolean>(sentence(Type.Boolean(), 'allow_fork_syncing', 'must be a boolean'))),
});

const Enabled = Type.Object({ enabled: Type.Boolean() });
const Checks = Type.Array(Type.Object({ context: Type.String(), app_id: Type.Union([Type.Integer(), Type.Null()]) }));

/** branch-protection (GET) and protected-branch (PUT): the same fields, as the code host fills them. */
export const BranchProtection = Type.Object({
  url: Type.String(),
  required_status_checks: Type.Optional(
    Type.Object({ url: Type.String(), strict: Type.Boolean(), contexts: Strings, contexts_url: Type.String(), checks: Checks }),
  ),
  required_pull_request_reviews: Type.Optional(
    Type.Object({
      url: Type.String(),
      dismiss_stale_reviews: Type.Boolean(),
      require_code_owner_reviews: Type.Boolean(),
      required_approving_review_count: Type.Integer(),
      require_last_push_approval: Type.Boolean(),
    }),
  ),
  required_signatures: Type.Object({ url: Type.String(), enabled: Type.Boolean() }),
  enforce_admins: Type.Object({ url: Type.String(), enabled: Type.Boolean() }),
  required_linear_history: Enabled,
  allow_force_pushes: Enabled,
  allow_deletions: Enabled,
  block_creations: Enabled,
  required_conversation_resolution: Enabled,
  lock_branch: Enabled,
  allow_fork_syncing: Enabled,
});
