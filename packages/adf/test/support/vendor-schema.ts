import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { validateAdf } from '../../src/index.js';

/** The vendor's ADF JSON schema, vendored from @atlaskit/adf-schema (spec/adf/SOURCE.md). */
const FILE = fileURLToPath(new URL('../../../../spec/adf/full.json', import.meta.url));

let check: ((doc: unknown) => string | undefined) | undefined;

function vendorCheck(): (doc: unknown) => string | undefined {
  if (check) return check;
  const schema = JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, unknown>;
  // The file declares draft-04; the keywords it uses read the same under ajv's default draft.
  delete schema.$schema;
  const validate = new Ajv({ strict: false, allErrors: false }).compile(schema);
  check = (doc) => (validate(doc) ? undefined : JSON.stringify(validate.errors?.slice(0, 3)));
  return check;
}

/** Fails the test unless `doc` passes both our validator and the vendor's schema. */
export function expectValidAdf(doc: unknown): void {
  const ours = validateAdf(doc);
  if (!ours.ok) throw new Error(`validateAdf: ${ours.message} at ${ours.path}\n${JSON.stringify(doc)}`);
  const vendor = vendorCheck()(doc);
  if (vendor !== undefined) throw new Error(`vendor ADF schema: ${vendor}\n${JSON.stringify(doc)}`);
}
