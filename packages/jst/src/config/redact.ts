import type { JstConfig } from './load.js';
import { ROLES, SECRET_SETTINGS, roleSettings } from '../core/settings.js';

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
 * Secrets at least this long are masked wherever they occur, also inside a longer word: a real
 * API token is tens of characters, and such a string does not turn up by chance.
 */
export const MIN_ANYWHERE = 8;

/** Characters a token is made of; a short secret counts only where none of these touch it. */
const TOKEN_CHAR = 'A-Za-z0-9_-';

/**
 * Masks every secret in `text` with `***`, whole values only (issue 14 item 6). A secret of
 * MIN_ANYWHERE or more characters is masked wherever it occurs; a shorter one (a test token "x")
 * only where it stands as a whole token — `TOKEN=x`, `"x"`, `x` alone — so it never eats the "x"
 * of "Linux x64". URL-encoded forms are covered too, since a token can end up in a query string.
 */
export function redact(text: string, secrets: readonly string[]): string {
  return redactorOf(secrets)(text);
}

/** `redact` with the secrets' forms worked out once: for text shown many times with the same secrets. */
export function redactorOf(secrets: readonly string[]): (text: string) => string {
  const forms = new Set<string>();
  for (const secret of secrets) {
    // An empty secret would match everywhere; it is a missing value, not something to hide.
    if (secret === '') continue;
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
  }
  // Longest first, so a secret that contains another is replaced whole rather than leaving a tail.
  const steps = [...forms]
    .sort((a, b) => b.length - a.length)
    .map((form): ((text: string) => string) => {
      if (form.length >= MIN_ANYWHERE) return (text) => (text.includes(form) ? text.split(form).join(REDACTED) : text);
      const whole = new RegExp(`(?<![${TOKEN_CHAR}])${escapeRegExp(form)}(?![${TOKEN_CHAR}])`, 'g');
      return (text) => text.replace(whole, REDACTED);
    });
  return (text) => {
    let out = text;
    for (const step of steps) out = step(out);
    return out;
  };
}

const redactors = new WeakMap<JstConfig, (text: string) => string>();

/** The redactor of a configuration's secrets (`configSecrets`), made once per loaded configuration (they never change in it). */
export function configRedactor(config: JstConfig): (text: string) => string {
  let r = redactors.get(config);
  if (!r) redactors.set(config, (r = redactorOf(configSecrets(config))));
  return r;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
