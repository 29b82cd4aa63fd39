import type * as zm from 'zod/mini';
import type { Role } from '../config/index.js';
import type { Context } from '../core/context.js';
import type { Outcome } from '../core/output.js';

/**
 * A command declared once (docs/style.md "One command, three faces"): its inputs, its result, its help
 * and the function that runs it. The commander program (program.ts) and the MCP tool list
 * (mcp/tools.ts) are loops over these specs; neither names an option of its own.
 *
 * The schemas are zod/mini (the MCP SDK takes it), each written as a function of the library: only
 * the tool face (mcp/tools.ts) calls them, so the CLI's bundle neither loads zod nor builds a schema
 * at start-up; commander needs only the spellings and the help.
 */

/**
 * The part of the schema library the specs use, handed to each schema function by the face that
 * needs the schema. A named subset, not the namespace: a bundle that passes `import * as z` around
 * as a value must keep every export of it (zod's locales alone are 260 KB).
 */
export type Z = Pick<
  typeof zm,
  | 'array'
  | 'boolean'
  | 'describe'
  | 'enum'
  | 'int'
  | 'looseObject'
  | 'minLength'
  | 'nullable'
  | 'number'
  | 'object'
  | 'optional'
  | 'positive'
  | 'regex'
  | 'string'
  | 'union'
>;
export type Schema = zm.ZodMiniType;

/** How the CLI spells one input. */
export interface CliFace {
  /** A flag in commander's syntax: `--fields <list>`, `--draft`, `--yes <key...>`. */
  flag?: string;
  /** A positional in commander's syntax: `<key>`, `[key]`, `[notes...]`. */
  arg?: string;
  /** The help line, when it differs from the schema's description. */
  help?: string;
  required?: boolean;
  choices?: readonly string[];
  /** From the text commander parsed to the input's value (e.g. `--max 5` → 5). */
  parse?: (value: unknown) => unknown;
}

/** One input: the schema the tool declares (and the command's type), and the CLI's spelling of it. */
export interface Field<S extends Schema = Schema> {
  /** The input's schema, built on demand from the library. */
  schema: (z: Z) => S;
  /** What the input is: the tool's description and, unless `cli.help` says otherwise, the CLI's help. */
  description?: string | undefined;
  /** Absent: a tool input only (the CLI has another way to say it). */
  cli?: CliFace | undefined;
  /** false: the CLI's alone (a file path, a person's yes, an output switch): never a tool input. */
  tool?: boolean | undefined;
}

export type Fields = Record<string, Field>;
export type Input<F extends Fields> = { [K in keyof F]: zm.infer<ReturnType<F[K]['schema']>> };

/** The MCP annotations (ARCHITECTURE §13), stated for each command, truthfully. */
export interface Effects {
  /** Changes nothing anywhere (tracker, code host, git, files). */
  readOnly: boolean;
  /** May undo or overwrite what is there (a move to Done, a delete); false for additive writes. */
  destructive: boolean;
  /** The same call again changes nothing more. */
  idempotent: boolean;
  /** Talks to the tracker or the code host (every jst command but a few local ones). */
  openWorld: boolean;
}

/** Who the command acts as: chosen with `--role`, fixed (accepted with --role only when equal), or nobody. */
export type RoleRule = 'chosen' | Role | 'none';

/** Where the command is being run from: the role it acts as, and whether a person reads the text. */
export interface Face {
  role: Role;
  /** The JSON form was asked for (CLI --json, or piped for the read verbs); always true for a tool. */
  json: boolean;
  /** The MCP tool's name when called by an agent; undefined on the CLI. */
  tool?: string | undefined;
}

export interface ToolFace {
  name: string;
  roles: readonly Role[];
  title: string;
  /** What the agent reads to pick the tool; the inputs describe themselves. */
  description: string;
}

export interface CommandSpec<F extends Fields = Fields> {
  /** The CLI's words (`issue view`, `pr-base`); the tool's name is `tool.name`. */
  name: string;
  /** The one-line description `--help` shows. */
  summary: string;
  /** Text after the options in `--help` (exit codes, rules); examples are added after it. */
  help?: string | undefined;
  examples: readonly string[];
  role: RoleRule;
  /**
   * `--json`: 'piped' = JSON also when stdout is not a terminal (the read verbs); 'flag' = only with
   * --json (text otherwise, also when piped); 'none' = no --json.
   */
  json: 'piped' | 'flag' | 'none';
  fields: F;
  /** false: no CLI command of its own (its CLI face is another command's flags, e.g. `review --approve`). */
  cli?: boolean | undefined;
  tool?: ToolFace | undefined;
  /** The result's schema (the `--json` value, the tool's structuredContent). */
  output?: ((z: Z) => Schema) | undefined;
  effects: Effects;
  /**
   * The command, acting as `face.role` (the role this spec declares: the client it uses is
   * `ctx.client(face.role)`, never a role named in the run): an outcome the face prints. A streaming command (dispatch, mcp, batch)
   * writes through `ctx.io` as it goes and returns `printed(code)`.
   */
  run(ctx: Context, input: Input<F>, face: Face): Promise<Outcome>;
}

/** Declares a spec with its field types flowing into `run`. */
export function defineCommand<F extends Fields>(spec: CommandSpec<F>): CommandSpec<F> {
  return {
    ...spec,
    // spec §3 rule 5: a move the tracker's workflow condition withholds is refused naming the condition, on every face.
    run: (ctx, input, face) =>
      spec.run(ctx, input, face).catch(async (e: unknown) => {
        throw await (await import('../phase/transition-refusal.js')).explainRefusal(ctx, e);
      }),
  };
}

/** Declares a field outside a spec (a shared input), with its schema's type kept. */
export function field<S extends Schema>(f: Field<S>): Field<S> {
  return f;
}

/** The help line of a CLI input: its own, or the field's description. */
export const helpOf = (f: Field): string | undefined => f.cli?.help ?? f.description;

export const READ: Effects = { readOnly: true, destructive: false, idempotent: true, openWorld: true };
/** A write that only adds (a comment, an issue, a pull request) and repeats nothing on a rerun. */
export const ADDS: Effects = { readOnly: false, destructive: false, idempotent: true, openWorld: true };
