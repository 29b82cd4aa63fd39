import { validateAdf } from '@jst/adf';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { storeKinds, type TestTracker } from '../../../../test/support/tracker.js';
import { anyDoc, chain } from './adf-arbitraries.js';
import { trackerWithFixture, type Fixture } from './fixture.js';
import { assertProperty, jsonHeaders, jsonText, LIMIT, RUNS, sendChecked, storeFingerprint, timeoutFor } from './support.js';

/**
 * Issue 4 "Hostile input", ADF (spec §2, §7: rich text must be ADF, else 400): random documents,
 * chains nested around and far beyond the validator's 100-level limit, documents tens of
 * thousands of nodes wide, and mutated documents, as a comment body and as a description.
 * The server's verdict must be the validator's, and an accepted document must read back as sent.
 */

/** How deep JSON text nests (the server refuses bodies over 512). */
function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === '[' || c === '{') deepest = Math.max(deepest, ++depth);
    else if (c === ']' || c === '}') depth--;
  }
  return deepest;
}

type Verdict = 413 | 400 | 'accepted';

/** What the server must answer for this body text, and why. */
function expected(text: string, field: (parsed: any) => unknown, nullClears = false): { verdict: Verdict; why: string } {
  if (Buffer.byteLength(text) > LIMIT) return { verdict: 413, why: 'over 1 MiB' };
  // The body parser refuses NUL (PostgreSQL cannot store it) and deep nesting before any field is read.
  if (text.includes('\\u0000')) return { verdict: 400, why: 'NUL' };
  if (jsonDepth(text) > 512) return { verdict: 400, why: 'JSON nested over 512' };
  const value = field(JSON.parse(text));
  if (value === null && nullClears) return { verdict: 'accepted', why: 'null clears the field' };
  const result = validateAdf(value);
  if (!result.ok) return { verdict: 400, why: `not ADF: ${result.message} at ${result.path}` };
  // Issue 14: a rich-text field's stored JSON is at most 32,767 characters (docs/limits.md).
  if (JSON.stringify(value).length > 32_767) return { verdict: 400, why: 'over 32,767 characters' };
  return { verdict: 'accepted', why: 'valid ADF' };
}

describe.each(await storeKinds())('spec §7 rule 2, hostile input: ADF documents deep and wide (%s)', (kind) => {
  let t: TestTracker;
  let fx: Fixture;
  trackerWithFixture(kind, (tracker, fixture) => {
    t = tracker;
    fx = fixture;
  });

  it('spec §7: the deepest document the validator allows (100 levels) is accepted and reads back; one level more is 400 on the field', async () => {
    const deepest = chain(99);
    const ok = await sendChecked({
      method: 'POST',
      url: `${t.api}/issue/${fx.targets.task}/comment`,
      headers: jsonHeaders('assigner'),
      body: JSON.stringify({ body: deepest }),
    });
    expect(ok.status).toBe(201);
    expect((ok.body as { body: unknown }).body).toEqual(deepest);
    const tooDeep = await sendChecked({
      method: 'POST',
      url: `${t.api}/issue/${fx.targets.task}/comment`,
      headers: jsonHeaders('assigner'),
      body: JSON.stringify({ body: chain(100) }),
    });
    expect(tooDeep.status).toBe(400);
    expect((tooDeep.body as { errors: Record<string, string> }).errors.body).toMatch(/deeper than 100/);
  });

  it(
    'POST /issue/{key}/comment: any document is accepted exactly when it is valid ADF (never a 5xx), an accepted one reads back as sent, a refused one writes nothing',
    async () => {
      await assertProperty(
        fc.asyncProperty(anyDoc, async (doc) => {
          const text = jsonText({ body: doc });
          const want = expected(text, (b) => b.body);
          const before = await storeFingerprint(t);
          const r = await sendChecked({ method: 'POST', url: `${t.api}/issue/${fx.targets.task}/comment`, headers: jsonHeaders('assigner'), body: text });
          if (want.verdict !== 'accepted') {
            expect(r.status, `${want.why}: ${r.text.slice(0, 300)}`).toBe(want.verdict);
            if (want.verdict === 400 && want.why.startsWith('not ADF')) expect(Object.keys((r.body as { errors: object }).errors)).toEqual(['body']);
            expect(await storeFingerprint(t)).toEqual(before);
            return;
          }
          expect(r.status, r.text.slice(0, 300)).toBe(201);
          // Stored as JSON text, so even a lone surrogate (escaped as \\uD800) comes back as sent.
          const sent = JSON.parse(text).body;
          const newest = await sendChecked({
            method: 'GET',
            url: `${t.api}/issue/${fx.targets.task}/comment?orderBy=-created&maxResults=1`,
            headers: jsonHeaders('viewer'),
          });
          const comment = (newest.body as { comments: { id: string; body: unknown }[] }).comments[0]!;
          expect(comment.id).toBe((r.body as { id: string }).id);
          expect(comment.body).toEqual(sent);
        }),
      );
    },
    timeoutFor(RUNS, 600),
  );

  it(
    'POST /issue and PUT /issue/{key}: any description is accepted exactly when it is valid ADF (never a 5xx), reads back as sent, and a refused one writes nothing',
    async () => {
      await assertProperty(
        fc.asyncProperty(anyDoc, fc.boolean(), async (doc, create) => {
          const body = create
            ? { fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: 'ADF property', description: doc } }
            : { fields: { description: doc } };
          const text = jsonText(body);
          const want = expected(text, (b) => b.fields.description, true);
          const before = await storeFingerprint(t);
          const r = create
            ? await sendChecked({ method: 'POST', url: `${t.api}/issue`, headers: jsonHeaders('executor'), body: text })
            : await sendChecked({ method: 'PUT', url: `${t.api}/issue/${fx.targets.task}`, headers: jsonHeaders('executor'), body: text });
          if (want.verdict !== 'accepted') {
            expect(r.status, `${want.why}: ${r.text.slice(0, 300)}`).toBe(want.verdict);
            if (want.verdict === 400 && want.why.startsWith('not ADF')) expect(Object.keys((r.body as { errors: object }).errors)).toEqual(['description']);
            expect(await storeFingerprint(t)).toEqual(before);
            return;
          }
          expect(r.status, r.text.slice(0, 300)).toBe(create ? 201 : 204);
          const key = create ? (r.body as { key: string }).key : fx.targets.task;
          const read = await sendChecked({ method: 'GET', url: `${t.api}/issue/${key}?fields=description`, headers: jsonHeaders('viewer') });
          expect((read.body as { fields: { description: unknown } }).fields.description).toEqual(JSON.parse(text).fields.description);
        }),
      );
    },
    timeoutFor(RUNS, 600),
  );
});
