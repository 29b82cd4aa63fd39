/**
 * The tracker's values, as the domain rules and the HTTP renderers see them. The store reads and
 * writes exactly these shapes (store/rows.ts names them `…Row`), so this file imports nothing and
 * sits below all three layers: http and the domain name it as domain/model.ts, the store imports
 * it from here, and no layer imports one above it. Field names follow the columns (snake_case)
 * because the values are the rows, unconverted.
 */

export interface Site {
  id: number;
  host: string;
  cloud_id: string;
  token_salt: string;
}

/** `active` is 1 or 0 (SQLite has no boolean). */
export interface User {
  id: number;
  site_id: number;
  account_id: string;
  email: string;
  display_name: string;
  active: number;
}

/** `workflow` is the project's workflow as JSON text (domain/workflow.ts parses it). */
export interface Project {
  id: number;
  site_id: number;
  key: string;
  name: string;
  lead_user_id: number | null;
  workflow: string;
  issue_counter: number;
}

/** A project with the caller's role there (the board's project picker). */
export interface VisibleProject extends Project {
  role: string;
}

export interface Status {
  id: number;
  site_id: number;
  name: string;
  category: string;
}

/** `description` is ADF as JSON text; times are ISO-8601 UTC text. */
export interface Issue {
  id: number;
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

/** `body` is ADF as JSON text. */
export interface Comment {
  id: number;
  issue_id: number;
  author_id: number;
  body: string;
  created_at: string;
  updated_at: string;
}

/** One page of an issue's comments and how many it has in all. */
export interface CommentRows {
  total: number;
  rows: Comment[];
}
