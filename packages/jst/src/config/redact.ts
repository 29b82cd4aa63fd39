import type { JstConfig } from './load.js';
import { ROLES, SECRET_SETTINGS, roleSettings } from './schema.js';

export const REDACTED = '***';

/** The forms a Basic-auth credential takes on the wire (spec §5 rule 1): the token and `base64(email:token)`. */
export function basicAuthSecrets(email: string, token: string): string[] {
  return token === '' ? [] : [token, Buffer.from(`${email}:${token}`, 'utf8').toString('base64')];
}

/** Every secret of a configuration in every form it may appear in output: for the one place that prints. */
export function configSecrets(config: JstConfig): string[] {
  const tokens = SECRET_SETTINGS.flatMap((name) => config.settings[name]?.value ?? []);
  const pairs = ROLES.flatMap((role) => {
    const names = roleSettings(role);
    return basicAuthSecrets(config.settings[names.email]?.value ?? '', config.settings[names.token]?.value ?? '');
  });
  return [...tokens, ...pairs];
}

/**
 * Replaces every occurrence of every secret in `text` with `***`. URL-encoded forms are covered
 * too, since a token can end up in a query string or a logged URL.
 */
export function redact(text: string, secrets: readonly string[]): string {
  const forms = new Set<string>();
  for (const secret of secrets) {
    // An empty secret would match everywhere; it is a missing value, not something to hide.
    if (secret === '') continue;
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
  }
  // Longest first, so a secret that contains another is replaced whole rather than leaving a tail.
  let out = text;
  for (const form of [...forms].sort((a, b) => b.length - a.length)) out = out.split(form).join(REDACTED);
  return out;
}
