import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchTrusting } from '../../../test/support/https-fetch.js';
import { CLOUD_ID, EMAILS, TOKENS, testSeed } from '../../../test/support/seed.js';
import { basic } from '../../../test/support/tracker.js';
import { localCertificates, TLS_FILES } from '../src/index.js';
import { buildTracker, cliRunner, type Run } from './support/cli-run.js';

/** ARCHITECTURE §23 "TLS": `jst-tracker serve --tls [--tls-cert FILE --tls-key FILE]`, its local authority and its refusals. */

const { tmp, run, exitOf, cleanup } = cliRunner('jst-tls-');
const SEED = join(tmp, 'seed.json');
const READY = /^jst-tracker listening on (https:\/\/127\.0\.0\.1:\d+)$/m;

beforeAll(() => {
  writeFileSync(SEED, JSON.stringify(testSeed()));
  buildTracker();
}, 120_000);
afterAll(cleanup);

async function readyUrl(r: Run): Promise<string> {
  const deadline = Date.now() + 20_000;
  while (!READY.test(r.out())) {
    if (r.child.exitCode !== null || Date.now() > deadline) throw new Error(`no ready line; stdout: ${r.out()} stderr: ${r.err()}`);
    await new Promise((res) => setTimeout(res, 20));
  }
  return READY.exec(r.out())![1]!;
}

async function stop(r: Run): Promise<void> {
  r.child.kill('SIGTERM');
  await r.exit;
}

const serverInfo = async (url: string, ca: string) => {
  const res = await fetchTrusting(ca)(`${url}/ex/jira/${CLOUD_ID}/rest/api/3/myself`, { headers: { authorization: basic(EMAILS.assigner, TOKENS.assigner) } });
  return { status: res.status, body: (await res.json()) as { emailAddress?: string } };
};

describe('ARCHITECTURE §23: serve --tls with the local certificate authority', () => {
  const data = join(tmp, 'data-local');
  const ca = join(data, 'tls', TLS_FILES.ca);

  it('serves HTTPS on its port (the ready line says https), prints how gh, Node and git trust it, and the REST answers over it', async () => {
    const r = run(['serve', '--port', '0', '--tls', '--data', data, '--seed', SEED]);
    try {
      const url = await readyUrl(r);
      expect(r.out().trim().split('\n')).toHaveLength(1);
      expect(r.err()).toContain(`SSL_CERT_FILE=${ca}`);
      expect(r.err()).toContain(`NODE_EXTRA_CA_CERTS=${ca}`);
      expect(r.err()).toContain(`git -c http.sslCAInfo=${ca}`);
      const me = await serverInfo(url, ca);
      expect(me).toMatchObject({ status: 200, body: { emailAddress: EMAILS.assigner } });
      // Plain HTTP on that port is no answer at all: nothing is served in clear.
      await expect(fetch(url.replace('https:', 'http:') + '/rest/api/3/serverInfo')).rejects.toThrow();
    } finally {
      await stop(r);
    }
  });

  it('the files are <data>/tls/{ca,ca-key,server,server-key}.pem, the keys mode 0600; the server certificate is for 127.0.0.1, ::1 and localhost, signed by ca.pem', () => {
    for (const f of Object.values(TLS_FILES)) expect(existsSync(join(data, 'tls', f)), f).toBe(true);
    expect(statSync(join(data, 'tls', TLS_FILES.caKey)).mode & 0o777).toBe(0o600);
    expect(statSync(join(data, 'tls', TLS_FILES.key)).mode & 0o777).toBe(0o600);
    const server = new X509Certificate(readFileSync(join(data, 'tls', TLS_FILES.cert)));
    const authority = new X509Certificate(readFileSync(ca));
    expect(authority.ca).toBe(true);
    expect(server.ca).toBe(false);
    expect(server.checkIssued(authority) && server.verify(authority.publicKey)).toBe(true);
    expect(server.checkHost('localhost')).toBe('localhost');
    expect(server.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(server.checkIP('::1')).toBe('::1');
  });

  it('the next start reuses them (a client that trusts ca.pem keeps trusting), and closes a key loosened by hand', async () => {
    const before = Object.fromEntries(Object.values(TLS_FILES).map((f) => [f, readFileSync(join(data, 'tls', f), 'utf8')]));
    const { chmodSync } = await import('node:fs');
    chmodSync(join(data, 'tls', TLS_FILES.key), 0o644);
    const r = run(['serve', '--port', '0', '--tls', '--data', data, '--seed', SEED]);
    try {
      const url = await readyUrl(r);
      expect((await serverInfo(url, ca)).status).toBe(200);
    } finally {
      await stop(r);
    }
    for (const f of Object.values(TLS_FILES)) expect(readFileSync(join(data, 'tls', f), 'utf8'), f).toBe(before[f]);
    expect(statSync(join(data, 'tls', TLS_FILES.key)).mode & 0o777).toBe(0o600);
  });
});

describe('ARCHITECTURE §23: the local authority renews what no longer fits, keeps what does', () => {
  it('an expired server certificate is made again under the same authority; an expired authority is made again with a new server certificate', () => {
    const dir = join(tmp, 'renew');
    const first = localCertificates(dir);
    const caPem = readFileSync(first.caFile!, 'utf8');
    // Past the server certificate's 397 days, within the authority's ten years.
    const later = new Date(Date.now() + 400 * 24 * 3600 * 1000);
    const second = localCertificates(dir, later);
    expect(second.cert).not.toBe(first.cert);
    expect(readFileSync(second.caFile!, 'utf8')).toBe(caPem);
    expect(new X509Certificate(second.cert).checkIssued(new X509Certificate(caPem))).toBe(true);
    const decade = new Date(Date.now() + 3651 * 24 * 3600 * 1000);
    const third = localCertificates(dir, decade);
    expect(readFileSync(third.caFile!, 'utf8')).not.toBe(caPem);
    expect(new X509Certificate(third.cert).checkIssued(new X509Certificate(readFileSync(third.caFile!)))).toBe(true);
  });

  it('a server certificate of another authority, or a key that is not its own, is made again; a damaged ca.pem makes a new authority', () => {
    const dir = join(tmp, 'mixed');
    const other = localCertificates(join(tmp, 'mixed-other'));
    const mine = localCertificates(dir);
    writeFileSync(join(dir, 'tls', TLS_FILES.cert), other.cert);
    writeFileSync(join(dir, 'tls', TLS_FILES.key), other.key);
    const again = localCertificates(dir);
    expect(again.cert).not.toBe(other.cert);
    expect(new X509Certificate(again.cert).checkIssued(new X509Certificate(readFileSync(mine.caFile!)))).toBe(true);
    writeFileSync(join(dir, 'tls', TLS_FILES.key), mine.key);
    expect(localCertificates(dir).key).not.toBe(mine.key);
    writeFileSync(join(dir, 'tls', TLS_FILES.ca), 'not a certificate\n');
    const fresh = localCertificates(dir);
    expect(readFileSync(fresh.caFile!, 'utf8')).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(new X509Certificate(fresh.cert).checkIssued(new X509Certificate(readFileSync(fresh.caFile!)))).toBe(true);
  });
});

describe('ARCHITECTURE §23: serve --tls-cert FILE --tls-key FILE', () => {
  const made = join(tmp, 'made');
  let files: { cert: string; key: string; ca: string };

  beforeAll(() => {
    const m = localCertificates(made);
    files = { cert: join(made, 'tls', TLS_FILES.cert), key: join(made, 'tls', TLS_FILES.key), ca: m.caFile! };
  });

  it('serves the certificate it is given (and makes no <data>/tls/ of its own, prints no local authority)', async () => {
    const data = join(tmp, 'data-given');
    const r = run(['serve', '--port', '0', '--tls-cert', files.cert, '--tls-key', files.key, '--data', data, '--seed', SEED]);
    try {
      const url = await readyUrl(r);
      expect((await serverInfo(url, files.ca)).status).toBe(200);
      expect(r.err()).not.toContain('SSL_CERT_FILE');
    } finally {
      await stop(r);
    }
    expect(existsSync(join(data, 'tls'))).toBe(false);
  });

  /** A refusal: exit 2, one line naming the flag (and the file), nothing created under --data. */
  async function refused(args: string[], ...named: string[]): Promise<string> {
    const data = join(tmp, `data-refused-${Math.random().toString(36).slice(2)}`);
    const { code, out, err } = await exitOf(['serve', '--port', '0', '--data', data, ...args]);
    expect(code, err).toBe(2);
    expect(out).toBe('');
    for (const n of named) expect(err).toContain(n);
    expect(existsSync(data)).toBe(false);
    return err;
  }

  it('--tls-cert without --tls-key, and --tls-key without --tls-cert', async () => {
    await refused(['--tls-cert', files.cert], '--tls-cert needs --tls-key');
    await refused(['--tls', '--tls-key', files.key], '--tls-key needs --tls-cert');
  });

  it('a missing file, a folder', async () => {
    await refused(['--tls-cert', join(tmp, 'nope.pem'), '--tls-key', files.key], `--tls-cert ${join(tmp, 'nope.pem')}: no such file`);
    await refused(['--tls-cert', files.cert, '--tls-key', join(tmp, 'nokey.pem')], `--tls-key ${join(tmp, 'nokey.pem')}: no such file`);
    await refused(['--tls-cert', tmp, '--tls-key', files.key], `--tls-cert ${tmp}: it is a folder`);
  });

  it('a certificate file that is not one, a key file that is not one; neither echoes what the file holds', async () => {
    const secret = 'Zq7vKx93LmPw0RtYb2NcHs5JdF8gUe';
    const junk = join(tmp, 'junk.pem');
    writeFileSync(junk, `-----BEGIN CERTIFICATE-----\n${secret}\n-----END CERTIFICATE-----\n`);
    expect(await refused(['--tls-cert', junk, '--tls-key', files.key], `--tls-cert ${junk}: not a certificate`)).not.toContain(secret.slice(0, 8));
    expect(await refused(['--tls-cert', files.cert, '--tls-key', junk], `--tls-key ${junk}: not an unencrypted private key`)).not.toContain(secret.slice(0, 8));
    // The certificate given as its own key.
    await refused(['--tls-cert', files.cert, '--tls-key', files.cert], '--tls-key');
  });

  it('a key that is not the certificate’s own', async () => {
    const otherKey = join(made, 'tls', TLS_FILES.caKey);
    await refused(
      ['--tls-cert', files.cert, '--tls-key', otherKey],
      `--tls-key ${otherKey} is not the private key of the certificate in --tls-cert ${files.cert}`,
    );
  });

  it('an expired certificate', async () => {
    const old = localCertificates(join(tmp, 'old'), new Date(Date.now() - 500 * 24 * 3600 * 1000));
    const dir = join(tmp, 'old-files');
    mkdirSync(dir);
    writeFileSync(join(dir, 'c.pem'), old.cert);
    writeFileSync(join(dir, 'k.pem'), old.key);
    await refused(['--tls-cert', join(dir, 'c.pem'), '--tls-key', join(dir, 'k.pem')], `--tls-cert ${join(dir, 'c.pem')}: the certificate expired`);
  });
});
