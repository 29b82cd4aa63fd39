import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstLineText } from '@jst/adf';
import type { TrackerClient } from '@jst/client';
import { createContext } from '../../packages/jst/src/compose.js';
import type { Context, Io } from '../../packages/jst/src/core/context.js';
import { closeApproved, sendBack } from '../../packages/jst/src/phase/race.js';
import { jstFolder } from '../support/jst-cli.js';
import { adf, createIssue, startTestTracker, storeKinds, type TestTracker } from '../support/tracker.js';

const S = { inProgress: 'In Progress', inReview: 'In Review', done: 'Done' };
const quiet: Io = { stdout: { write: () => true }, stderr: { write: () => true }, stdin: new PassThrough(), color: false, interactive: false };

/**
 * The other party, run at an exact point of one side's run: `after(n, method, fn)` runs `fn` right
 * after the n-th call of `method` on the real client has been answered (the tracker's own state
 * is what both sides read; nothing is stubbed).
 */
function interleaved(client: TrackerClient, at: { method: keyof TrackerClient; n: number; then: () => Promise<void> }[]): TrackerClient {
  const counts = new Map<string, number>();
  return new Proxy(client, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const result = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        const n = (counts.get(String(prop)) ?? 0) + 1;
        counts.set(String(prop), n);
        for (const h of at) if (h.method === prop && h.n === n) await h.then();
        return result;
      };
    },
  });
}

/**
 * ARCHITECTURE §11 "a verdict and done that race never both succeed" (packages/jst/src/phase/race.ts):
 * each interleaving the concurrent test cannot aim at, played out exactly against a real tracker.
 */
describe.each(await storeKinds())('ARCHITECTURE §11: done and a verdict asking for changes, each interleaving played out (%s)', (kind) => {
  let t: TestTracker;
  let dir: string;
  let ctx: () => Context;
  const statusOf = async (k: string): Promise<string> => (await t.as('assigner').get(`/issue/${k}?fields=status`)).body.fields.status.name;
  const move = async (k: string, status: string) => {
    const { transitions } = (await t.as('reviewer').get(`/issue/${k}/transitions`)).body as { transitions: { id: string; to: { name: string } }[] };
    expect((await t.as('reviewer').post(`/issue/${k}/transitions`, { transition: { id: transitions.find((x) => x.to.name === status)!.id } })).status).toBe(
      204,
    );
  };
  const comment = async (k: string, text: string): Promise<string> =>
    (await t.as('reviewer').post(`/issue/${k}/comment`, { body: adf(text) })).body.id as string;
  const firstLines = async (k: string) =>
    ((await t.as('assigner').get(`/issue/${k}/comment`)).body.comments as { body: unknown }[]).map((c) => firstLineText(c.body));
  /** An issue in review whose newest verdict (the reviewer's) is an approval. */
  const approved = async () => {
    const k = await createIssue(t, 'assigner', { summary: 'Racing' });
    await move(k, 'In Review');
    await comment(k, 'APPROVED — fine');
    return k;
  };

  beforeAll(async () => {
    t = await startTestTracker(kind);
    dir = jstFolder(t);
    ctx = () => createContext({ cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: dir }, io: quiet });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the verdict read "In Review" before done moved, and moves after: done gives way and undoes nothing (exit 1 side); the issue stays "In Progress"', async () => {
    const k = await approved();
    const c = ctx();
    // The verdict's comment lands between done's re-check and its move; its move right after done's.
    const client = interleaved(c.client('reviewer'), [
      {
        method: 'transitions',
        n: 1,
        then: async () => {
          await comment(k, 'CHANGES REQUESTED — fix');
        },
      },
      { method: 'doTransition', n: 1, then: () => move(k, 'In Progress') },
    ]);
    const r = await closeApproved(c, client, k, S, () => undefined);
    expect(r).toMatchObject({ moved: false, already: false });
    expect(!r.moved && r.why).toMatch(/a verdict \("CHANGES REQUESTED — fix"\) was given while jst done ran, and moved .* to "In Progress"/);
    expect(await statusOf(k)).toBe('In Progress');
  });

  it('the verdict\'s comment lands after done moved, and the verdict never decides: done waits, then gives way to "In Progress" (exit 1 side)', async () => {
    const k = await approved();
    const c = ctx();
    const client = interleaved(c.client('reviewer'), [
      {
        method: 'doTransition',
        n: 1,
        then: async () => {
          await comment(k, 'CHANGES REQUESTED — fix');
        },
      },
    ]);
    const r = await closeApproved(c, client, k, S, () => undefined, 600);
    expect(!r.moved && r.why).toMatch(/is back in "In Progress"/);
    expect(await statusOf(k)).toBe('In Progress');
  });

  it('the verdict\'s comment lands after done moved, and the verdict withdraws it (it read "Done"): done wins', async () => {
    const k = await approved();
    const c = ctx();
    const client = interleaved(c.client('reviewer'), [
      {
        method: 'doTransition',
        n: 1,
        then: async () => {
          const id = await comment(k, 'CHANGES REQUESTED — fix');
          setTimeout(() => {
            void t.as('reviewer').put(`/issue/${k}/comment/${id}`, { body: adf('Withdrawn: CHANGES REQUESTED — fix') });
          }, 300);
        },
      },
    ]);
    expect(await closeApproved(c, client, k, S, () => undefined, 5_000)).toEqual({ moved: true });
    expect(await statusOf(k)).toBe('Done');
  });

  it('the verdict re-reads "Done" (done moved first): it withdraws its comment and does not move the issue', async () => {
    const k = await approved();
    const id = await comment(k, 'CHANGES REQUESTED — too late');
    await move(k, 'Done');
    const c = ctx();
    expect(await sendBack(c.client('reviewer'), k, { id, line: 'CHANGES REQUESTED — too late' }, S, () => undefined)).toEqual({
      won: false,
      status: 'Done',
      withdrawn: true,
    });
    expect(await statusOf(k)).toBe('Done');
    expect((await firstLines(k)).at(-1)).toBe('Withdrawn: CHANGES REQUESTED — too late');
  });

  it('done moves between the verdict\'s re-read ("In Review") and its move: the verdict moves it back to "In Progress" and wins', async () => {
    const k = await approved();
    const id = await comment(k, 'CHANGES REQUESTED — fix');
    const c = ctx();
    const client = interleaved(c.client('reviewer'), [{ method: 'getIssue', n: 1, then: () => move(k, 'Done') }]);
    const r = await sendBack(client, k, { id, line: 'CHANGES REQUESTED — fix' }, S, () => undefined);
    expect(r).toMatchObject({ won: true });
    expect(await statusOf(k)).toBe('In Progress');
    expect((await firstLines(k)).at(-1)).toBe('CHANGES REQUESTED — fix');
  });

  it('done moves right after the verdict\'s move, before its read-back: the verdict moves it back to "In Progress" again and wins', async () => {
    const k = await approved();
    const id = await comment(k, 'CHANGES REQUESTED — again');
    const c = ctx();
    const client = interleaved(c.client('reviewer'), [{ method: 'doTransition', n: 1, then: () => move(k, 'Done') }]);
    expect(await sendBack(client, k, { id, line: 'CHANGES REQUESTED — again' }, S, () => undefined)).toEqual({ won: true, transitioned: true });
    expect(await statusOf(k)).toBe('In Progress');
  });
});
