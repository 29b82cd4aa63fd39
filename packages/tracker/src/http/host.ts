/**
 * Whether a request carries more than one Host header. RFC 9112 §3.2: a server must answer such a
 * request 400. Node keeps the first and drops the rest, so two front ends could pick different
 * sites for one request (the Host header picks the site, ARCHITECTURE §4).
 */
export function hasDuplicateHost(rawHeaders: readonly string[]): boolean {
  let seen = false;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host') {
      if (seen) return true;
      seen = true;
    }
  }
  return false;
}
