import { Type } from '@sinclair/typebox';

const url = Type.String();

/** `GET /` (GitHub's `root`): the hypermedia links of the API, URI templates as GitHub writes them. */
export const Root = Type.Object({
  current_user_url: url,
  current_user_authorizations_html_url: url,
  authorizations_url: url,
  code_search_url: url,
  commit_search_url: url,
  emails_url: url,
  emojis_url: url,
  events_url: url,
  feeds_url: url,
  followers_url: url,
  following_url: url,
  gists_url: url,
  issue_search_url: url,
  issues_url: url,
  keys_url: url,
  label_search_url: url,
  notifications_url: url,
  organization_url: url,
  organization_repositories_url: url,
  organization_teams_url: url,
  public_gists_url: url,
  rate_limit_url: url,
  repository_url: url,
  repository_search_url: url,
  current_user_repositories_url: url,
  starred_url: url,
  starred_gists_url: url,
  topic_search_url: Type.Optional(url),
  user_url: url,
  user_organizations_url: url,
  user_repositories_url: url,
  user_search_url: url,
});
