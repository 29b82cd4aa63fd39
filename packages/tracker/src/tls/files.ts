import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** What an HTTPS server is given: the certificate (chain) and its private key, both PEM. */
export interface TlsMaterial {
  cert: string;
  key: string;
  /** The certificate authority clients are told to trust (the local one), when there is one. */
  caFile?: string;
}

/** A certificate or key the operator named that cannot be used: the message names the flag and the file. */
export class TlsFileError extends Error {}

/** A file name as an error may show it: the name as given, cut short. */
const named = (file: string): string => (file.length > 200 ? `${file.slice(0, 200)}…` : file);

function readPem(file: string, flag: string, what: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as { code?: string }).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'not allowed to read it' : code === 'EISDIR' ? 'it is a folder' : 'cannot read it';
    throw new TlsFileError(`${flag} ${named(file)}: ${why} (${what} in PEM).`);
  }
  if (text.length > 1024 * 1024) throw new TlsFileError(`${flag} ${named(file)}: larger than 1 MiB, not ${what} in PEM.`);
  return text;
}

/** The first certificate of a PEM file (the server's own; any others are its chain). */
function parseCertificate(pem: string, file: string): X509Certificate {
  try {
    return new X509Certificate(pem);
  } catch {
    throw new TlsFileError(`--tls-cert ${named(file)}: not a certificate in PEM ("-----BEGIN CERTIFICATE-----").`);
  }
}

function parseKey(pem: string, file: string): KeyObject {
  try {
    return createPrivateKey(pem);
  } catch {
    // Node's message may quote the file's bytes: it is never shown.
    throw new TlsFileError(
      `--tls-key ${named(file)}: not an unencrypted private key in PEM ("-----BEGIN PRIVATE KEY-----" or "-----BEGIN RSA/EC PRIVATE KEY-----").`,
    );
  }
}

/**
 * Reads `--tls-cert FILE --tls-key FILE` and checks them before anything listens: both readable,
 * a certificate and a private key in PEM, the key the certificate's own, the certificate not expired.
 */
export function loadTlsFiles(certFile: string, keyFile: string, now = new Date()): TlsMaterial {
  const cert = readPem(certFile, '--tls-cert', 'a certificate');
  const key = readPem(keyFile, '--tls-key', 'a private key');
  const x509 = parseCertificate(cert, certFile);
  const privateKey = parseKey(key, keyFile);
  if (!x509.checkPrivateKey(privateKey))
    throw new TlsFileError(`--tls-key ${named(keyFile)} is not the private key of the certificate in --tls-cert ${named(certFile)}.`);
  if (new Date(x509.validTo).getTime() < now.getTime())
    throw new TlsFileError(`--tls-cert ${named(certFile)}: the certificate expired on ${new Date(x509.validTo).toISOString()}.`);
  return { cert, key };
}
