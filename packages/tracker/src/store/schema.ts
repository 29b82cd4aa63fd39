import type { Generated, Kysely, Transaction } from 'kysely';

/** One schema for SQLite and PostgreSQL. JSON is kept as text; times as ISO-8601 UTC text. */
export interface Database {
  sites: SitesTable;
  users: UsersTable;
  tokens: TokensTable;
  projects: ProjectsTable;
  members: MembersTable;
  statuses: StatusesTable;
  issues: IssuesTable;
  comments: CommentsTable;
  project_roles: ProjectRolesTable;
}

/** The store's connection or an open transaction: where a query runs (the aggregates and prepared.ts). */
export type Tx = Kysely<Database> | Transaction<Database>;

export interface SitesTable {
  id: Generated<number>;
  host: string;
  cloud_id: string;
  token_salt: string;
  created_at: string;
}

export interface UsersTable {
  id: Generated<number>;
  site_id: number;
  account_id: string;
  /** Lower-cased; e-mail matching is case-insensitive. */
  email: string;
  display_name: string;
  active: number;
}

export interface TokensTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  kind: string;
  /** JSON array of scope names; '[]' for classic tokens. */
  scopes: string;
}

export interface ProjectsTable {
  id: Generated<number>;
  site_id: number;
  key: string;
  name: string;
  lead_user_id: number | null;
  /** JSON of domain/workflow.ts Workflow. */
  workflow: string;
  issue_counter: number;
}

export interface MembersTable {
  project_id: number;
  user_id: number;
  role: string;
}

export interface StatusesTable {
  id: Generated<number>;
  site_id: number;
  name: string;
  category: string;
}

export interface IssuesTable {
  id: Generated<number>;
  project_id: number;
  number: number;
  key: string;
  issue_type: string;
  summary: string;
  description: string | null;
  status_id: number;
  parent_id: number | null;
  assignee_id: number | null;
  reporter_id: number;
  creator_id: number;
  created_at: string;
  updated_at: string;
  version: number;
}

export interface CommentsTable {
  id: Generated<number>;
  issue_id: number;
  author_id: number;
  body: string;
  created_at: string;
  updated_at: string;
}

/** The toolkit's role (`assigner`, `executor`, `reviewer`) a user holds in a project (migration 0005). */
export interface ProjectRolesTable {
  project_id: number;
  role: string;
  user_id: number;
}
