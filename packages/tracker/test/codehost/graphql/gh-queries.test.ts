import { readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { buildSchema, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { SCHEMA_SDL } from '../../../src/codehost/graphql/schema-text.js';

/**
 * ARCHITECTURE §23 "GraphQL": every query gh 2.23 sends (recorded as text under gh-queries/)
 * validates against GitHub's own published schema (spec/github-graphql/schema.full.graphql.gz)
 * and against the subset the code host serves; the served subset is the vendored one.
 */
const root = new URL('../../../../../', import.meta.url);
const dir = new URL('gh-queries/', import.meta.url);
const queries = readdirSync(dir)
  .filter((f) => f.endsWith('.graphql'))
  .sort()
  .map((f) => [f, readFileSync(new URL(f, dir), 'utf8')] as const);

describe("ARCHITECTURE §23: gh's queries against GitHub's schema and the served subset", () => {
  const full = buildSchema(gunzipSync(readFileSync(new URL('spec/github-graphql/schema.full.graphql.gz', root))).toString('utf8'), { assumeValidSDL: true });
  const subset = buildSchema(SCHEMA_SDL);

  it('the served schema is spec/github-graphql/schema.graphql, byte for byte', () => {
    expect(SCHEMA_SDL).toBe(readFileSync(new URL('spec/github-graphql/schema.graphql', root), 'utf8'));
  });

  it('records the queries of every gh command the contract names', () => {
    const names = queries.map(([f]) => f).join(' ');
    for (const cmd of [
      'pr-list',
      'pr-view',
      'pr-create',
      'pr-review',
      'pr-merge',
      'pr-comment',
      'pr-close',
      'pr-reopen',
      'pr-edit',
      'pr-checks',
      'pr-status',
      'repo-view',
      'api-graphql',
    ])
      expect(names).toContain(cmd);
  });

  it.each(queries)('%s validates against the full published schema and the subset', (_name, text) => {
    const doc = parse(text);
    expect(validate(full, doc).map((e) => e.message)).toEqual([]);
    expect(validate(subset, doc).map((e) => e.message)).toEqual([]);
  });
});
