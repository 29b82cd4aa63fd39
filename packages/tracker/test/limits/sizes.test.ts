import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adf, createIssue, startTestTracker, storeKinds, type TestTracker } from '../../../../test/support/tracker.js';

/**
 * Issue 14 item 1: the size limits of docs/limits.md, as the hosted service holds them. Every
 * refusal is checked for its exact status and message, and for having written nothing.
 */

const TOO_LONG = 'The entered text is too long. It exceeds the allowed limit of 32,767 characters.';
const MAX = 32_767;

/** A one-paragraph document whose stored JSON is exactly `length` characters. */
function docOfLength(length: number): unknown {
  const overhead = JSON.stringify(adf('')).length;
  const doc = adf('x'.repeat(length - overhead));
  expect(JSON.stringify(doc).length).toBe(length);
  return doc;
}

const text = (doc: any): string => doc.content[0].content[0].text;

describe.each(await storeKinds())('docs/limits.md: text fields over 32,767 characters are refused (%s)', (kind) => {
  let t: TestTracker;
  beforeAll(async () => {
    t = await startTestTracker(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a comment body of 32,768 characters is 400 with the vendor message in errors.body and adds nothing; 32,767 is accepted', async () => {
    const key = await createIssue(t, 'assigner', {});
    const refused = await t.as('viewer').post(`/issue/${key}/comment`, { body: docOfLength(MAX + 1) });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ errorMessages: [], errors: { body: TOO_LONG } });
    expect((await t.as('assigner').get(`/issue/${key}/comment`)).body.total).toBe(0);
    const accepted = await t.as('viewer').post(`/issue/${key}/comment`, { body: docOfLength(MAX) });
    expect(accepted.status).toBe(201);
    expect(text(accepted.body.body)).toHaveLength(MAX - JSON.stringify(adf('')).length);
  });

  it('ADF markup counts: 20,000 characters of text in 2,000 marked text nodes (over 32,767 stored) is 400', async () => {
    const key = await createIssue(t, 'assigner', {});
    const nodes = Array.from({ length: 2_000 }, () => ({ type: 'text', text: 'ten chars.', marks: [{ type: 'strong' }] }));
    const doc = { type: 'doc', version: 1, content: [{ type: 'paragraph', content: nodes }] };
    const r = await t.as('assigner').post(`/issue/${key}/comment`, { body: doc });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual({ body: TOO_LONG });
  });

  it('a description over the limit is 400 in errors.description on create (no issue, no key used) and on edit (unchanged)', async () => {
    const before = await createIssue(t, 'assigner', {});
    const create = await t
      .as('assigner')
      .post('/issue', { fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: 'big', description: docOfLength(MAX + 1) } });
    expect(create.status).toBe(400);
    expect(create.body).toEqual({ errorMessages: [], errors: { description: TOO_LONG } });
    const after = await createIssue(t, 'assigner', { description: docOfLength(MAX) });
    expect(Number(after.split('-')[1])).toBe(Number(before.split('-')[1]) + 1);
    const edit = await t.as('assigner').put(`/issue/${after}`, { fields: { description: docOfLength(MAX + 1) } });
    expect(edit.status).toBe(400);
    expect(edit.body.errors).toEqual({ description: TOO_LONG });
    const read = await t.as('assigner').get(`/issue/${after}?fields=description`);
    expect(JSON.stringify(read.body.fields.description)).toHaveLength(MAX);
  });

  it('a summary over 255 characters is 400 in errors.summary (the vendor limit for summary)', async () => {
    const r = await t.as('assigner').post('/issue', { fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: 's'.repeat(256) } });
    expect(r.status).toBe(400);
    expect(r.body.errors.summary).toMatch(/255 characters/);
  });
});

describe.each(await storeKinds())('docs/limits.md: the request-body cap is configurable, 413 before parsing (%s)', (kind) => {
  let t: TestTracker;
  beforeAll(async () => {
    t = await startTestTracker(kind, undefined, { server: { bodyLimit: 16 * 1024 } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a body over --body-limit (16 KiB here) is 413 with an ErrorCollection naming the limit; nothing is written', async () => {
    const key = await createIssue(t, 'assigner', {});
    const r = await t.as('assigner').post(`/issue/${key}/comment`, { body: adf('y'.repeat(17 * 1024)) });
    expect(r.status).toBe(413);
    expect(r.body).toEqual({ errorMessages: ['The request body is larger than the limit of 16384 bytes (jst-tracker serve --body-limit).'], errors: {} });
    expect((await t.as('assigner').get(`/issue/${key}/comment`)).body.total).toBe(0);
    // Refused from Content-Length alone: a body that is not even JSON gets the same answer.
    const garbage = await t
      .as('assigner')
      .raw(`/issue/${key}/comment`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{'.repeat(20 * 1024) });
    expect(garbage.status).toBe(413);
  });
});
