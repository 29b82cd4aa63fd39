import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeKinds } from '../../../../../test/support/tracker.js';
import { CH_TOKENS, OWNER, REPO, startCodehostServer, type ChWho, type CodehostServer } from '../support.js';

/**
 * ARCHITECTURE §23 "GraphQL": what /api/graphql refuses — a query's cost, bad bodies and
 * credentials, a mutation's bad input, hostile input — in GitHub's shapes, writing nothing.
 */
const o = { owner: OWNER, repo: REPO };
type Answer = { data?: any; errors?: any[] };

describe.each(await storeKinds())('ARCHITECTURE §23: what the code host refuses at /api/graphql (%s)', (kind) => {
  let ch: CodehostServer;
  const post = async (who: string, body: unknown, raw = false): Promise<{ status: number; json: any }> => {
    const token = who in CH_TOKENS ? CH_TOKENS[who as ChWho] : who;
    const res = await fetch(`${ch.url}/api/graphql`, {
      method: 'POST',
      headers: { authorization: `bearer ${token}`, 'content-type': 'application/json' },
      body: raw ? (body as string) : JSON.stringify(body),
    });
    return { status: res.status, json: await res.json() };
  };
  const gql = async (who: ChWho, query: string, variables: Record<string, unknown> = {}): Promise<Answer> => {
    const { status, json } = await post(who, { query, variables });
    expect(status).toBe(200);
    return json as Answer;
  };
  let repoId: string;

  beforeAll(async () => {
    ch = await startCodehostServer(kind);
    ch.commit('feature/gql', { 'g.txt': 'g\n' });
    ch.commit('feature/other', { 'o.txt': 'o\n' });
    await ch.as('ada').rest.pulls.create({ ...o, head: 'feature/gql', base: 'main', title: 'a pull request to refer to' });
    repoId = (await gql('ada', 'query { repository(owner: "acme", name: "app") { id } }')).data.repository.id;
  });
  afterAll(async () => {
    await ch?.close();
  });

  it('cost: first/last required and 1..100 on a connection; the node limit; the depth limit', async () => {
    const missing = await gql('ada', 'query { repository(owner: "acme", name: "app") { pullRequests { nodes { id } } } }');
    expect(missing.errors?.[0]).toMatchObject({
      type: 'MISSING_PAGINATION_BOUNDARIES',
      message: 'You must provide a `first` or `last` value to properly paginate the `pullRequests` connection.',
    });
    const many = await gql('ada', 'query { repository(owner: "acme", name: "app") { pullRequests(first: 101) { nodes { id } } } }');
    expect(many.errors?.[0]).toMatchObject({ type: 'EXCESSIVE_PAGINATION' });
    expect(many.errors?.[0].message).toContain('1 to 100');
    const zero = await gql('ada', 'query($n: Int) { repository(owner: "acme", name: "app") { pullRequests(first: $n) { nodes { id } } } }', { n: 0 });
    expect(zero.errors?.[0]).toMatchObject({ type: 'EXCESSIVE_PAGINATION' });
    const huge = await gql(
      'ada',
      'query { repository(owner: "acme", name: "app") { pullRequests(first: 100) { nodes { commits(first: 100) { nodes { commit { authors(first: 100) { nodes { name } } } } } } } } }',
    );
    expect(huge.errors?.[0]).toMatchObject({ type: 'MAX_NODE_LIMIT_EXCEEDED' });
    expect(huge.errors?.[0].message).toContain('500,000');
    const deep = `query { repository(owner: "acme", name: "app") { ${'pullRequest(number: 1) { repository { '.repeat(13)}id${' } }'.repeat(13)} } }`;
    const d = await gql('ada', deep);
    expect(d.errors?.[0].message).toMatch(/exceeds max depth of \d+/);
    expect(d.data).toBeUndefined();
  });

  it("bad bodies and credentials: GitHub's answers, nothing run", async () => {
    expect(await post('ada', '{not json', true)).toEqual({
      status: 400,
      json: { message: 'Problems parsing JSON', documentation_url: 'https://docs.github.com/graphql' },
    });
    expect((await post('ada', {})).json).toEqual({ errors: [{ message: 'A query attribute must be specified and must be a string.' }] });
    expect((await post('ada', { query: 5 })).json.errors[0].message).toContain('query attribute');
    expect((await post('ada', { query: '{ viewer { login } }', variables: [1] })).json.errors[0].message).toContain('`variables` must be a JSON object');
    expect((await post('ada', [1])).json.errors[0].message).toContain('JSON object');
    const big = await post('ada', { query: `{ viewer { login } } #${'x'.repeat(1024 * 1024)}` });
    expect(big.status).toBe(413);
    expect(big.json.message).toContain('1048576');
    const long = await post('ada', { query: `{ viewer { login } } #${'x'.repeat(70_000)}` });
    expect(long.json.errors[0].message).toContain('Query is too long');
    const syntax = await post('ada', { query: '{ viewer { login }' });
    expect(syntax.status).toBe(200);
    expect(syntax.json.errors[0]).toMatchObject({ locations: [{ line: 1, column: 19 }] });
    expect(syntax.json.errors[0].message).toContain('Syntax Error');
    const vars = await post('ada', {
      query: 'query($n: Int!) { repository(owner: "acme", name: "app") { pullRequest(number: $n) { id } } }',
      variables: { n: 'x' },
    });
    expect(vars.json.errors[0].message).toContain('$n');
    const secret = 'Zz9-secret-token-value';
    const bad = await post(secret, { query: '{ viewer { login } }' });
    expect(bad).toEqual({ status: 401, json: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/graphql' } });
    expect(JSON.stringify(bad)).not.toContain(secret);
    const none = await fetch(`${ch.url}/api/graphql`, { method: 'POST', body: '{}' });
    expect(none.status).toBe(401);
    const get = await fetch(`${ch.url}/api/graphql`, { headers: { authorization: `bearer ${CH_TOKENS.ada}` } });
    expect(get.status).toBe(404);
  });

  it("mutations' bad input: REST's bounds and words (title, body, a missing branch, a blank comment); nothing written", async () => {
    const create = 'mutation($input: CreatePullRequestInput!) { createPullRequest(input: $input) { pullRequest { id } } }';
    const before = (await ch.as('ada').rest.pulls.list({ ...o, state: 'all' })).data.length;
    const long = await gql('ada', create, { input: { repositoryId: repoId, baseRefName: 'main', headRefName: 'feature/other', title: 't'.repeat(257) } });
    expect(long.errors?.[0]).toMatchObject({ type: 'UNPROCESSABLE', message: 'title is too long (maximum is 256 characters)' });
    const blank = await gql('ada', create, { input: { repositoryId: repoId, baseRefName: 'main', headRefName: 'feature/other', title: '  ' } });
    expect(blank.errors?.[0]).toMatchObject({ type: 'UNPROCESSABLE', message: "title can't be blank" });
    const body = await gql('ada', create, {
      input: { repositoryId: repoId, baseRefName: 'main', headRefName: 'feature/other', title: 'x', body: 'b'.repeat(65_537) },
    });
    expect(body.errors?.[0]).toMatchObject({ type: 'UNPROCESSABLE', message: 'body is too long (maximum is 65536 characters)' });
    const branch = await gql('ada', create, { input: { repositoryId: repoId, baseRefName: 'main', headRefName: 'no/such', title: 'x' } });
    expect(branch.errors?.[0]).toMatchObject({ type: 'UNPROCESSABLE', message: 'head is invalid' });
    expect((await ch.as('ada').rest.pulls.list({ ...o, state: 'all' })).data.length).toBe(before);
    const { data: pulls } = await ch.as('ada').rest.pulls.list({ ...o, state: 'all' });
    const comment = await gql('ada', 'mutation($i: AddCommentInput!) { addComment(input: $i) { commentEdge { node { body } } } }', {
      i: { subjectId: pulls[0]!.node_id, body: '' },
    });
    expect(comment.errors?.[0]).toMatchObject({ type: 'UNPROCESSABLE', message: "body can't be blank" });
  });

  it("hostile input: NUL characters, long names and ids, too many ids; answered in GitHub's shape, never a fault", async () => {
    const nul = await post('ada', { query: 'query($o: String!) { repository(owner: $o, name: "app") { id } }', variables: { o: 'acme\u0000' } });
    expect(nul).toEqual({
      status: 200,
      json: { errors: [{ message: 'The query or its variables contain a NUL character (\\u0000), which no field accepts.' }] },
    });
    const literal = await post('ada', { query: 'query { repository(owner: "acme\\u0000", name: "app") { id } }' });
    expect(literal.json.errors[0].message).toContain('NUL character');
    const long = await gql('ada', 'query($o: String!) { repository(owner: $o, name: "app") { id } }', { o: 'x'.repeat(5000) });
    expect(long.errors?.[0]).toMatchObject({ type: 'NOT_FOUND' });
    expect(long.errors![0].message.length).toBeLessThan(200);
    const badId = await gql('ada', 'query($id: ID!) { node(id: $id) { id } }', { id: 'y'.repeat(5000) });
    expect(badId.errors?.[0]).toMatchObject({ type: 'NOT_FOUND' });
    expect(badId.errors![0].message.length).toBeLessThan(200);
    const ids = Array.from({ length: 101 }, () => repoId);
    const many = await gql('ada', 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids });
    expect(many.errors?.[0].message).toBe('You may not ask for more than 100 ids at a time; you asked for 101.');
    const fanout = await gql(
      'ada',
      'query($ids: [ID!]!) { nodes(ids: $ids) { ... on Repository { pullRequests(first: 100) { nodes { commits(first: 100) { nodes { commit { oid } } } } } } } }',
      {
        ids: ids.slice(0, 100),
      },
    );
    expect(fanout.errors?.[0]).toMatchObject({ type: 'MAX_NODE_LIMIT_EXCEEDED' });
    const xss = '<script>alert(1)</script>';
    const echoed = await gql('ada', 'query($o: String!) { repository(owner: $o, name: "app") { id } }', { o: xss });
    expect(echoed.errors?.[0].message).toBe(`Could not resolve to a Repository with the name '${xss}/app'.`);
  });
});
