/** The part of jira-client 8.2 (plain JavaScript, no types of its own) that jira-client.test.ts calls. */
declare module 'jira-client' {
  type Json = any;
  interface JiraApiOptions {
    protocol?: string;
    host: string;
    port?: string;
    base?: string;
    username?: string;
    password?: string;
    apiVersion?: string;
    strictSSL?: boolean;
    timeout?: number;
  }
  interface UriOptions {
    pathname: string;
    query?: Record<string, string | number | boolean | undefined>;
  }
  export default class JiraApi {
    constructor(options: JiraApiOptions);
    makeUri(options: UriOptions): string;
    makeRequestHeader(uri: string, options?: { method?: string; body?: unknown; followAllRedirects?: boolean }): object;
    doRequest(requestOptions: object): Promise<Json>;
    getServerInfo(): Promise<Json>;
    getCurrentUser(): Promise<Json>;
    listFields(): Promise<Json>;
    listProjects(): Promise<Json>;
    getProject(project: string): Promise<Json>;
    listStatus(): Promise<Json>;
    listPriorities(): Promise<Json>;
    listIssueTypes(): Promise<Json>;
    addNewIssue(issue: unknown): Promise<Json>;
    findIssue(issueNumber: string): Promise<Json>;
    searchJira(jql: string, optional?: object): Promise<Json>;
    searchUsers(options: { query?: string; username?: string; maxResults?: number }): Promise<Json>;
    addComment(issueId: string, comment: unknown): Promise<Json>;
    getComments(issueId: string): Promise<Json>;
    listTransitions(issueId: string): Promise<Json>;
    transitionIssue(issueId: string, transition: unknown): Promise<Json>;
    updateAssigneeWithId(issueKey: string, accountId: string): Promise<Json>;
    deleteIssue(issueId: string): Promise<Json>;
  }
}
