import { createPrivateKey, generateKeyPairSync, randomBytes, X509Certificate } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type Forge from 'node-forge';
import type { TlsMaterial } from './files.js';

/** node-forge is loaded only when a certificate is made (it costs every start of the server ~50 ms otherwise). */
let loaded: typeof Forge | undefined;
const forgeLib = (): typeof Forge => (loaded ??= createRequire(import.meta.url)('node-forge') as typeof Forge);

/**
 * The local certificate authority of `jst-tracker serve --tls` without `--tls-cert` (ARCHITECTURE
 * §23): made once under `<data>/tls/`, reused on every start, so a client told to trust `ca.pem`
 * keeps trusting the server. The server's certificate (for 127.0.0.1, ::1 and localhost) is made
 * again when it expires, when its names differ, or when it is not the authority's.
 *
 * node-forge writes the certificates (a library with no dependencies of its own, used by
 * selfsigned and webpack-dev-server; @peculiar/x509 needs a global `reflect-metadata` polyfill and
 * brings twenty packages). It never parses what a person handed us: reading and checking are
 * Node's own `X509Certificate` and `createPrivateKey`. The keys come from Node's crypto.
 */

/** The names the server's certificate is for. */
export const LOCAL_NAMES = { dns: ['localhost'], ip: ['127.0.0.1', '::1'] } as const;

/** The files under `<data>/tls/`. */
export const TLS_FILES = { ca: 'ca.pem', caKey: 'ca-key.pem', cert: 'server.pem', key: 'server-key.pem' } as const;

const DAY_MS = 24 * 60 * 60 * 1000;
/** The authority lasts ten years; the server's certificate 397 days (the most browsers accept). */
const CA_DAYS = 3650;
const SERVER_DAYS = 397;
/** A certificate this close to its end is made again now, not in the middle of a run. */
const RENEW_BEFORE_MS = 7 * DAY_MS;

interface Pair {
  cert: string;
  key: string;
}

function newKeyPair(): { privatePem: string; publicPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/** A positive serial number of 16 random bytes (RFC 5280 §4.1.2.2: at most 20, positive). */
const serial = (): string => `01${randomBytes(15).toString('hex')}`;

function certificate(publicPem: string, subject: Forge.pki.CertificateField[], days: number, now: Date): Forge.pki.Certificate {
  const forge = forgeLib();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicPem);
  cert.serialNumber = serial();
  // An hour back: a client whose clock is a little behind still accepts it.
  cert.validity.notBefore = new Date(now.getTime() - 60 * 60 * 1000);
  cert.validity.notAfter = new Date(now.getTime() + days * DAY_MS);
  cert.setSubject(subject);
  return cert;
}

function makeCa(now: Date): Pair {
  const forge = forgeLib();
  const keys = newKeyPair();
  const subject = [
    { name: 'commonName', value: `jst-tracker local CA ${randomBytes(4).toString('hex')}` },
    { name: 'organizationName', value: 'jst-tracker' },
  ];
  const cert = certificate(keys.publicPem, subject, CA_DAYS, now);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(keys.privatePem), forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key: keys.privatePem };
}

function makeServer(ca: Pair, now: Date): Pair {
  const forge = forgeLib();
  const keys = newKeyPair();
  const caCert = forge.pki.certificateFromPem(ca.cert);
  const cert = certificate(keys.publicPem, [{ name: 'commonName', value: 'localhost' }], SERVER_DAYS, now);
  cert.setIssuer(caCert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: [...LOCAL_NAMES.dns.map((value) => ({ type: 2, value })), ...LOCAL_NAMES.ip.map((ip) => ({ type: 7, ip }))],
    },
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(ca.key), forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key: keys.privatePem };
}

/** A file's text, or undefined when it is missing or unreadable (then it is made again). */
function readOrNothing(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The certificate and key as Node reads them, when both parse and belong together. */
function parsed(pair: Partial<Pair>): X509Certificate | undefined {
  if (pair.cert === undefined || pair.key === undefined) return undefined;
  try {
    const x509 = new X509Certificate(pair.cert);
    return x509.checkPrivateKey(createPrivateKey(pair.key)) ? x509 : undefined;
  } catch {
    return undefined;
  }
}

const fresh = (x509: X509Certificate, now: Date): boolean =>
  new Date(x509.validFrom).getTime() <= now.getTime() + 60 * 60 * 1000 && new Date(x509.validTo).getTime() > now.getTime() + RENEW_BEFORE_MS;

/** The authority that is there, when it can sign and is not near its end. */
function usableCa(pair: Partial<Pair>, now: Date): Pair | undefined {
  const x509 = parsed(pair);
  return x509 && x509.ca && fresh(x509, now) ? (pair as Pair) : undefined;
}

/** The server's certificate that is there, when it is the authority's, for exactly our names, and not near its end. */
function usableServer(pair: Partial<Pair>, ca: Pair, now: Date): Pair | undefined {
  const x509 = parsed(pair);
  if (!x509 || x509.ca || !fresh(x509, now)) return undefined;
  const authority = new X509Certificate(ca.cert);
  if (!x509.checkIssued(authority) || !x509.verify(authority.publicKey)) return undefined;
  const expected = [...LOCAL_NAMES.dns.map((d) => `DNS:${d}`), ...LOCAL_NAMES.ip.map((ip) => `IP Address:${ip === '::1' ? '0:0:0:0:0:0:0:1' : ip}`)];
  const names = (x509.subjectAltName ?? '').split(', ').filter((n) => n !== '');
  const same = names.length === expected.length && expected.every((n) => names.includes(n));
  return same ? (pair as Pair) : undefined;
}

/** Writes each file whole (a temporary name, then a rename), keys readable by their owner only. */
function writeAll(dir: string, files: { name: string; text: string; secret: boolean }[]): void {
  const suffix = `.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  const written: string[] = [];
  try {
    for (const f of files) {
      const tmp = join(dir, f.name + suffix);
      writeFileSync(tmp, f.text, { mode: f.secret ? 0o600 : 0o644, flag: 'wx' });
      written.push(tmp);
    }
  } catch (e) {
    for (const tmp of written) rmSync(tmp, { force: true });
    throw e;
  }
  for (const f of files) renameSync(join(dir, f.name + suffix), join(dir, f.name));
}

/**
 * The server's certificate and key from `<dataDir>/tls/`, made (or made again) as needed; `caFile`
 * is the authority clients are told to trust.
 */
export function localCertificates(dataDir: string, now = new Date()): TlsMaterial {
  const dir = join(dataDir, 'tls');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const at = (name: string) => join(dir, name);
  let ca = usableCa({ cert: readOrNothing(at(TLS_FILES.ca)), key: readOrNothing(at(TLS_FILES.caKey)) }, now);
  const files: { name: string; text: string; secret: boolean }[] = [];
  if (!ca) {
    ca = makeCa(now);
    files.push({ name: TLS_FILES.caKey, text: ca.key, secret: true }, { name: TLS_FILES.ca, text: ca.cert, secret: false });
  }
  let server = files.length > 0 ? undefined : usableServer({ cert: readOrNothing(at(TLS_FILES.cert)), key: readOrNothing(at(TLS_FILES.key)) }, ca, now);
  if (!server) {
    server = makeServer(ca, now);
    files.push({ name: TLS_FILES.key, text: server.key, secret: true }, { name: TLS_FILES.cert, text: server.cert, secret: false });
  }
  if (files.length > 0) writeAll(dir, files);
  // Keys someone loosened by hand are closed again.
  for (const key of [TLS_FILES.caKey, TLS_FILES.key]) chmodSync(at(key), 0o600);
  return { cert: server.cert, key: server.key, caFile: at(TLS_FILES.ca) };
}
