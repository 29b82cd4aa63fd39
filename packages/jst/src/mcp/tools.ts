import * as z from 'zod/mini';
import {
  array,
  boolean,
  describe,
  enum as oneOf,
  int,
  looseObject,
  minLength,
  nullable,
  number,
  object,
  optional,
  positive,
  regex,
  string,
  union,
} from 'zod/mini';
import { ERROR_OUTPUT } from '../commands/outputs.js';
import type { CommandSpec, Z } from '../commands/define.js';
import { TOOL_SPECS } from '../commands/tool-specs.js';
import { JstError, type Role } from '../config/index.js';
import { EXIT } from '../core/errors.js';

/**
 * The tools of `jst mcp` (ARCHITECTURE §13), made from the command specs by one loop: the inputs a
 * spec marks for tools (plus `cwd`), its output schema (or a refusal), its annotations. No rule
 * lives here; the spec's own function runs.
 */
export interface Tool {
  spec: CommandSpec;
  name: string;
  input: z.ZodMiniObject;
  /** JSON schemas as `tools/list` sends them. */
  inputSchema: JsonObject;
  outputSchema: JsonObject;
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
}

type JsonObject = { type: 'object'; [k: string]: unknown };

/** What the specs' schema functions are given (commands/define.ts `Z`). */
const LIB: Z = { array, boolean, describe, enum: oneOf, int, looseObject, minLength, nullable, number, object, optional, positive, regex, string, union };

/** Every tool takes `cwd` (ARCHITECTURE §13): a folder of the server's repository or one of its worktrees. */
const CWD = z.optional(
  z.string().check(z.describe("Working folder for this call (default: the server's): a folder of the same repository or one of its worktrees")),
);

function jsonSchema(schema: z.ZodMiniType): Record<string, unknown> {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { target: 'draft-7', io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

function toolOf(spec: CommandSpec): Tool {
  const shape: Record<string, z.ZodMiniType> = {};
  for (const [name, field] of Object.entries(spec.fields)) {
    if (field.tool === false) continue;
    const schema = field.schema(LIB);
    shape[name] = field.description ? schema.check(z.describe(field.description)) : schema;
  }
  shape.cwd = CWD;
  // Strict: a misspelt input is an error naming the real ones, not an option silently ignored.
  const input = z.strictObject(shape);
  // A refusal carries structured content too (the CLI's --json error), so the schema admits both.
  const output = spec.output?.(LIB) ?? z.looseObject({});
  return {
    spec,
    name: spec.tool!.name,
    input,
    inputSchema: { type: 'object', ...jsonSchema(input) },
    outputSchema: { type: 'object', anyOf: [jsonSchema(output), jsonSchema(ERROR_OUTPUT(LIB))] },
    annotations: {
      title: spec.tool!.title,
      readOnlyHint: spec.effects.readOnly,
      destructiveHint: spec.effects.destructive,
      idempotentHint: spec.effects.idempotent,
      openWorldHint: spec.effects.openWorld,
    },
  };
}

let all: Tool[] | undefined;
export const allTools = (): Tool[] => (all ??= TOOL_SPECS.map(toolOf));

/**
 * The tools a server lists: its role's, then only those that change nothing (`--read-only`), then
 * only those named (`--tools a,b`). An unknown name is a usage error naming the role's tools.
 */
export function toolsOf(role: Role, o: { readOnly?: boolean | undefined; tools?: string | undefined } = {}): Tool[] {
  let tools = allTools().filter((t) => t.spec.tool!.roles.includes(role));
  if (o.readOnly) tools = tools.filter((t) => t.annotations.readOnlyHint);
  if (o.tools !== undefined) {
    const names = o.tools
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean);
    const known = new Set(tools.map((t) => t.name));
    const unknown = names.filter((n) => !known.has(n));
    if (unknown.length || !names.length) {
      throw new JstError({
        code: 'USAGE',
        exitCode: EXIT.usage,
        problem: `--tools ${names.length ? `names ${unknown.join(', ')}, which the ${role}${o.readOnly ? "'s read-only" : ''} tools do not include` : 'is empty'}`,
        hint: `The ${role}${o.readOnly ? "'s read-only" : ''} tools: ${[...known].join(', ')}`,
      });
    }
    tools = tools.filter((t) => names.includes(t.name));
  }
  return tools;
}

/** The tool's arguments checked against its input schema; a mismatch names the inputs, as the tool spells them. */
export function parseArgs(tool: Tool, args: unknown): Record<string, unknown> {
  const r = z.safeParse(tool.input, args ?? {});
  if (r.success) return r.data;
  const problems = r.error.issues.map((i) => {
    const at = i.path.length ? i.path.join('.') : '(the arguments)';
    const detail =
      i.code === 'invalid_type'
        ? `expected ${(i as { expected?: string }).expected ?? 'another type'}`
        : i.code === 'unrecognized_keys'
          ? `unknown input${(i as { keys?: string[] }).keys?.length === 1 ? '' : 's'} ${((i as { keys?: string[] }).keys ?? []).join(', ')}`
          : i.code === 'invalid_value'
            ? `expected one of ${((i as { values?: unknown[] }).values ?? []).map((v) => JSON.stringify(v)).join(', ')}`
            : i.message !== 'Invalid input'
              ? i.message
              : i.code.replace(/_/g, ' ');
    return `${at}: ${detail}`;
  });
  const inputs = Object.keys(tool.input._zod.def.shape);
  throw new JstError({
    code: 'USAGE',
    exitCode: EXIT.usage,
    problem: `${tool.name} was called with invalid input (${problems.join('; ')})`,
    hint: `Its inputs: ${inputs.join(', ')}`,
  });
}
