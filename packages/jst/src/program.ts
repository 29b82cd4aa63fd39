import { Command, CommanderError, Option } from 'commander';
import type { Role } from './config/index.js';
import { createContext, type Context } from './context.js';
import { EXIT, exitCodeFor, messageFor } from './exit.js';
import { VERSION } from './version.js';

/**
 * Flag parsing only: each action builds the context and calls a command function of its
 * options (STYLE.md), so tests can run the same functions in-process.
 */
export function buildProgram(run: (work: (ctx: Context) => Promise<number>) => Promise<void>): Command {
  const program = new Command('jst')
    .description('The three-role task toolkit (assigner, executor, reviewer) for a Jira Cloud REST v3 tracker.')
    .version(VERSION, '-V, --version')
    .addOption(new Option('--role <role>', 'the account to act as (no default)').choices(['assigner', 'executor', 'reviewer']))
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();

  const roleOf = (cmd: Command): Role => {
    const role = (cmd.optsWithGlobals() as { role?: Role }).role;
    if (!role) throw new CommanderError(EXIT.usage, 'jst.role', `error: ${cmd.name()} needs --role assigner|executor|reviewer (there is no default account)`);
    return role;
  };
  const withRole = (cmd: Command) => cmd.addOption(new Option('--role <role>', 'the account to act as').choices(['assigner', 'executor', 'reviewer']));
  const json = (cmd: Command) => cmd.option('--json', 'print JSON (the default when stdout is not a terminal)');
  const examples = (cmd: Command, lines: string[]) => cmd.addHelpText('after', `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`);

  examples(withRole(program.command('raw'))
    .description('send one authenticated call to {api_base}<path> with the role\'s credential')
    .argument('<method>', 'GET, POST, PUT, DELETE…')
    .argument('<path>', 'path under {api_base}, e.g. /myself')
    .argument('[body]', 'JSON string, @file, or - for stdin')
    .action(async (method: string, path: string, body: string | undefined, _o, cmd: Command) => {
      const role = roleOf(cmd);
      await run(async (ctx) => (await import('./commands/raw.js')).raw(ctx, role, method, path, body));
    }), [
    'jst --role assigner raw GET /myself',
    'jst --role executor raw GET "/issue/ABC-1?fields=summary,status"',
    'jst --role assigner raw POST /issue/ABC-1/comment @comment.json',
  ]);

  examples(json(withRole(program.command('whoami'))).description('who the role\'s token belongs to (GET /myself)')
    .action(async (o, cmd: Command) => { const role = roleOf(cmd); await run(async (ctx) => (await import('./commands/read.js')).whoami(ctx, role, o)); }),
  ['jst --role executor whoami']);

  examples(json(withRole(program.command('tenant'))).description('the site\'s cloudId and {api_base}')
    .action(async (o, cmd: Command) => { const role = roleOf(cmd); await run(async (ctx) => (await import('./commands/read.js')).tenant(ctx, role, o)); }),
  ['jst --role assigner tenant --json']);

  const project = program.command('project').description('projects visible to the role');
  examples(json(withRole(project.command('list'))).option('--query <text>', 'filter by key or name')
    .action(async (o, cmd: Command) => { const role = roleOf(cmd); await run(async (ctx) => (await import('./commands/read.js')).projectList(ctx, role, o)); }),
  ['jst --role assigner project list']);
  examples(json(withRole(project.command('exists'))).argument('<key>').description('exit 0 when the project is visible (exact key), 1 when not')
    .action(async (key: string, o, cmd: Command) => { const role = roleOf(cmd); await run(async (ctx) => (await import('./commands/read.js')).projectExists(ctx, role, key, o)); }),
  ['jst --role assigner project exists ABC && echo visible']);
  examples(json(withRole(project.command('statuses'))).argument('<key>')
    .action(async (key: string, o, cmd: Command) => { const role = roleOf(cmd); await run(async (ctx) => (await import('./commands/read.js')).projectStatuses(ctx, role, key, o)); }),
  ['jst --role assigner project statuses ABC']);

  const issue = program.command('issue').description('read, create, assign, transition and delete issues');
  examples(json(withRole(issue.command('view'))).argument('<key>').option('--fields <list>', 'comma list, or the presets executor | reviewer')
    .action(async (key: string, o, cmd: Command) => { const role = roleOf(cmd); await run(async (ctx) => (await import('./commands/read.js')).issueView(ctx, role, key, o)); }),
  ['jst --role executor issue view ABC-1 --fields executor', 'jst --role reviewer issue view ABC-1 --fields summary,status --json']);
  examples(json(withRole(issue.command('create')))
    .requiredOption('--type <type>', 'Task or Subtask')
    .requiredOption('--summary <text>', 'one line')
    .option('--parent <key>', 'the parent of a Subtask')
    .option('--project <key>', 'default: PROJECT_KEY from .jst/team.env')
    .option('--assignee <who>', 'EMAIL, @me, or executor (the executor e-mail from .jst/local.env)')
    .option('--description-file <file>', 'plain text: one paragraph per non-empty line, nothing interpreted')
    .option('--adf-file <file>', 'an ADF document (JSON)')
    .option('--description <dash>', '- reads plain text from stdin')
    .action(async (o, cmd: Command) => { const role = roleOf(cmd); await run(async (ctx) => (await import('./commands/write.js')).issueCreate(ctx, role, o)); }),
  ['jst --role assigner issue create --type Task --summary "Add login" --assignee executor --description-file scope.txt',
    'jst --role assigner issue create --type Subtask --parent ABC-1 --summary "Form" --assignee executor']);
  examples(json(withRole(issue.command('assign'))).argument('<key>').argument('<who>', 'EMAIL, @me, executor or none')
    .action(async (key: string, who: string, o, cmd: Command) => { const role = roleOf(cmd); await run(async (ctx) => (await import('./commands/write.js')).issueAssign(ctx, role, key, who, o)); }),
  ['jst --role assigner issue assign ABC-1 executor@acme.test', 'jst --role executor issue assign ABC-1 @me', 'jst --role assigner issue assign ABC-1 none']);
  examples(json(withRole(issue.command('transitions'))).argument('<key>')
    .action(async (key: string, o, cmd: Command) => { const role = roleOf(cmd); await run(async (ctx) => (await import('./commands/read.js')).issueTransitions(ctx, role, key, o)); }),
  ['jst --role executor issue transitions ABC-1']);
  examples(json(withRole(issue.command('transition'))).argument('<key>').requiredOption('--to <status>', 'destination status name, matched literally')
    .action(async (key: string, o: { to: string; json?: boolean }, cmd: Command) => { const role = roleOf(cmd); await run(async (ctx) => (await import('./commands/write.js')).issueTransition(ctx, role, key, o.to, o)); }),
  ['jst --role executor issue transition ABC-1 --to "In Progress"']);
  examples(json(withRole(issue.command('delete'))).argument('<key>').option('--with-subtasks', 'also delete its sub-tasks').option('--yes <key>', 'the same key again, to confirm without a prompt')
    .action(async (key: string, o, cmd: Command) => { const role = roleOf(cmd); await run(async (ctx) => (await import('./commands/write.js')).issueDelete(ctx, role, key, o)); }),
  ['jst --role assigner issue delete ABC-7 --yes ABC-7', 'jst --role assigner issue delete ABC-1 --with-subtasks']);

  const comment = program.command('comment').description('add and list comments');
  examples(json(withRole(comment.command('add'))).argument('<key>').argument('[dash]', '- reads plain text from stdin')
    .option('--body-file <file>', 'plain text: one paragraph per non-empty line').option('--adf-file <file>', 'an ADF document (JSON)')
    .action(async (key: string, dash: string | undefined, o, cmd: Command) => {
      const role = roleOf(cmd);
      if (dash !== undefined && dash !== '-') throw new CommanderError(EXIT.usage, 'jst.usage', `error: unexpected argument "${dash}" (use --body-file F, --adf-file F or -)`);
      await run(async (ctx) => (await import('./commands/write.js')).commentAdd(ctx, role, key, { ...o, stdin: dash === '-' }));
    }),
  ['echo "Looks good" | jst --role reviewer comment add ABC-1 -', 'jst --role assigner comment add ABC-1 --body-file note.txt']);
  examples(json(withRole(comment.command('list'))).argument('<key>').option('--marker <text>', 'only comments whose text starts with it')
    .action(async (key: string, o, cmd: Command) => { const role = roleOf(cmd); await run(async (ctx) => (await import('./commands/read.js')).commentList(ctx, role, key, o)); }),
  ['jst --role executor comment list ABC-1 --marker "Assignment report"']);

  examples(json(withRole(program.command('search'))).argument('<jql>').option('--fields <list>', 'default key,summary,status').option('--all', 'follow nextPageToken to the end').option('--max <n>', 'page size (default 50)')
    .action(async (jql: string, o, cmd: Command) => { const role = roleOf(cmd); await run(async (ctx) => (await import('./commands/read.js')).search(ctx, role, jql, o)); }),
  ['jst --role executor search "assignee = currentUser() AND status = \\"To Do\\"" --all']);

  examples(withRole(program.command('batch')).description('JSON-lines requests on stdin ({"method","path","body"}), answers on stdout, one connection')
    .action(async (_o, cmd: Command) => { const role = roleOf(cmd); await run(async (ctx) => (await import('./commands/batch.js')).batch(ctx, role)); }),
  ['printf \'{"method":"GET","path":"/myself"}\\n\' | jst --role assigner batch']);

  examples(json(withRole(program.command('healthcheck'))).description('the status check: configuration, logins, branches, platform')
    .action(async (o, cmd: Command) => { const role = roleOf(cmd); await run(async (ctx) => (await import('./commands/healthcheck.js')).healthcheck(ctx, role, o)); }),
  ['jst healthcheck --role assigner', 'jst healthcheck --role executor --json']);

  examples(json(program.command('plan'))
    .description('phase 1, the assigner: plan a request into issues, branches and worktrees')
    .argument('[request...]', 'what to build (asked for when empty)')
    .option('--plan <file>', 'a plan file (JSON) with the settled answers; runs non-interactively')
    .option('--yes', 'do not ask for the final confirmation; plan from an unusual start branch')
    .option('--confirm-hotfix', 'the explicit yes the hotfix path needs')
    .option('--dry-run', 'print every call and git command, change nothing')
    .addHelpText('after', '\nExit codes: 0 done, 1 a tracker or git failure, 2 a gate refused (nothing created), 3 a question needs an answer (non-interactive).\nA run cut off at any point is finished by running jst plan again (the journal is .jst/plan-journal.json).\n')
    .action(async (request: string[], o) => { await run(async (ctx) => (await import('./plan/run.js')).runPlan(ctx, { request, ...o })); }),
  ['jst plan "Add CSV export to the reports page"', 'jst plan --plan plan.json --json', 'jst plan --plan hotfix.json --confirm-hotfix', 'jst plan --plan plan.json --dry-run']);

  examples(json(withRole(program.command('start')))
    .description('phase 2, the executor: start work on the issue of this worktree (the key comes from the branch)')
    .argument('[notes...]', 'free-form notes for this piece of work')
    .addHelpText('after', '\nRuns inside a worktree made by jst plan, always as the executor (--role executor is accepted, no other role).\nExit codes: 0 started, 1 refused by the tracker or a rule (not assigned to the executor, no transition to STATUS_IN_PROGRESS), 2 not in an issue worktree or a configuration error.\n')
    .action(async (notes: string[], o: { json?: boolean }, cmd: Command) => {
      // spec §1 rule 13: phase 2 is the executor's; its account is never chosen by a flag.
      const role = (cmd.optsWithGlobals() as { role?: Role }).role;
      if (role !== undefined && role !== 'executor') throw new CommanderError(EXIT.usage, 'jst.role', `error: jst start always runs as the executor (got --role ${role})`);
      await run(async (ctx) => (await import('./commands/start.js')).start(ctx, { notes, json: o.json }));
    }),
  ['cd ~/worktrees/worktree-ABC-2 && jst start', 'jst start "begin with the parser; the UI can wait"', 'jst start --json']);

  examples(withRole(program.command('mcp'))
    .description('serve the role\'s tools to a coding agent: a Model Context Protocol server on stdio (ARCHITECTURE §13)')
    .addHelpText('after', '\nTools: every role healthcheck, issue_view, search; assigner plan, plan_dry_run; executor start.\nEach calls the same code as the command of that name; a refusal is a tool result with isError.\nCredentials: the role\'s own from .jst/ (found from the folder the server starts in), as for every command.\n')
    .action(async (_o, cmd: Command) => {
      const role = roleOf(cmd);
      await run(async () => (await import('./mcp/serve.js')).serveMcp(role));
    }),
  ['jst mcp --role executor', 'claude mcp add jst-executor -- jst mcp --role executor', 'codex mcp add jst-executor -- jst mcp --role executor']);

  examples(program.command('init').description('write .jst/team.env, .jst/local.env (0600) and .jst/.gitignore')
    .option('--force', 'overwrite existing files')
    .option('--project-key <key>').option('--site <host>', 'TRACKER_ACCOUNT_URL').option('--gateway <url>', 'TRACKER_GATEWAY_URL')
    .option('--worktrees-dir <path>', 'absolute').option('--base-branch <name>').option('--production-branch <name>').option('--codehost-api <url>')
    .option('--assigner-email <email>').option('--executor-email <email>').option('--reviewer-email <email>')
    .addHelpText('after', '\nTokens are read from TRACKER_ASSIGNER_TOKEN, TRACKER_EXECUTOR_TOKEN, TRACKER_REVIEWER_TOKEN and CODEHOST_PAT_TOKEN\nin the environment, or asked for on a terminal; never from flags.\n')
    .action(async (o) => { await run(async (ctx) => (await import('./commands/init.js')).init(ctx, o)); }),
  ['jst init', 'jst init --project-key ABC --site acme.atlassian.net --worktrees-dir /home/me/worktrees --assigner-email a@acme.test --executor-email e@acme.test --reviewer-email r@acme.test']);

  return program;
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
    const text = messageFor(e);
    process.stderr.write(`jst: ${ctx ? ctx.redact(text) : text}\n`);
    return exitCodeFor(e);
  } finally {
    ctx?.close();
  }
  return code;
}

