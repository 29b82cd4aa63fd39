import { describe, expect, it } from 'vitest';
import { BodyTooLargeError, readBounded } from '../src/index.js';

async function* chunks(sizes: number[]): AsyncIterable<Uint8Array> {
  for (const n of sizes) yield new Uint8Array(n).fill(0x61);
}

describe('docs/limits.md: readBounded, the one bounded read (tracker transport and any fetch body)', () => {
  it('reads a body up to the cap whole', async () => {
    expect((await readBounded(chunks([3, 4]), 7)).toString()).toBe('aaaaaaa');
  });
  it('refuses as soon as the body passes the cap', async () => {
    await expect(readBounded(chunks([4, 4]), 7)).rejects.toBeInstanceOf(BodyTooLargeError);
  });
  it('refuses a declared Content-Length over the cap before reading', async () => {
    let read = false;
    const body = (async function* () {
      read = true;
      yield new Uint8Array(1);
    })();
    await expect(readBounded(body, 7, '8')).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(read).toBe(false);
  });
  it("works on a fetch Response body (the code host client's case)", async () => {
    const res = new Response('x'.repeat(10));
    await expect(readBounded(res.body!, 9)).rejects.toBeInstanceOf(BodyTooLargeError);
    expect((await readBounded(new Response('{"a":1}').body!, 9)).toString()).toBe('{"a":1}');
  });
});
