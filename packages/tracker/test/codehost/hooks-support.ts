import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { verify } from '@octokit/webhooks-methods';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { gitAsync } from '../../../../test/support/repo.js';
import { CLOUD_ID, EMAILS, testSeed, TOKENS } from '../../../../test/support/seed.js';
import { codehostSection, CH_TOKENS, OWNER, REPO, type ChWho } from './support.js';

/** What a webhook receiver on loopback was sent: headers, the body, whether its signature verified. */
export interface Received {
  event: string;
  guid: string;
  hookId: string;
  headers: IncomingMessage['headers'];
  body: string;
  payload: any;
  signed: boolean;
}

/**
 * A webhook receiver on loopback (node:http) that checks every signature with GitHub's own
 * @octokit/webhooks-methods `verify`; `mode` makes it answer 200, redirect, or never answer.
 */
export class Receiver {
  readonly got: Received[] = [];
  mode: 'ok' | 'redirect' | 'slow' = 'ok';
  private server: Server | null = null;
  constructor(private readonly secret: string | null) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void (async () => {
          const body = Buffer.concat(chunks).toString('utf8');
          const sig = req.headers['x-hub-signature-256'];
          const signed = this.secret !== null && typeof sig === 'string' ? await verify(this.secret, body, sig) : false;
          const json = req.headers['content-type'] === 'application/json' ? body : (new URLSearchParams(body).get('payload') ?? '');
          this.got.push({
            event: String(req.headers['x-github-event']),
            guid: String(req.headers['x-github-delivery']),
            hookId: String(req.headers['x-github-hook-id']),
            headers: req.headers,
            body,
            payload: JSON.parse(json),
            signed,
          });
          if (this.mode === 'slow') return; // never answers
          if (this.mode === 'redirect') {
            res.writeHead(302, { location: `${this.url}/elsewhere` });
            res.end();
            return;
          }
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end('thanks');
        })();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this.url;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

/** Waits (polling) until `check` holds; throws with `what` after `ms`. */
export async function until<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const require = createRequire(import.meta.url);
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const schema = require('@octokit/webhooks-schemas') as { definitions: Record<string, unknown> };
const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
ajv.addSchema(schema, 'webhooks');

/** Validates a payload against GitHub's published schema of its event (and action). */
export function checkPayload(event: string, payload: any): void {
  const name = payload?.action !== undefined && event !== 'ping' ? `${event}$${payload.action}` : `${event}$event`;
  if (!schema.definitions[name]) throw new Error(`no published webhook schema ${name}`);
  const validate = ajv.getSchema(`webhooks#/definitions/${name.replace('$', '%24')}`) ?? ajv.compile({ $ref: `webhooks#/definitions/${name}` });
  if (!validate(payload)) throw new Error(`${name} does not match GitHub's webhook schema: ${JSON.stringify(validate.errors?.slice(0, 5))}`);
}

/** Pushes `branch` of the work clone to the code host over HTTP as `who` (so the push's events happen). */
export async function pushOverHttp(url: string, work: string, who: ChWho, branch: string, extra: string[] = []): Promise<void> {
  const remote = `${url.replace('http://', `http://x-access-token:${CH_TOKENS[who]}@`)}/${OWNER}/${REPO}.git`;
  // Never the synchronous git: the server answering the push runs in this same process.
  await gitAsync(work, 'push', '--quiet', ...extra, remote, `${branch}:${branch}`);
}

/** The test seed with ABC's Done only for the reviewer (§21), and acme/app linked to the site as the executor. */
export function integrationSeed(link: Record<string, unknown> = {}) {
  const seed = testSeed() as any;
  seed.sites[0].projects[0].workflow = { kanban: true, only: { Done: ['reviewer'] } };
  const codehost = codehostSection() as any;
  codehost.repos[0].tracker = {
    site: seed.sites[0].host,
    as: EMAILS.executor,
    onBranchCreate: 'In Progress',
    onPullOpen: 'In Review',
    onMerge: 'Done',
    ...link,
  };
  return { ...seed, codehost };
}

/** A tracker REST call on the site form, as `who` of the test seed. */
export async function jira(url: string, who: keyof typeof TOKENS & keyof typeof EMAILS, method: string, path: string, body?: unknown): Promise<any> {
  const auth = Buffer.from(`${EMAILS[who]}:${TOKENS[who]}`).toString('base64');
  const res = await fetch(`${url}/ex/jira/${CLOUD_ID}/rest/api/3${path}`, {
    method,
    headers: { authorization: `Basic ${auth}`, 'content-type': 'application/json', accept: 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text === '' ? null : JSON.parse(text);
}

export async function newIssue(url: string, summary: string): Promise<string> {
  const made = await jira(url, 'assigner', 'POST', '/issue', { fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary } });
  return made.key as string;
}

export async function statusOf(url: string, key: string): Promise<string> {
  return (await jira(url, 'assigner', 'GET', `/issue/${key}?fields=status`)).fields.status.name as string;
}
