import { Command, CommanderError, Option } from 'commander';
import type { Role } from './config/index.js';
import { createContext, type Context } from './context.js';
import { EXIT, exitCodeFor, jsonError, messageFor } from './exit.js';
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
    .option('--markdown', 'the description text is Markdown (headings, lists, code, tables…) made into ADF nodes; without it text stays literal')
    .action(async (o, cmd: Command) => { const role = roleOf(cmd); await run(async (ctx) => (await import('./commands/write.js')).issueCreate(ctx, role, o)); }),
  ['jst --role assigner issue create --type Task --summary "Add login" --assignee executor --description-file scope.txt',
    'jst --role assigner issue create --type Subtask --parent ABC-1 --summary "Form" --assignee executor',
    'jst --role assigner issue create --type Task --summary "Add login" --description-file scope.md --markdown']);
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
    .option('--markdown', 'the body text is Markdown made into ADF nodes; without it text stays literal')
    .action(async (key: string, dash: string | undefined, o, cmd: Command) => {
      const role = roleOf(cmd);
      if (dash !== undefined && dash !== '-') throw new CommanderError(EXIT.usage, 'jst.usage', `error: unexpected argument "${dash}" (use --body-file F, --adf-file F or -)`);
      await run(async (ctx) => (await import('./commands/write.js')).commentAdd(ctx, role, key, { ...o, stdin: dash === '-' }));
    }),
  ['echo "Looks good" | jst --role reviewer comment add ABC-1 -', 'jst --role assigner comment add ABC-1 --body-file note.txt',
    'printf \'**Blocked** on `ABC-2`\\n\' | jst --role executor comment add ABC-1 - --markdown']);
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
    .option('--context', 'also the context rows issue_key, parent_branch and working_tree (status PASS, WARN or INFO = does not apply; never change the exit code)')
    .action(async (o, cmd: Command) => { const role = roleOf(cmd); await run(async (ctx) => (await import('./commands/healthcheck.js')).healthcheck(ctx, role, o)); }),
  ['jst healthcheck --role assigner', 'jst healthcheck --role executor --json', 'jst healthcheck --role executor --context']);

  examples(json(program.command('plan'))
    .description('phase 1, the assigner: plan a request into issues, branches and worktrees')
    .argument('[request...]', 'what to build (asked for when empty)')
    .option('--plan <file>', 'a plan file (JSON) with the settled answers; runs non-interactively')
    .option('--yes', 'do not ask for the final confirmation (never accepts an unusual start branch: see --from-branch)')
    .option('--from-branch <name>', 'plan from this branch, which is neither the default base nor the production branch, without asking (spec §1 rule 2); must name the current branch')
    .option('--confirm-hotfix', 'the explicit yes the hotfix path needs')
    .option('--dry-run', 'print every call and git command, change nothing')
    .addHelpText('after', '\nExit codes: 0 done, 1 a tracker or git failure, 2 a gate refused (nothing created), 3 a question needs an answer (non-interactive), 130 cancelled with Ctrl-C at a question.\nA run cut off at any point is finished by running jst plan again (the journal is .jst/plan-journal.json).\n')
    .action(async (request: string[], o) => { await run(async (ctx) => (await import('./plan/run.js')).runPlan(ctx, { request, ...o })); }),
  ['jst plan "Add CSV export to the reports page"', 'jst plan --plan plan.json --json', 'jst plan --plan hotfix.json --confirm-hotfix', 'jst plan --plan plan.json --dry-run', 'jst plan --plan plan.json --from-branch release-prep']);

  examples(json(withRole(program.command('start')))
    .description('phase 2, the executor: start work on the issue of this worktree (the key comes from the branch)')
    .argument('[notes...]', 'free-form notes for this piece of work')
    .option('--on-parent', 'confirm starting work on an issue that has sub-tasks (asked on a terminal)')
    .addHelpText('after', '\nRuns inside a worktree made by jst plan, always as the executor (--role executor is accepted, no other role).\nExit codes: 0 started, 1 refused by the tracker or a rule (not assigned to the executor, no transition to STATUS_IN_PROGRESS, a conflict merging the parent branch), 2 not in an issue worktree or a configuration error, 3 an issue with sub-tasks without --on-parent (not on a terminal).\nWith branch.<b>.parentbranch set it fetches origin and merges origin/<parent> first; then runs .jst/bootstrap.sh when present.\n')
    .action(async (notes: string[], o: { json?: boolean; onParent?: boolean }, cmd: Command) => {
      // spec §1 rule 13: phase 2 is the executor's; its account is never chosen by a flag.
      const role = (cmd.optsWithGlobals() as { role?: Role }).role;
      if (role !== undefined && role !== 'executor') throw new CommanderError(EXIT.usage, 'jst.role', `error: jst start always runs as the executor (got --role ${role})`);
      await run(async (ctx) => (await import('./commands/start.js')).start(ctx, { notes, json: o.json, onParent: o.onParent }));
    }),
  ['cd ~/worktrees/worktree-ABC-2 && jst start', 'jst start "begin with the parser; the UI can wait"', 'jst start --json']);

  // ARCHITECTURE §11: phases 2 and 3 act as a fixed role; --role is accepted only when it matches.
  const fixedRole = (cmd: Command, role: Role) => {
    const given = (cmd.optsWithGlobals() as { role?: Role }).role;
    if (given !== undefined && given !== role) throw new CommanderError(EXIT.usage, 'jst.role', `error: jst ${cmd.name()} always runs as the ${role} (got --role ${given})`);
  };
  const phaseHelp = (role: Role, codes: string) => `\nRuns as the ${role} (--role ${role} is accepted, no other role). Each step is printed on stderr.\nExit codes: 0 done, ${codes}\nWith --json an error also prints {"error": {"code", "exitCode", "message"}} on stdout (README "Error codes").\n`;

  examples(json(withRole(program.command('pr-base')))
    .description('the PR base of this issue branch and where it came from: <base>\t<source>')
    .addHelpText('after', phaseHelp('executor', '1 unresolved (what was tried is listed), 2 not in an issue worktree.\nOrder: branch.<b>.parentbranch, the "PR target branch:" comment, the parent\'s branch (a sub-task), DEFAULT_BASE_BRANCH (top-level only).'))
    .action(async (o: { json?: boolean }, cmd: Command) => { fixedRole(cmd, 'executor'); await run(async (ctx) => (await import('./commands/pr-base.js')).prBase(ctx, o)); }),
  ['jst pr-base', 'jst pr-base --json']);

  examples(json(withRole(program.command('note')))
    .description('the executor\'s task memory: a "Task memory" comment on this worktree\'s issue')
    .argument('[text...]', 'the note')
    .option('--body-file <file>', 'read the note from a file')
    .option('--markdown', 'the text is CommonMark, made into ADF nodes (headings, lists, code, tables…); without it it stays literal')
    .addHelpText('after', phaseHelp('executor', '1 the tracker said no, 2 usage or not in an issue worktree.'))
    .action(async (words: string[], o: { bodyFile?: string; markdown?: boolean; json?: boolean }, cmd: Command) => { fixedRole(cmd, 'executor'); await run(async (ctx) => (await import('./commands/note.js')).note(ctx, { words, ...o })); }),
  ['jst note "parser done; the UI still needs the error states"', 'jst note --body-file notes.md --markdown']);

  examples(json(withRole(program.command('pr')))
    .description('push this issue branch, open (or find) its pull request into jst pr-base, move the issue to review, post the Run report')
    .option('--title <text>', 'default: "<KEY>: <summary>"')
    .option('--body-file <file>', 'the pull request body (also added to the Run report)')
    .option('--markdown', 'the text is CommonMark, made into ADF nodes (headings, lists, code, tables…); without it it stays literal')
    .option('--draft', 'open the pull request as a draft')
    .addHelpText('after', phaseHelp('executor', '1 refused (dirty work tree, no commits beyond the base, wrong status) or the tracker / code host said no, 2 usage, configuration (CODEHOST_PAT_TOKEN, CODEHOST_API_URL, CODEHOST_REPO) or not in an issue worktree.\nRerunning finds the open pull request: no second pull request, no second Run report.'))
    .action(async (o: { title?: string; bodyFile?: string; markdown?: boolean; draft?: boolean; json?: boolean }, cmd: Command) => { fixedRole(cmd, 'executor'); await run(async (ctx) => (await import('./commands/pr.js')).pr(ctx, o)); }),
  ['jst pr', 'jst pr --title "ABC-2: CSV serialiser" --body-file pr.md --markdown', 'jst pr --draft --json']);

  examples(json(withRole(program.command('review')))
    .description('the review brief (track, pull requests, your verdicts), or the verdict with --approve / --request-changes')
    .argument('[key]', 'the issue (default: this worktree\'s)')
    .option('--open-parent-pr', 'open the parent\'s pull request once every sub-task pull request is merged')
    .option('--approve', 'verdict: APPROVED — <summary>')
    .option('--request-changes', 'verdict: CHANGES REQUESTED — <summary> (the issue goes back to STATUS_IN_PROGRESS)')
    .option('--summary <text>', 'the verdict\'s one-line summary')
    .option('--body-file <file>', 'the rest of the review')
    .option('--markdown', 'the text is CommonMark, made into ADF nodes (headings, lists, code, tables…); without it it stays literal')
    .addHelpText('after', phaseHelp('reviewer', '1 refused (no open pull request, not in review, sub-task pull requests not merged) or the tracker / code host said no, 2 usage or configuration.\nA rerun with the same verdict posts nothing.'))
    .action(async (key: string | undefined, o: { openParentPr?: boolean; approve?: boolean; requestChanges?: boolean; summary?: string; bodyFile?: string; markdown?: boolean; json?: boolean }, cmd: Command) => {
      fixedRole(cmd, 'reviewer');
      const verdict = o.approve || o.requestChanges || o.summary !== undefined || o.bodyFile !== undefined || o.markdown;
      if (!verdict) { await run(async (ctx) => (await import('./commands/review.js')).reviewBrief(ctx, { key, ...o })); return; }
      if (o.approve && o.requestChanges) throw new CommanderError(EXIT.usage, 'jst.usage', 'error: give one verdict: --approve or --request-changes');
      if (!o.approve && !o.requestChanges) throw new CommanderError(EXIT.usage, 'jst.usage', 'error: --summary, --body-file and --markdown go with a verdict: add --approve or --request-changes');
      if (!key || o.summary === undefined) throw new CommanderError(EXIT.usage, 'jst.usage', 'error: a verdict needs the KEY and --summary S: jst review ABC-2 --approve --summary "…"');
      if (o.openParentPr) throw new CommanderError(EXIT.usage, 'jst.usage', 'error: --open-parent-pr goes with the brief, not with a verdict');
      const summary = o.summary;
      await run(async (ctx) => (await import('./commands/verdict.js')).reviewVerdict(ctx, { key, kind: o.approve ? 'approved' : 'changes-requested', summary, bodyFile: o.bodyFile, markdown: o.markdown, json: o.json }));
    }),
  ['jst review ABC-1', 'jst review ABC-1 --open-parent-pr', 'jst review ABC-2 --approve --summary "Clean, tested"', 'jst review ABC-3 --request-changes --summary "Quote fields with commas" --body-file review.md --markdown']);

  examples(json(withRole(program.command('done')))
    .description('move approved issues from STATUS_IN_REVIEW to STATUS_DONE, each after an explicit yes')
    .argument('<keys...>', 'the issues')
    .option('--yes <key...>', 'the explicit yes for each key (required when not on a terminal)')
    .addHelpText('after', phaseHelp('reviewer', '1 refused (not in review, no APPROVED verdict, a key declined on the prompt) or the tracker said no, 2 usage, 3 a yes is missing (not on a terminal): nothing moved.\nAn issue already done is left as it is (success).'))
    .action(async (keys: string[], o: { yes?: string[]; json?: boolean }, cmd: Command) => { fixedRole(cmd, 'reviewer'); await run(async (ctx) => (await import('./commands/done.js')).done(ctx, { keys, ...o })); }),
  ['jst done ABC-2 --yes ABC-2', 'jst done ABC-2 ABC-3 --yes ABC-2 ABC-3', 'jst done ABC-2   # asks on a terminal']);

  examples(withRole(program.command('mcp'))
    .description('serve the role\'s tools to a coding agent: a Model Context Protocol server on stdio (ARCHITECTURE §13)')
    .addHelpText('after', '\nTools: every role healthcheck, issue_view, search; assigner plan, plan_dry_run; executor start, note, pr_base, pr;\nreviewer review_brief, review_verdict, done.\nEach calls the same code as the command of that name; a refusal is a tool result with isError.\nCredentials: the role\'s own from .jst/ (found from the folder the server starts in), as for every command.\nExit codes: 0 when the client closes stdin, 2 an unknown or missing --role.\n')
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
    const raw = messageFor(e);
    const text = ctx ? ctx.redact(raw) : raw;
    process.stderr.write(`jst: ${text}\n`);
    // ARCHITECTURE §11: every error of a --json run also says, on stdout, what kind of no it was.
    if (argv.includes('--json')) process.stdout.write(jsonError(e, text));
    return exitCodeFor(e);
  } finally {
    ctx?.close();
  }
  return code;
}

