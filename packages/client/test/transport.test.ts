import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallLimitError, TrackerNetworkError, Transport } from '../src/index.js';

// A server that answers the way a broken or hostile tracker might: in pieces, too much, or cut short.
let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/pieces') {
      // No Content-Length: chunked, a two-byte character split across two writes.
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const body = Buffer.from('{"name":"Jérôme","n":1}');
      const cut = body.indexOf(0xc3) + 1;
      res.write(body.subarray(0, cut));
      setTimeout(() => {
        res.end(body.subarray(cut));
      }, 5);
    } else if (req.url === '/endless') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('x'.repeat(600));
      setTimeout(() => {
        res.write('x'.repeat(600));
      }, 5);
      setTimeout(() => {
        res.end();
      }, 10);
    } else if (req.url === '/declared') {
      res.writeHead(200, { 'Content-Length': '5000' });
      res.end('x'.repeat(5000));
    } else if (req.url === '/cut') {
      res.writeHead(200, { 'Content-Length': '1000' });
      res.write('x'.repeat(10));
      setTimeout(() => {
        res.socket?.destroy();
      }, 5);
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://user:secret-pass@127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const get = (t: Transport, path: string, maxResponseBytes?: number) =>
  t.send({ method: 'GET', url: `${base}${path}`, headers: {}, timeoutMs: 5000, maxResponseBytes });

describe('docs/limits.md: the tracker transport reads every answer whole and bounded', () => {
  it('reads an answer that comes in pieces (chunked, a character split between two) whole', async () => {
    const t = new Transport();
    try {
      const res = await get(t, '/pieces');
      expect(res.status).toBe(200);
      expect(JSON.parse(res.text)).toEqual({ name: 'Jérôme', n: 1 });
    } finally {
      t.close();
    }
  });

  it('refuses an answer without a declared length as soon as it passes the cap, naming the setting and not the credentials', async () => {
    const t = new Transport();
    try {
      const e = await get(t, '/endless', 1000).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(CallLimitError);
      expect((e as CallLimitError).limit).toBe('size');
      expect((e as Error).message).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/endless answered more than 1000 bytes \(JST_MAX_RESPONSE_BYTES\)/);
      expect((e as Error).message).not.toContain('secret-pass');
    } finally {
      t.close();
    }
  });

  it('refuses a declared Content-Length over the cap', async () => {
    const t = new Transport();
    try {
      await expect(get(t, '/declared', 1000)).rejects.toMatchObject({ limit: 'size' });
      expect((await get(t, '/declared')).text).toHaveLength(5000);
    } finally {
      t.close();
    }
  });

  it('an answer cut short is a network error naming the call, never a hang or a half body', async () => {
    const t = new Transport();
    try {
      const e = await get(t, '/cut').catch((x: unknown) => x);
      expect(e).toBeInstanceOf(TrackerNetworkError);
      expect((e as Error).message).toContain('/cut');
      expect((e as Error).message).not.toContain('secret-pass');
    } finally {
      t.close();
    }
  });
});
