import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeKinds } from '../../../../../test/support/tracker.js';
import { CH_TOKENS, OWNER, REPO, refusal, startCodehostServer, type ChWho, type CodehostServer } from '../support.js';

/**
 * ARCHITECTURE §23 "GraphQL": POST /api/graphql answered through the code host's domain, each
 * change checked afterwards through GitHub's REST client (Octokit); errors in GitHub's shapes.
 */
const o = { owner: OWNER, repo: REPO };
type Answer = { data?: any; errors?: any[] };

describe.each(await storeKinds())('ARCHITECTURE §23: the code host answers GraphQL at /api/graphql (%s)', (kind) => {
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
    repoId = (await gql('ada', 'query { repository(owner: "acme", name: "app") { id } }')).data.repository.id;
  });
  afterAll(async () => {
    await ch?.close();
  });

  it("viewer and repository: the REST node_id is the GraphQL ID; the repository's fields", async () => {
    const a = await gql(
      'ada',
      'query { viewer { login } repository(owner: "acme", name: "app") { id name nameWithOwner viewerPermission defaultBranchRef { name } isPrivate } }',
    );
    const rest = await ch.as('ada').rest.repos.get(o);
    expect(a.data).toEqual({
      viewer: { login: 'ada' },
      repository: {
        id: rest.data.node_id,
        name: 'app',
        nameWithOwner: 'acme/app',
        viewerPermission: 'WRITE',
        defaultBranchRef: { name: 'main' },
        isPrivate: true,
      },
    });
  });

  it('createPullRequest, then pullRequest and pullRequests (head/base/states), as REST sees them', async () => {
    const c = await gql(
      'ada',
      'mutation($input: CreatePullRequestInput!) { createPullRequest(input: $input) { pullRequest { id number url state headRefName baseRefName } } }',
      { input: { repositoryId: repoId, baseRefName: 'main', headRefName: 'feature/gql', title: 'Via GraphQL', body: 'made by a mutation' } },
    );
    expect(c.errors).toBeUndefined();
    const pr = c.data.createPullRequest.pullRequest;
    const rest = await ch.as('vic').rest.pulls.get({ ...o, pull_number: pr.number });
    expect(rest.data).toMatchObject({ title: 'Via GraphQL', body: 'made by a mutation', node_id: pr.id, html_url: pr.url, state: 'open' });
    expect(pr).toMatchObject({ state: 'OPEN', headRefName: 'feature/gql', baseRefName: 'main' });

    const v = await gql(
      'vic',
      'query($n: Int!) { repository(owner: "acme", name: "app") { pullRequest(number: $n) { title additions deletions changedFiles mergeable author { login } commits { totalCount } } } }',
      {
        n: pr.number,
      },
    );
    expect(v.data.repository.pullRequest).toEqual({
      title: 'Via GraphQL',
      additions: rest.data.additions,
      deletions: rest.data.deletions,
      changedFiles: rest.data.changed_files,
      mergeable: 'MERGEABLE',
      author: { login: 'ada' },
      commits: { totalCount: rest.data.commits },
    });
    const l = await gql(
      'vic',
      'query { repository(owner: "acme", name: "app") { pullRequests(first: 10, headRefName: "feature/gql", baseRefName: "main", states: [OPEN, CLOSED, MERGED]) { totalCount nodes { number } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor } } } }',
    );
    const conn = l.data.repository.pullRequests;
    expect(conn.totalCount).toBe(1);
    expect(conn.nodes).toEqual([{ number: pr.number }]);
    expect(conn.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
    expect(conn.edges[0].cursor).toBe(conn.pageInfo.endCursor);
    const n = await gql('vic', 'query($id: ID!) { node(id: $id) { ... on PullRequest { number } } nodes(ids: [$id]) { id } }', { id: pr.id });
    expect(n.data).toEqual({ node: { number: pr.number }, nodes: [{ id: pr.id }] });
  });

  it('connections page with first/after and last/before', async () => {
    ch.commit('feature/p2', { 'p2.txt': 'x\n' });
    await ch.as('ada').rest.pulls.create({ ...o, head: 'feature/p2', base: 'main', title: 'p2' });
    const q =
      'query($a: String, $b: String, $f: Int, $l: Int) { repository(owner: "acme", name: "app") { pullRequests(first: $f, after: $a, last: $l, before: $b) { totalCount nodes { title } pageInfo { hasNextPage hasPreviousPage endCursor startCursor } } } }';
    const one = (await gql('ada', q, { f: 1 })).data.repository.pullRequests;
    expect(one.nodes).toHaveLength(1);
    expect(one.pageInfo.hasNextPage).toBe(true);
    const two = (await gql('ada', q, { f: 1, a: one.pageInfo.endCursor })).data.repository.pullRequests;
    expect(two.nodes[0].title).not.toBe(one.nodes[0].title);
    expect(two.pageInfo.hasPreviousPage).toBe(true);
    const last = (await gql('ada', q, { l: 1 })).data.repository.pullRequests;
    expect(last.nodes).toEqual(two.nodes);
    const bad = await gql('ada', q, { f: 1, a: 'not-a-cursor' });
    expect(bad.errors?.[0].message).toContain('does not appear to be a valid cursor');
  });

  it('addPullRequestReview, addComment, updatePullRequest, close, reopen and merge, each seen through REST', async () => {
    const { data: pull } = await ch.as('ada').rest.pulls.list({ ...o, head: 'acme:feature/gql' });
    const id = pull[0]!.node_id;
    const number = pull[0]!.number;
    const own = await gql('ada', 'mutation($i: AddPullRequestReviewInput!) { addPullRequestReview(input: $i) { pullRequestReview { state } } }', {
      i: { pullRequestId: id, event: 'APPROVE', body: 'mine' },
    });
    expect(own.errors?.[0]).toMatchObject({ type: 'UNPROCESSABLE', message: 'Can not approve your own pull request' });
    const review = await gql(
      'rey',
      'mutation($i: AddPullRequestReviewInput!) { addPullRequestReview(input: $i) { pullRequestReview { state body author { login } } } }',
      {
        i: { pullRequestId: id, event: 'REQUEST_CHANGES', body: 'please fix' },
      },
    );
    expect(review.data.addPullRequestReview.pullRequestReview).toEqual({ state: 'CHANGES_REQUESTED', body: 'please fix', author: { login: 'rey' } });
    await gql('rey', 'mutation($i: AddPullRequestReviewInput!) { addPullRequestReview(input: $i) { clientMutationId } }', {
      i: { pullRequestId: id, event: 'APPROVE', body: 'ok' },
    });
    const reviews = await ch.as('ada').rest.pulls.listReviews({ ...o, pull_number: number });
    expect(reviews.data.map((r) => r.state)).toEqual(['CHANGES_REQUESTED', 'APPROVED']);
    const decision = await gql(
      'ada',
      'query($n: Int!) { repository(owner: "acme", name: "app") { pullRequest(number: $n) { reviewDecision latestReviews(first: 10) { nodes { state } } reviews(first: 10) { totalCount } } } }',
      { n: number },
    );
    expect(decision.data.repository.pullRequest).toEqual({
      reviewDecision: 'APPROVED',
      latestReviews: { nodes: [{ state: 'APPROVED' }] },
      reviews: { totalCount: 2 },
    });

    const comment = await gql('ada', 'mutation($i: AddCommentInput!) { addComment(input: $i) { commentEdge { node { body url } } } }', {
      i: { subjectId: id, body: 'a comment' },
    });
    expect(comment.data.addComment.commentEdge.node.body).toBe('a comment');
    expect((await ch.as('ada').rest.issues.listComments({ ...o, issue_number: number })).data.map((c) => c.body)).toContain('a comment');

    await gql('ada', 'mutation($i: UpdatePullRequestInput!) { updatePullRequest(input: $i) { pullRequest { title } } }', {
      i: { pullRequestId: id, title: 'Renamed', body: 'new body' },
    });
    expect((await ch.as('ada').rest.pulls.get({ ...o, pull_number: number })).data).toMatchObject({ title: 'Renamed', body: 'new body' });

    await gql('ada', 'mutation($i: ClosePullRequestInput!) { closePullRequest(input: $i) { pullRequest { state } } }', { i: { pullRequestId: id } });
    expect((await ch.as('ada').rest.pulls.get({ ...o, pull_number: number })).data.state).toBe('closed');
    await gql('ada', 'mutation($i: ReopenPullRequestInput!) { reopenPullRequest(input: $i) { pullRequest { state } } }', { i: { pullRequestId: id } });
    expect((await ch.as('ada').rest.pulls.get({ ...o, pull_number: number })).data.state).toBe('open');

    const merged = await gql('ada', 'mutation($i: MergePullRequestInput!) { mergePullRequest(input: $i) { pullRequest { state mergedBy { login } } } }', {
      i: { pullRequestId: id, mergeMethod: 'MERGE' },
    });
    expect(merged.data.mergePullRequest.pullRequest).toEqual({ state: 'MERGED', mergedBy: { login: 'ada' } });
    expect((await ch.as('ada').rest.pulls.checkIfMerged({ ...o, pull_number: number })).status).toBe(204);
    const byState = async (states: string) =>
      (await gql('ada', `query { repository(owner: "acme", name: "app") { pullRequests(first: 50, states: ${states}) { totalCount nodes { number } } } }`)).data
        .repository.pullRequests;
    expect((await byState('[MERGED]')).nodes).toEqual([{ number }]);
    expect((await byState('[CLOSED]')).nodes).not.toContainEqual({ number });
    expect((await byState('[OPEN]')).nodes).not.toContainEqual({ number });
    const again = await gql('ada', 'mutation($i: MergePullRequestInput!) { mergePullRequest(input: $i) { clientMutationId } }', { i: { pullRequestId: id } });
    expect(again.errors?.[0]).toMatchObject({ type: 'UNPROCESSABLE', message: 'Pull Request is not mergeable', path: ['mergePullRequest'] });
  });

  it("search(type: ISSUE) answers gh's `repo:o/r is:pr author:@me` and finds nothing for review-requested", async () => {
    const q = 'query($q: String!) { search(query: $q, type: ISSUE, first: 10) { issueCount nodes { ... on PullRequest { title author { login } } } } }';
    const mine = await gql('ada', q, { q: 'repo:acme/app state:open is:pr author:@me' });
    expect(mine.data.search.issueCount).toBeGreaterThan(0);
    expect(mine.data.search.nodes.every((n: { author: { login: string } }) => n.author.login === 'ada')).toBe(true);
    expect((await gql('ada', q, { q: 'repo:acme/app is:pr review-requested:@me' })).data.search.issueCount).toBe(0);
    expect((await gql('olga', q, { q: 'repo:acme/app is:pr author:ada' })).data.search.issueCount).toBe(0);
  });

  it('every timestamp to the second, as GitHub sends it and as REST answers it (ARCHITECTURE §22 Fidelity)', async () => {
    const { data: pulls } = await ch.as('ada').rest.pulls.list({ ...o, state: 'all', head: 'acme:feature/gql' });
    const p = pulls[0]!;
    const r = await gql(
      'ada',
      'query($n: Int!) { repository(owner: "acme", name: "app") { pullRequest(number: $n) { createdAt updatedAt closedAt mergedAt comments(first: 10) { nodes { createdAt } } reviews(first: 10) { nodes { submittedAt } } } } }',
      { n: p.number },
    );
    const pr = r.data.repository.pullRequest;
    expect(pr.createdAt).toBe(p.created_at);
    expect(pr.mergedAt).toBe(p.merged_at);
    const all = [
      pr.createdAt,
      pr.updatedAt,
      pr.closedAt,
      pr.mergedAt,
      ...pr.comments.nodes.map((c: { createdAt: string }) => c.createdAt),
      ...pr.reviews.nodes.map((v: { submittedAt: string }) => v.submittedAt),
    ];
    expect(all.length).toBeGreaterThan(6);
    for (const t of all) expect(t).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it("masking: a stranger's repository and node are NOT_FOUND, as REST's 404", async () => {
    const a = await gql('olga', 'query { repository(owner: "acme", name: "app") { id } }');
    expect(a).toEqual({
      data: { repository: null },
      errors: [
        {
          type: 'NOT_FOUND',
          path: ['repository'],
          locations: [{ line: 1, column: 9 }],
          message: "Could not resolve to a Repository with the name 'acme/app'.",
        },
      ],
    });
    expect((await refusal(ch.as('olga').rest.repos.get(o))).status).toBe(404);
    const missing = await gql('olga', 'query { repository(owner: "acme", name: "nope") { id } }');
    expect(missing.errors?.[0].message).toBe("Could not resolve to a Repository with the name 'acme/nope'.");
    const node = await gql('olga', 'query($id: ID!) { node(id: $id) { id } }', { id: repoId });
    expect(node.errors?.[0]).toMatchObject({ type: 'NOT_FOUND' });
    const nopr = await gql('ada', 'query { repository(owner: "acme", name: "app") { pullRequest(number: 999) { id } } }');
    expect(nopr.errors?.[0]).toMatchObject({ type: 'NOT_FOUND', message: 'Could not resolve to a PullRequest with the number of 999.' });
  });

  it("FORBIDDEN: a reader's mutation changes nothing", async () => {
    const before = (await ch.as('ada').rest.pulls.list({ ...o, state: 'all' })).data.length;
    const r = await gql('vic', 'mutation($input: CreatePullRequestInput!) { createPullRequest(input: $input) { pullRequest { id } } }', {
      input: { repositoryId: repoId, baseRefName: 'main', headRefName: 'feature/other', title: 'nope' },
    });
    expect(r.errors?.[0]).toMatchObject({ type: 'FORBIDDEN', message: 'vic does not have the correct permissions to execute `CreatePullRequest`' });
    expect(r.data).toEqual({ createPullRequest: null });
    expect((await ch.as('ada').rest.pulls.list({ ...o, state: 'all' })).data.length).toBe(before);
  });

  it("undefinedField: a field outside the subset is refused in GitHub's shape, never answered", async () => {
    const r = await gql('ada', 'query { viewer { login bio } }');
    expect(r).toEqual({
      errors: [
        {
          path: ['query', 'viewer', 'bio'],
          extensions: { code: 'undefinedField', typeName: 'User', fieldName: 'bio' },
          locations: [{ line: 1, column: 24 }],
          message: "Field 'bio' doesn't exist on type 'User'",
        },
      ],
    });
  });
  it('two merges of one pull request at once: one merges, the other is refused in words, never a fault', async () => {
    ch.commit('feature/race', { 'race.txt': 'r\n' });
    const { data: pr } = await ch.as('ada').rest.pulls.create({ ...o, head: 'feature/race', base: 'main', title: 'race' });
    const merge = 'mutation($i: MergePullRequestInput!) { mergePullRequest(input: $i) { pullRequest { state } } }';
    const both = await Promise.all([gql('ada', merge, { i: { pullRequestId: pr.node_id } }), gql('rey', merge, { i: { pullRequestId: pr.node_id } })]);
    const won = both.filter((a) => a.data?.mergePullRequest?.pullRequest?.state === 'MERGED');
    const lost = both.filter((a) => a.errors);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]!.errors![0].type).toBe('UNPROCESSABLE');
    expect((await ch.as('ada').rest.pulls.get({ ...o, pull_number: pr.number })).data.merged).toBe(true);
  });
  it("introspection: gh pr merge reads PullRequest's fields", async () => {
    const r = await gql('ada', 'query { PullRequest: __type(name: "PullRequest") { fields(includeDeprecated: true) { name } } }');
    const names = r.data.PullRequest.fields.map((f: { name: string }) => f.name);
    expect(names).toContain('mergeStateStatus');
    expect(names).not.toContain('bio');
  });
});
