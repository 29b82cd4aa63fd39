import { Command, CommanderError, Option } from 'commander';
import { CLI_SPECS, GROUPS } from './cli-specs.js';
import { helpOf, type CommandSpec, type Face } from './commands/define.js';
import { TOOL_SPECS } from './commands/tool-specs.js';
import { ROLES, type Role } from './config/index.js';
import { createContext } from './compose.js';
import type { Context } from './core/context.js';
import { emit, errorLine } from './core/output.js';
import { EXIT, exitCodeFor, jsonError, messageFor } from './core/errors.js';
import { VERSION } from './version.js';

/**
 * The CLI face: one commander command per spec (cli-specs.ts), made by one loop. Flag parsing
 * only; each action builds the context and runs the spec's function of its inputs (docs/style.md), so
 * tests can run the same functions in-process.
 */
export function buildProgram(run: (work: (ctx: Context) => Promise<number>) => Promise<void>): Command {
  const program = new Command('jst')
    .description('The three-role task toolkit (assigner, executor, reviewer) for a Jira Cloud REST v3 tracker.')
    .version(VERSION, '-V, --version')
    .addOption(new Option('--role <role>', 'the account to act as (no default)').choices(ROLES))
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  const groups = new Map<string, Command>();
  for (const spec of CLI_SPECS) {
    if (spec.cli === false) continue;
    const words = spec.name.split(' ');
    let parent = program;
    if (words.length === 2) {
      const group = words[0]!;
      if (!groups.has(group)) groups.set(group, program.command(group).description(GROUPS[group] ?? ''));
      parent = groups.get(group)!;
    }
    addCommand(parent.command(words.at(-1)!), spec, run);
  }
  return program;
}

const JSON_HELP = {
  piped: 'print JSON (the default when stdout is not a terminal)',
  flag: 'print JSON (without it: text, also when stdout is not a terminal)',
} as const;

function addCommand(cmd: Command, spec: CommandSpec, run: (work: (ctx: Context) => Promise<number>) => Promise<void>): void {
  cmd.description(spec.summary);
  if (spec.role !== 'none') cmd.addOption(new Option('--role <role>', 'the account to act as').choices(ROLES));
  if (spec.json !== 'none') cmd.option('--json', JSON_HELP[spec.json]);
  const args: string[] = [];
  const flags: [string, string][] = [];
  for (const [name, field] of Object.entries(spec.fields)) {
    const c = field.cli;
    if (!c) continue;
    const help = helpOf(field) ?? '';
    if (c.arg) {
      cmd.argument(c.arg, help);
      args.push(name);
      continue;
    }
    if (!c.flag) continue;
    const option = new Option(c.flag, help);
    if (c.required) option.makeOptionMandatory();
    if (c.choices) option.choices(c.choices);
    cmd.addOption(option);
    flags.push([name, option.attributeName()]);
  }
  const tail = [spec.help ? `\n${spec.help}\n` : '', spec.name === 'mcp' ? toolList() : ''].join('');
  if (tail) cmd.addHelpText('after', tail);
  cmd.addHelpText('after', `\nExamples:\n${spec.examples.map((l) => `  $ ${l}`).join('\n')}\n`);
  cmd.action(async (...given: unknown[]) => {
    const self = given.at(-1) as Command;
    const opts = given.at(-2) as Record<string, unknown>;
    const role = roleFor(self, spec);
    const input: Record<string, unknown> = {};
    args.forEach((name, i) => {
      input[name] = given[i];
    });
    for (const [name, attr] of flags) input[name] = opts[attr];
    for (const [name, field] of Object.entries(spec.fields)) {
      const parse = field.cli?.parse;
      if (parse && input[name] !== undefined) input[name] = parse(input[name]);
    }
    await run(async (ctx) => {
      const face: Face = { role, json: spec.json === 'piped' ? Boolean(opts.json) || !ctx.io.stdout.isTTY : Boolean(opts.json) };
      return emit(ctx.io, await spec.run(ctx, input, face), face.json);
    });
  });
}

/** ARCHITECTURE §11: phases 2 and 3 act as a fixed role, accepting --role only when it matches; the rest need --role. */
function roleFor(cmd: Command, spec: CommandSpec): Role {
  const given = cmd.optsWithGlobals<{ role?: Role }>().role;
  if (spec.role === 'chosen') {
    if (!given) throw new CommanderError(EXIT.usage, 'jst.role', `error: ${cmd.name()} needs --role assigner|executor|reviewer (there is no default account)`);
    return given;
  }
  if (spec.role === 'none') return given ?? 'assigner';
  if (given !== undefined && given !== spec.role)
    throw new CommanderError(EXIT.usage, 'jst.role', `error: jst ${cmd.name()} always runs as the ${spec.role} (got --role ${given})`);
  return spec.role;
}

/** `jst mcp --help`: the tools of each role, from the specs (so the list cannot fall behind them). */
function toolList(): string {
  const rows = ROLES.map((role) => {
    const names = TOOL_SPECS.filter((s) => s.tool!.roles.includes(role)).map((s) => `${s.tool!.name}${s.effects.readOnly ? '' : '*'}`);
    return `  ${role.padEnd(9)} ${names.join(', ')}`;
  });
  return `\nTools (* = changes something; --read-only lists only the others):\n${rows.join('\n')}\n`;
}

export async function main(argv: string[]): Promise<number> {
  let code: number = EXIT.ok;
  let ctx: Context | undefined;
  const run = async (work: (c: Context) => Promise<number>) => {
    ctx = createContext();
    code = await work(ctx);
  };
  try {
    await buildProgram(run).parseAsync(argv, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return EXIT.ok;
      if (!e.message.startsWith('error:') || e.code === 'jst.role' || e.code === 'jst.usage') process.stderr.write(`${e.message}\n`);
      return EXIT.usage;
    }
    const raw = messageFor(e);
    const text = ctx ? ctx.redact(raw) : raw;
    // ARCHITECTURE §11: no control character, and a bounded length, whatever a server said.
    const line = errorLine(text);
    process.stderr.write(line);
    // ARCHITECTURE §11: every error of a --json run also says, on stdout, what kind of no it was.
    if (argv.includes('--json')) process.stdout.write(jsonError(e, line.slice('jst: '.length, -1)));
    return exitCodeFor(e);
  } finally {
    ctx?.close();
  }
  return code;
}
