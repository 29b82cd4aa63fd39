import * as z from 'zod/mini';
import { Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { CLI_SPECS } from '../../src/cli-specs.js';
import { helpOf } from '../../src/commands/define.js';
import { TOOL_SPECS } from '../../src/commands/tool-specs.js';
import { buildProgram } from '../../src/program.js';
import { allTools, toolsOf } from '../../src/mcp/tools.js';

/** ARCHITECTURE §13 / docs/style.md "One command, three faces": each command is declared once. */
describe('command specs: one declaration per command', () => {
  const all = [...new Set([...CLI_SPECS, ...TOOL_SPECS])];

  it('every CLI command comes from a spec, and every spec with a CLI face is a command of the program', () => {
    const program = buildProgram(async () => undefined);
    const names = (cmd: typeof program, prefix = ''): string[] =>
      cmd.commands.flatMap((c) => (c.commands.length ? names(c, `${c.name()} `) : [`${prefix}${c.name()}`]));
    expect(names(program).sort()).toEqual(
      CLI_SPECS.filter((s) => s.cli !== false)
        .map((s) => s.name)
        .sort(),
    );
  });

  it('no option is written twice: within a command every flag and every positional is declared by one field', () => {
    for (const spec of all) {
      const flags = Object.values(spec.fields).flatMap((f) => (f.cli?.flag ? [new Option(f.cli.flag).attributeName()] : []));
      expect(new Set(flags).size, spec.name).toBe(flags.length);
      for (const [name, f] of Object.entries(spec.fields)) {
        if (f.cli) expect(Boolean(f.cli.flag) !== Boolean(f.cli.arg), `${spec.name}.${name}: a flag or a positional, not both`).toBe(true);
        if (f.tool === false) expect(f.cli, `${spec.name}.${name}: an input on no face`).toBeDefined();
      }
    }
  });

  it('every command has a one-line summary, examples naming it, and help for each flag', () => {
    for (const spec of all) {
      expect(spec.summary, spec.name).toMatch(/^[^\n]{10,140}$/);
      expect(spec.examples.length, spec.name).toBeGreaterThan(0);
      if (spec.cli !== false) for (const e of spec.examples) expect(e, spec.name).toContain(`${spec.name.split(' ')[0]}`);
      for (const [name, f] of Object.entries(spec.fields)) if (f.cli?.flag) expect(helpOf(f), `${spec.name} --${name}`).toBeTruthy();
    }
  });

  it('every tool has an output schema, camelCase inputs with descriptions or a CLI help, and effects that agree (read-only is never destructive)', () => {
    for (const spec of TOOL_SPECS) {
      expect(spec.output, spec.tool!.name).toBeDefined();
      expect(spec.tool!.name).toMatch(/^[a-z]+(_[a-z]+)*$/);
      for (const name of Object.keys(spec.fields)) expect(name).toMatch(/^[a-z][a-zA-Z]*$/);
      if (spec.effects.readOnly) expect(spec.effects.destructive, spec.tool!.name).toBe(false);
    }
  });

  it('ARCHITECTURE §13: each role lists exactly its tools; --read-only only those whose readOnlyHint is true', () => {
    const names = (role: 'assigner' | 'executor' | 'reviewer', o = {}) => toolsOf(role, o).map((t) => t.name);
    expect(names('assigner')).toEqual(['healthcheck', 'issue_view', 'search', 'comment_list', 'plan', 'plan_dry_run']);
    expect(names('executor')).toEqual(['healthcheck', 'issue_view', 'search', 'comment_list', 'start', 'note', 'pr_base', 'pr']);
    expect(names('reviewer')).toEqual(['healthcheck', 'issue_view', 'search', 'comment_list', 'review_brief', 'review_verdict', 'parent_pr', 'done']);
    for (const role of ['assigner', 'executor', 'reviewer'] as const)
      for (const t of toolsOf(role, { readOnly: true })) expect(t.annotations.readOnlyHint).toBe(true);
    expect(names('reviewer', { tools: 'done,search' })).toEqual(['search', 'done']);
    expect(() => toolsOf('executor', { tools: 'done' })).toThrow(/done/);
  });

  it("ARCHITECTURE §13: the tool inputs are the contract's, plus cwd", () => {
    const inputs = Object.fromEntries(allTools().map((t) => [t.name, Object.keys(t.input._zod.def.shape).sort()]));
    expect(inputs).toEqual({
      healthcheck: ['cwd'],
      issue_view: ['cwd', 'fields', 'key', 'raw'],
      search: ['all', 'cwd', 'fields', 'jql', 'max', 'pageToken'],
      comment_list: ['cwd', 'key', 'marker'],
      plan: ['abandon', 'again', 'cwd', 'fromBranch', 'plan'],
      plan_dry_run: ['cwd', 'fromBranch', 'plan'],
      start: ['cwd', 'notes', 'onParent'],
      note: ['cwd', 'markdown', 'text'],
      pr_base: ['cwd'],
      pr: ['body', 'cwd', 'draft', 'markdown', 'title'],
      review_brief: ['cwd', 'key'],
      review_verdict: ['body', 'cwd', 'key', 'markdown', 'summary', 'verdict'],
      parent_pr: ['cwd', 'key'],
      done: ['cwd', 'keys'],
    });
  });

  it('the CLI builds no schema: the program is made without the schema library (start-up)', async () => {
    const { readFileSync } = await import('node:fs');
    const bundle = readFileSync(new URL('../../dist/program.cjs', import.meta.url), 'utf8');
    expect(bundle).not.toContain('$ZodType');
  });

  it("an output schema admits the command's result and a refusal, and nothing else", () => {
    const note = allTools().find((t) => t.name === 'note')!;
    const schema = note.outputSchema as unknown as { anyOf: unknown[] };
    expect(schema.anyOf).toHaveLength(2);
    const output = note.spec.output!(z);
    expect(z.safeParse(output, { key: 'ABC-1', commentId: '10', text: 'Task memory' }).success).toBe(true);
    expect(z.safeParse(output, { key: 'ABC-1' }).success).toBe(false);
  });
});
