import type { Static } from '@sinclair/typebox';
import type { CodehostApp } from '../validation.js';
import { replies } from '../schemas/common.js';
import { Root } from '../schemas/meta.js';
import type { Urls } from '../render.js';
import { DOCS, op, urlsOf } from './common.js';

/**
 * GitHub's API root, `GET /api/v3/` as GitHub Enterprise Server answers it: the links GitHub
 * lists, on this server's address. gh reads it to check a token (`gh auth login`, `gh auth
 * status`), with the `X-OAuth-Scopes` header every authenticated answer carries (./scope.ts).
 */
export function rootOf({ web, api }: Urls): Static<typeof Root> {
  const search = (what: string, more = '{&page,per_page,sort,order}') => `${api}/search/${what}?q={query}${more}`;
  return {
    current_user_url: `${api}/user`,
    current_user_authorizations_html_url: `${web}/settings/connections/applications{/client_id}`,
    authorizations_url: `${api}/authorizations`,
    code_search_url: search('code'),
    commit_search_url: search('commits'),
    emails_url: `${api}/user/emails`,
    emojis_url: `${api}/emojis`,
    events_url: `${api}/events`,
    feeds_url: `${api}/feeds`,
    followers_url: `${api}/user/followers`,
    following_url: `${api}/user/following{/target}`,
    gists_url: `${api}/gists{/gist_id}`,
    issue_search_url: search('issues'),
    issues_url: `${api}/issues`,
    keys_url: `${api}/user/keys`,
    label_search_url: `${api}/search/labels?q={query}&repository_id={repository_id}{&page,per_page}`,
    notifications_url: `${api}/notifications`,
    organization_url: `${api}/orgs/{org}`,
    organization_repositories_url: `${api}/orgs/{org}/repos{?type,page,per_page,sort}`,
    organization_teams_url: `${api}/orgs/{org}/teams`,
    public_gists_url: `${api}/gists/public`,
    rate_limit_url: `${api}/rate_limit`,
    repository_url: `${api}/repos/{owner}/{repo}`,
    repository_search_url: search('repositories'),
    current_user_repositories_url: `${api}/user/repos{?type,page,per_page,sort}`,
    starred_url: `${api}/user/starred{/owner}{/repo}`,
    starred_gists_url: `${api}/gists/starred`,
    topic_search_url: search('topics', '{&page,per_page}'),
    user_url: `${api}/users/{user}`,
    user_organizations_url: `${api}/user/orgs`,
    user_repositories_url: `${api}/users/{user}/repos{?type,page,per_page,sort}`,
    user_search_url: search('users'),
  };
}

export function metaRoutes(app: CodehostApp): void {
  app.get('/', { config: op(DOCS.root), schema: { response: replies({ 200: Root }) } }, async (request) => rootOf(urlsOf(request)));
}
