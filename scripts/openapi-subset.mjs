#!/usr/bin/env node
// Cuts spec/jira-openapi/jira-cloud-v3-subset.json out of the vendor's full OpenAPI description
// (spec/jira-openapi/SOURCE.md says where that file comes from):
//   node scripts/openapi-subset.mjs /path/to/jira-platform-v3.json [out.json]
// Keeps the operations listed in KEEP (path-level keys such as shared parameters too), every
// `#/components/...` reference they make, followed until no new one appears, the security schemes
// and tags the kept operations name, and openapi/info/servers/externalDocs as they are. Nothing is
// rewritten. Prints the counts and the SHA-256 of the input and of the result.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cutSubset, sha256, subsetText } from './lib/openapi-cut.mjs';

/** Path (under /rest/api/3) → the methods kept. */
export const KEEP = {
  '/myself': ['get'],
  '/serverInfo': ['get'],
  '/user': ['get'],
  '/user/search': ['get'],
  '/project': ['get'],
  '/project/search': ['get'],
  '/project/{projectIdOrKey}': ['get'],
  '/project/{projectIdOrKey}/statuses': ['get'],
  '/status': ['get'],
  '/status/{idOrName}': ['get'],
  '/statuscategory': ['get'],
  '/statuscategory/{idOrKey}': ['get'],
  '/field': ['get'],
  '/priority': ['get'],
  '/priority/{id}': ['get'],
  '/issuetype': ['get'],
  '/issuetype/{id}': ['get'],
  '/issue': ['post'],
  '/issue/createmeta/{projectIdOrKey}/issuetypes': ['get'],
  '/issue/createmeta/{projectIdOrKey}/issuetypes/{issueTypeId}': ['get'],
  '/issue/{issueIdOrKey}': ['get', 'put', 'delete'],
  '/issue/{issueIdOrKey}/editmeta': ['get'],
  '/issue/{issueIdOrKey}/comment': ['get', 'post'],
  '/issue/{issueIdOrKey}/comment/{id}': ['get'],
  '/issue/{issueIdOrKey}/assignee': ['put'],
  '/issue/{issueIdOrKey}/transitions': ['get', 'post'],
  '/search/jql': ['get', 'post'],
};
/** KEEP with its paths spelled out as the description spells them. */
export const cut = (full) => cutSubset(full, Object.fromEntries(Object.entries(KEEP).map(([p, m]) => [`/rest/api/3${p}`, m])));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [input, output = fileURLToPath(new URL('../spec/jira-openapi/jira-cloud-v3-subset.json', import.meta.url))] = process.argv.slice(2);
  if (!input) {
    console.error('usage: node scripts/openapi-subset.mjs FULL_OPENAPI.json [OUT.json]  (see spec/jira-openapi/SOURCE.md)');
    process.exit(2);
  }
  const raw = readFileSync(input);
  const { subset, operations, schemas } = cut(JSON.parse(raw.toString('utf8')));
  const text = subsetText(subset);
  writeFileSync(output, text);
  console.log(`input  ${input}: ${raw.length} bytes, sha256 ${sha256(raw)}`);
  console.log(`output ${output}: ${Object.keys(subset.paths).length} paths, ${operations} operations, ${schemas} schemas, sha256 ${sha256(text)}`);
}
