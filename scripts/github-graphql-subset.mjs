#!/usr/bin/env node
// Cuts spec/github-graphql/schema.graphql out of GitHub's own published GraphQL schema, shipped in
// the npm package @octokit/graphql-schema (spec/github-graphql/SOURCE.md says which version):
//   node scripts/github-graphql-subset.mjs [VERSION]        fetches the package with `npm pack`
//   node scripts/github-graphql-subset.mjs --from FILE      uses a schema.graphql already on disk
// The package is never a dependency. The subset is exactly what the documents ask for: every
// query gh sends (recorded under packages/tracker/test/codehost/graphql/gh-queries/*.graphql) and
// the few of our own (scripts/github-graphql-extra.graphql: node, nodes, edges, …). Each document
// must validate against the full schema; every type it reaches is kept with only the fields it
// selects (and those the interfaces it keeps require), enums, scalars and input objects whole.
// Nothing is rewritten: descriptions and directives are GitHub's. Writes:
//   spec/github-graphql/schema.graphql              the subset
//   spec/github-graphql/schema.full.graphql.gz      the full published schema (the tests validate gh's queries against it)
//   packages/tracker/src/codehost/graphql/schema-text.ts   the subset as the server loads it
// and prints the input and output SHA-256s for SOURCE.md.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import {
  buildSchema,
  getNamedType,
  isInterfaceType,
  isObjectType,
  Kind,
  parse,
  print,
  TypeInfo,
  validate,
  validateSchema,
  visit,
  visitWithTypeInfo,
} from 'graphql';

const sha256 = (data) => createHash('sha256').update(data).digest('hex');
const root = fileURLToPath(new URL('../', import.meta.url));
export const QUERY_DIR = join(root, 'packages/tracker/test/codehost/graphql/gh-queries');
export const EXTRA = join(root, 'scripts/github-graphql-extra.graphql');

/** The documents the subset serves: gh's recorded queries and our own extras. */
export function documents() {
  const files = readdirSync(QUERY_DIR)
    .filter((f) => f.endsWith('.graphql'))
    .sort()
    .map((f) => join(QUERY_DIR, f));
  return [...files, EXTRA].map((file) => ({ file, text: readFileSync(file, 'utf8') }));
}

/** The type names and (type → fields) a set of documents selects in `schema`. */
function selected(schema, docs) {
  const fields = new Map();
  const types = new Set();
  const add = (type, field) => {
    if (!fields.has(type)) fields.set(type, new Set());
    if (field) fields.get(type).add(field);
  };
  for (const { file, text } of docs) {
    const doc = parse(text);
    const errors = validate(schema, doc);
    if (errors.length > 0) throw new Error(`${file} does not validate against the full schema: ${errors.map((e) => e.message).join('; ')}`);
    const info = new TypeInfo(schema);
    visit(
      doc,
      visitWithTypeInfo(info, {
        Field(node) {
          const parent = info.getParentType();
          if (!parent || node.name.value.startsWith('__')) return;
          add(parent.name, node.name.value);
          types.add(getNamedType(info.getType()).name);
        },
        OperationDefinition(node) {
          types.add(node.operation === 'mutation' ? 'Mutation' : 'Query');
        },
        InlineFragment(node) {
          if (node.typeCondition) types.add(node.typeCondition.name.value);
        },
        FragmentDefinition(node) {
          types.add(node.typeCondition.name.value);
        },
        VariableDefinition(node) {
          let t = node.type;
          while (t.kind !== Kind.NAMED_TYPE) t = t.type;
          types.add(t.name.value);
        },
        Argument() {
          const arg = info.getArgument();
          if (arg) types.add(getNamedType(arg.type).name);
        },
      }),
    );
  }
  return { fields, types };
}

/** The subset's SDL: the full schema's definitions, cut to what `docs` select, closed over the types they reach. */
export function cutSchema(fullText, docs) {
  const schema = buildSchema(fullText, { assumeValidSDL: true });
  const { fields, types } = selected(schema, docs);
  for (const t of ['Query', 'String', 'Boolean', 'ID', 'Int', 'Float']) types.add(t);
  // Close over: kept fields' types and arguments, input objects' fields, interfaces' fields on their kept implementations.
  let changed = true;
  while (changed) {
    changed = false;
    const keep = (name) => {
      if (!types.has(name)) {
        types.add(name);
        changed = true;
      }
    };
    for (const name of [...types]) {
      const type = schema.getType(name);
      if (!type) throw new Error(`no type ${name}`);
      if (isObjectType(type) || isInterfaceType(type)) {
        const kept = fields.get(name) ?? new Set();
        // A type asked only for its __typename (a mutation's payload) keeps one scalar field, as a type needs one.
        if (kept.size === 0) {
          const all = Object.values(type.getFields());
          const scalar = all.find((f) => f.name === 'clientMutationId') ?? all.find((f) => f.args.length === 0 && getNamedType(f.type).name === 'String');
          if (scalar) {
            kept.add(scalar.name);
            changed = true;
          }
        }
        for (const iface of type.getInterfaces()) {
          if (!types.has(iface.name)) continue;
          for (const f of fields.get(iface.name) ?? []) {
            if (!kept.has(f)) {
              kept.add(f);
              changed = true;
            }
          }
        }
        fields.set(name, kept);
        for (const f of kept) {
          const field = type.getFields()[f];
          keep(getNamedType(field.type).name);
          for (const arg of field.args) keep(getNamedType(arg.type).name);
        }
      } else if (type.getFields) {
        for (const f of Object.values(type.getFields())) keep(getNamedType(f.type).name);
      }
    }
  }
  const directiveArgTypes = new Set();
  const doc = parse(fullText, { noLocation: true });
  const definitions = [];
  for (const def of doc.definitions) {
    if (def.kind === Kind.DIRECTIVE_DEFINITION) {
      for (const a of def.arguments ?? []) {
        let t = a.type;
        while (t.kind !== Kind.NAMED_TYPE) t = t.type;
        directiveArgTypes.add(t.name.value);
      }
      definitions.push(def);
      continue;
    }
    if (def.kind === Kind.SCHEMA_DEFINITION) {
      definitions.push(def);
      continue;
    }
    const name = def.name?.value;
    if (!types.has(name)) continue;
    if (def.kind === Kind.OBJECT_TYPE_DEFINITION || def.kind === Kind.INTERFACE_TYPE_DEFINITION) {
      const kept = fields.get(name) ?? new Set();
      definitions.push({
        ...def,
        interfaces: (def.interfaces ?? []).filter((i) => types.has(i.name.value)),
        fields: (def.fields ?? []).filter((f) => kept.has(f.name.value)),
      });
    } else if (def.kind === Kind.UNION_TYPE_DEFINITION) {
      definitions.push({ ...def, types: def.types.filter((t) => types.has(t.name.value)) });
    } else {
      definitions.push(def);
    }
  }
  for (const t of directiveArgTypes) {
    if (!types.has(t) && schema.getType(t) && !['String', 'Boolean', 'Int', 'Float', 'ID'].includes(t)) {
      throw new Error(`a directive's argument type ${t} is not kept; add it to the extras`);
    }
  }
  const text = `${print({ kind: Kind.DOCUMENT, definitions })}\n`;
  const problems = validateSchema(buildSchema(text));
  if (problems.length > 0) throw new Error(`the cut is not a valid schema: ${problems.map((e) => e.message).join('; ')}`);
  return { text, types: types.size, fields: [...fields.values()].reduce((n, s) => n + s.size, 0) };
}

/** The TypeScript module the server loads the subset from (it is bundled: no file is read at run time). */
export function schemaModule(text) {
  return [
    '// Generated by scripts/github-graphql-subset.mjs from spec/github-graphql/schema.graphql: do not edit.',
    "/** GitHub's GraphQL schema, cut to the subset the code host serves (spec/github-graphql/SOURCE.md). */",
    `export const SCHEMA_SDL = ${JSON.stringify(text)};`,
    '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  let fullText;
  let temp;
  try {
    if (args[0] === '--from') {
      fullText = readFileSync(args[1], 'utf8');
    } else {
      const version = args[0] ?? 'latest';
      temp = mkdtempSync(join(tmpdir(), 'octokit-graphql-schema-'));
      const tarball = execFileSync('npm', ['pack', `@octokit/graphql-schema@${version}`, '--silent'], { cwd: temp, encoding: 'utf8' })
        .trim()
        .split('\n')
        .pop();
      console.log(`package ${tarball}: sha256 ${sha256(readFileSync(join(temp, tarball)))}`);
      execFileSync('tar', ['xzf', tarball], { cwd: temp });
      fullText = readFileSync(join(temp, 'package', 'schema.graphql'), 'utf8');
    }
    const docs = documents();
    const { text, types, fields } = cutSchema(fullText, docs);
    const spec = join(root, 'spec/github-graphql');
    writeFileSync(join(spec, 'schema.graphql'), text);
    const gz = gzipSync(fullText, { level: 9 });
    writeFileSync(join(spec, 'schema.full.graphql.gz'), gz);
    writeFileSync(join(root, 'packages/tracker/src/codehost/graphql/schema-text.ts'), schemaModule(text));
    console.log(`input  schema.graphql: ${Buffer.byteLength(fullText)} bytes, sha256 ${sha256(fullText)}`);
    console.log(`input  ${docs.length} documents`);
    console.log(`output spec/github-graphql/schema.graphql: ${types} types, ${fields} fields, ${Buffer.byteLength(text)} bytes, sha256 ${sha256(text)}`);
    console.log(`output spec/github-graphql/schema.full.graphql.gz: ${gz.length} bytes, sha256 ${sha256(gz)}`);
  } finally {
    if (temp) rmSync(temp, { recursive: true, force: true });
  }
}
