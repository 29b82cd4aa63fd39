import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

/**
 * Validates every answer of the embedded code host against GitHub's own OpenAPI description, for
 * api.github.com and GitHub Enterprise Server both (spec/github-openapi/, cut from
 * @octokit/openapi: see its SOURCE.md). A mismatch throws, failing the test. `hookOctokit` puts
 * the check on every request an Octokit makes, answers and refusals alike.
 */
const SPECS = {
  'api.github.com': fileURLToPath(new URL('../../spec/github-openapi/api.github.com-subset.json', import.meta.url)),
  ghes: fileURLToPath(new URL('../../spec/github-openapi/ghes-subset.json', import.meta.url)),
};

interface Operation {
  template: string;
  method: string;
  pattern: RegExp;
  responses: Record<string, { content?: Record<string, { schema?: unknown }>; $ref?: string }>;
}
interface Loaded {
  ajv: Ajv;
  operations: Operation[];
  spec: { components: { responses?: Record<string, unknown> } };
  compiled: Map<string, ValidateFunction | null>;
}

const loaded = new Map<string, Loaded>();

/**
 * Two OpenAPI 3.0 forms Ajv does not take are rewritten into the same rules in JSON Schema, and
 * nothing else is changed: `GET /user`'s oneOf with a discriminator mapping (private-user or
 * public-user by `user_view_type`) becomes if/then/else on that property, and `nullable: true`
 * beside an anyOf/oneOf without a `type` (a commit's `author`) becomes one more `null` branch.
 */
function rewriteDiscriminators(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteDiscriminators);
  if (node === null || typeof node !== 'object') return node;
  const o = node as Record<string, unknown>;
  if (o.nullable === true && o.type === undefined && (Array.isArray(o.anyOf) || Array.isArray(o.oneOf))) {
    const key = Array.isArray(o.anyOf) ? 'anyOf' : 'oneOf';
    const { nullable: _, ...rest } = o;
    return rewriteDiscriminators({ ...rest, [key]: [...(o[key] as unknown[]), { type: 'null' }] });
  }
  const d = o.discriminator as { propertyName: string; mapping?: Record<string, string> } | undefined;
  if (d && Array.isArray(o.oneOf) && d.mapping) {
    const entries = Object.entries(d.mapping);
    const chain = entries.reduceRight<unknown>(
      (otherwise, [value, ref]) => ({
        if: { properties: { [d.propertyName]: { const: value } }, required: [d.propertyName] },
        then: { $ref: `openapi${ref}` },
        else: otherwise,
      }),
      { oneOf: o.oneOf },
    );
    const { discriminator: _, oneOf: __, ...rest } = o;
    return { ...(rewriteDiscriminators(rest) as object), ...(chain as object) };
  }
  return Object.fromEntries(
    Object.entries(o).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#') ? `openapi${v}` : rewriteDiscriminators(v)]),
  );
}

function load(which: keyof typeof SPECS): Loaded {
  const found = loaded.get(which);
  if (found) return found;
  const raw = JSON.parse(readFileSync(SPECS[which], 'utf8')) as {
    paths: Record<string, Record<string, { responses?: Operation['responses'] }>>;
    components: { responses?: Record<string, unknown> };
  };
  const spec = rewriteDiscriminators(raw) as typeof raw;
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  (addFormatsModule as unknown as (a: Ajv) => void)(ajv);
  ajv.addSchema(spec, 'openapi');
  const operations = Object.entries(spec.paths).flatMap(([template, item]) =>
    Object.entries(item)
      .filter(([m]) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
      .map(([method, op]) => ({
        template,
        method: method.toUpperCase(),
        pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
        responses: op.responses ?? {},
      })),
  );
  const result = { ajv, operations, spec, compiled: new Map<string, ValidateFunction | null>() };
  loaded.set(which, result);
  return result;
}

const pointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** The path under /api/v3 of a request URL. */
export function apiPath(url: string): string {
  return new URL(url).pathname.replace(/^\/api\/v3(?=\/|$)/, '').replace(/\/$/, '') || '/';
}

/**
 * Throws when the body does not match what GitHub's description documents for this operation
 * and status, in either description; also when the operation or the status is not documented
 * there at all (an answer GitHub never gives). Error bodies must at least be `{message, documentation_url}`.
 */
export function assertMatchesGitHub(method: string, url: string, status: number, body: unknown): void {
  for (const which of Object.keys(SPECS) as (keyof typeof SPECS)[]) {
    const { ajv, operations, spec, compiled } = load(which);
    const path = apiPath(url);
    const op = operations.find((o) => o.method === method.toUpperCase() && o.pattern.test(path));
    if (!op) throw new Error(`${method} ${path}: not an operation of GitHub's description (${which})`);
    const key = `${op.method} ${op.template} ${status}`;
    let validate = compiled.get(key);
    if (validate === undefined) {
      let response = op.responses[String(status)];
      let at = `openapi#/paths/${pointer(op.template)}/${op.method.toLowerCase()}/responses/${status}`;
      if (response?.$ref) {
        const name = response.$ref.replace(/^(openapi)?#\/components\/responses\//, '');
        response = spec.components.responses?.[name] as Operation['responses'][string];
        at = `openapi#/components/responses/${pointer(name)}`;
      }
      if (!response && status < 400) throw new Error(`${key}: GitHub's description (${which}) documents no such answer`);
      validate = response?.content?.['application/json']?.schema !== undefined ? ajv.compile({ $ref: `${at}/content/application~1json/schema` }) : null;
      compiled.set(key, validate);
    }
    if (validate && !validate(body)) {
      throw new Error(
        `${key}: the answer does not match GitHub's description (${which}): ${ajv.errorsText(validate.errors, { separator: '; ' })}\nbody: ${JSON.stringify(body).slice(0, 1200)}`,
      );
    }
    if (status >= 400) {
      const b = body as { message?: unknown; documentation_url?: unknown } | undefined;
      if (typeof b?.message !== 'string' || typeof b.documentation_url !== 'string') {
        throw new Error(`${key}: an error body must be GitHub's {message, documentation_url}: ${JSON.stringify(body).slice(0, 500)}`);
      }
    }
  }
}

interface HookableOctokit {
  hook: {
    after(name: 'request', hook: (response: { status: number; url: string; data: unknown }, options: { method: string; url: string }) => void): void;
    error(name: 'request', hook: (error: unknown, options: { method: string }) => unknown): void;
  };
}

/** Checks every answer an Octokit receives (successes and refusals) against GitHub's description. */
export function hookOctokit<T extends HookableOctokit>(octokit: T): T {
  octokit.hook.after('request', (response, options) => {
    assertMatchesGitHub(options.method, response.url, response.status, response.status === 204 ? undefined : response.data);
  });
  octokit.hook.error('request', (error, options) => {
    const e = error as { status?: number; response?: { url: string; data: unknown } };
    if (e.status !== undefined && e.response) assertMatchesGitHub(options.method, e.response.url, e.status, e.response.data);
    throw error;
  });
  return octokit;
}
