import { describe, expect, it } from 'vitest';
import { assertMatchesGitHub } from '../../../../test/support/github-openapi.js';

/** The check every code-host test relies on can fail: GitHub's description refuses a wrong answer. */
describe("ARCHITECTURE §14: answers are checked against GitHub's own description", () => {
  const api = 'http://127.0.0.1:1/api/v3';

  it('refuses a pull request without the properties GitHub requires', () => {
    expect(() => assertMatchesGitHub('GET', `${api}/repos/a/b/pulls/1`, 200, { number: 1, title: 't' })).toThrow(/does not match GitHub's description/);
  });

  it('refuses a merge result without `merged`, and an error body without documentation_url', () => {
    expect(() => assertMatchesGitHub('PUT', `${api}/repos/a/b/pulls/1/merge`, 200, { sha: 'abc', message: 'x' })).toThrow(/merged/);
    expect(() => assertMatchesGitHub('GET', `${api}/repos/a/b`, 404, { message: 'Not Found' })).toThrow(/documentation_url/);
  });

  it('refuses an operation or a success status GitHub does not document', () => {
    expect(() => assertMatchesGitHub('DELETE', `${api}/repos/a/b/pulls/1`, 204, undefined)).toThrow(/not an operation/);
    expect(() => assertMatchesGitHub('POST', `${api}/repos/a/b/pulls`, 200, {})).toThrow(/documents no such answer/);
  });

  it("takes GitHub's own example answers", () => {
    expect(() =>
      assertMatchesGitHub('PUT', `${api}/repos/a/b/pulls/1/merge`, 200, {
        sha: '6dcb09b5b57875f334f61aebed695e2e4193db5e',
        merged: true,
        message: 'Pull Request successfully merged',
      }),
    ).not.toThrow();
    expect(() =>
      assertMatchesGitHub('POST', `${api}/repos/a/b/pulls`, 422, {
        message: 'Validation Failed',
        documentation_url: 'https://docs.github.com/rest',
        errors: [{ resource: 'PullRequest', field: 'head', code: 'invalid' }],
      }),
    ).not.toThrow();
  });
});
