import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

/**
 * Validates every response body the tests receive against the vendor's own OpenAPI description
 * (`spec/jira-openapi/jira-cloud-v3-subset.json`, vendored from the vendor's description: see its SOURCE.md). A mismatch throws, failing the test.
 */
const SPEC_FILE = fileURLToPath(new URL('../../spec/jira-openapi/jira-cloud-v3-subset.json', import.meta.url));

interface Operation {
  template: string;
  method: string;
  pattern: RegExp;
  responses: Record<string, unknown>;
}

let ajv: Ajv | undefined;
let operations: Operation[] = [];
const compiled = new Map<string, ValidateFunction | null>();

function load(): Ajv {
  if (ajv) return ajv;
  const spec = JSON.parse(readFileSync(SPEC_FILE, 'utf8')) as { paths: Record<string, Record<string, { responses?: Record<string, unknown> }>> };
  ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  (addFormatsModule as unknown as (a: Ajv) => void)(ajv);
  ajv.addSchema(spec, 'openapi');
  operations = Object.entries(spec.paths).flatMap(([template, item]) =>
    Object.entries(item)
      .filter(([m]) => ['get', 'post', 'put', 'delete'].includes(m))
      .map(([method, op]) => ({
        template,
        method: method.toUpperCase(),
        pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
        responses: op.responses ?? {},
      })),
  );
  return ajv;
}

const pointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** The path under /rest/api/3, whatever address form the request used (`latest` answers as `3`). */
export function restPath(url: string): string {
  const path = new URL(url).pathname.replace(/^\/ex\/jira\/[^/]+/, '').replace(/^\/rest\/api\/latest(?=\/|$)/, '/rest/api/3');
  return path.replace(/\/$/, '');
}

/** Throws when the body does not match the schema the vendor documents for this response. */
export function assertMatchesVendorSchema(method: string, url: string, status: number, body: unknown): void {
  const validator = load();
  const path = restPath(url);
  const op = operations.find((o) => o.method === method && o.pattern.test(path));
  if (!op) return;
  const key = `${op.method} ${op.template} ${status}`;
  let validate = compiled.get(key);
  if (validate === undefined) {
    const response = op.responses[String(status)] as { content?: Record<string, { schema?: unknown }> } | undefined;
    const hasSchema = response?.content?.['application/json']?.schema !== undefined;
    validate = hasSchema
      ? validator.compile({ $ref: `openapi#/paths/${pointer(op.template)}/${op.method.toLowerCase()}/responses/${status}/content/application~1json/schema` })
      : null;
    compiled.set(key, validate);
  }
  if (validate && !validate(body)) {
    throw new Error(
      `${key}: response does not match the vendor's schema: ${validator.errorsText(validate.errors, { separator: '; ' })}\nbody: ${JSON.stringify(body).slice(0, 800)}`,
    );
  }
}

/** The shape every error body must have (ErrorCollection), checked for every 4xx the tests see. */
export function assertErrorCollection(body: unknown): void {
  const validator = load();
  const validate = validator.getSchema('openapi#/components/schemas/ErrorCollection')!;
  const b = body as { errorMessages?: unknown; errors?: unknown };
  if (!validate(body) || !Array.isArray(b.errorMessages) || typeof b.errors !== 'object' || b.errors === null) {
    throw new Error(`error body is not an ErrorCollection with errorMessages and errors: ${JSON.stringify(body).slice(0, 500)}`);
  }
  if ((b.errorMessages as unknown[]).length === 0 && Object.keys(b.errors).length === 0) {
    throw new Error('error body says nothing: both errorMessages and errors are empty');
  }
}
