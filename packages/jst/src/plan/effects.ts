import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AdfDoc } from '@jst/adf';
import { allComments, type Comment, type IssueFields, type TrackerClient } from '@jst/client';
import * as git from '../git/index.js';

/**
 * Every change the plan makes goes through here, so `--dry-run` can print each tracker call and
 * git command instead of making it (issue 6 "Safety"), and the steps stay free of that concern.
 */
export interface Effects {
  readonly dryRun: boolean;
  createIssue(fields: IssueFields): Promise<string>;
  /** The key of an issue this run created before it was cut off, found by its marker. */
  findIssueByMarker(project: string, marker: string): Promise<string | null>;
  /** Writes an issue's description again (a corrected plan, ARCHITECTURE §7). */
  editDescription(key: string, description: AdfDoc): Promise<void>;
  comments(key: string): Promise<Comment[]>;
  addComment(key: string, body: AdfDoc, text: string): Promise<void>;
  worktreeAdd(path: string, branch: string, startPoint: string): Promise<void>;
  configSet(key: string, value: string): Promise<void>;
  push(branch: string): Promise<void>;
  copyJstDir(to: string): Promise<void>;
}

export function realEffects(client: TrackerClient, repo: string, jstDir: string, env: NodeJS.ProcessEnv): Effects {
  const o = { env };
  return {
    dryRun: false,
    createIssue: async (fields) => (await client.createIssue(fields)).key,
    async findIssueByMarker(project, marker) {
      const res = await client.searchJql({ jql: `project = "${project}" AND text ~ "${marker}" ORDER BY created DESC`, fields: ['key'], maxResults: 5 });
      return res.issues[0]?.key ?? null;
    },
    editDescription: (key, description) => client.editIssue(key, { description }),
    comments: (key) => allComments(client, key),
    addComment: async (key, body) => {
      await client.addComment(key, body);
    },
    worktreeAdd: (path, branch, start) => git.worktreeAdd(repo, path, branch, start, o),
    configSet: (key, value) => git.configSet(repo, key, value, o),
    push: (branch) => git.push(repo, branch, o),
    async copyJstDir(to) {
      mkdirSync(join(to, '.jst'), { recursive: true });
      cpSync(jstDir, join(to, '.jst'), {
        recursive: true,
        filter: (src) => !/(^|[\\/])(plan-journal[^\\/]*|dispatch|dispatch-journal\.json)$/.test(src) && !src.endsWith('.tmp'),
      });
    },
  };
}

/** Prints what would be done; reads nothing that a real run would have created. */
export function dryRunEffects(say: (line: string) => void, apiBase: string, repo: string): Effects {
  let n = 0;
  return {
    dryRun: true,
    async createIssue(fields) {
      n++;
      const key = `${fields.project.key}-<new ${n}>`;
      say(
        `POST ${apiBase}/issue  ${fields.issuetype.name} "${fields.summary}"${fields.parent ? ` parent ${fields.parent.key}` : ''} assignee ${fields.assignee?.accountId ?? 'none'} → ${key}`,
      );
      return key;
    },
    findIssueByMarker: async () => null,
    async editDescription(key) {
      say(`PUT ${apiBase}/issue/${key}  description`);
    },
    comments: async () => [],
    async addComment(key, _body, text) {
      say(`POST ${apiBase}/issue/${key}/comment  "${text.split('\n')[0]}"`);
    },
    async worktreeAdd(path, branch, start) {
      say(`git -C ${repo} worktree add -b ${branch} ${path} ${start}`);
    },
    async configSet(key, value) {
      say(`git -C ${repo} config ${key} ${value}`);
    },
    async push(branch) {
      say(`git -C ${repo} push -u origin ${branch}`);
    },
    async copyJstDir(to) {
      say(`copy .jst/ → ${join(to, '.jst')} (local.env only where git ignores it)`);
    },
  };
}

export const pathExists = (p: string) => existsSync(p);
