import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GitCommandError } from './errors.js';
import { minimalGitEnv, noteGitProcess } from './run.js';

/**
 * A merge's git work in one conversation per repository (ARCHITECTURE §14 "its writes from one git
 * conversation"): long-lived git processes that answer line by line, `git cat-file --batch-check`
 * (what an object name is: its id and type, or missing), `git hash-object -t commit -w
 * --stdin-paths` (writes a commit object from a file's text, checking its format, and answers its
 * id) and `git update-ref --stdin` (publishes the branch in a transaction: git's compare-and-set
 * under the ref's lock, one reflog entry per merge). A merge whose tree is known starts no process.
 *
 * Bounded: at most CONVERSATION_REPOS repositories hold processes (the least recently used are
 * ended first), a process ends after CONVERSATION_IDLE_MS unused, a question unanswered in its
 * time limit ends the process (the next question starts a new one), and an answer line is at most
 * ANSWER_LINE_MAX bytes. A process that exits answers every question waiting as a GitCommandError.
 */

/** Repositories that keep their two processes at once (least recently used ended first). */
export const CONVERSATION_REPOS = 4;
/** A conversation unused this long is ended (git exits on the end of its input). */
export const CONVERSATION_IDLE_MS = 30_000;
/** How long a question waits for its answer (a lookup or a commit's write takes milliseconds). */
export const CONVERSATION_ANSWER_MS = 10_000;
/** No answer line of these commands is longer; a longer one ends the process. */
const ANSWER_LINE_MAX = 4096;

/** Whether git started with these arguments is one of a conversation's long-lived processes (tests and the benchmark tell them apart). */
export function isConversationProcess(args: readonly string[]): boolean {
  return (
    (args[0] === 'cat-file' && args.includes('--batch-check')) ||
    (args[0] === 'hash-object' && args.includes('--stdin-paths')) ||
    (args[0] === 'update-ref' && args.includes('--stdin'))
  );
}

/** One long-lived git process: a line in, a line out, in order. */
export class LineProcess {
  private child: ChildProcessWithoutNullStreams | null = null;
  private readonly waiting: Array<{ resolve(line: string): void; reject(e: Error): void }> = [];
  private buffered = '';
  private stderr = '';
  private idle: NodeJS.Timeout | null = null;
  private turn: Promise<unknown> = Promise.resolve();
  private retiring = false;

  constructor(
    private readonly gitDir: string,
    private readonly args: readonly string[],
    private readonly timeoutMs: number,
    private readonly idleMs: number,
    private readonly serial = false,
  ) {}

  /** The process's id while it runs (tests). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /**
   * The answer lines to these lines (one per line, or `answers` of them), in order. Lines must not
   * hold a line break or NUL. A serial process takes one question at a time (a failed question
   * ends it: the next one must not be lost with it).
   */
  ask(lines: readonly string[], answers = lines.length): Promise<string[]> {
    for (const line of lines) if (/[\n\r\0]/.test(line)) return Promise.reject(new Error(`A line for git ${this.args[0]} may not hold a line break or NUL.`));
    if (!this.serial) return this.put(lines, answers);
    const turn = this.turn.then(() => this.put(lines, answers));
    this.turn = turn.catch(() => undefined);
    return turn;
  }

  private put(lines: readonly string[], count: number): Promise<string[]> {
    if (lines.length === 0) return Promise.resolve([]);
    const child = this.running();
    if (this.idle !== null) clearTimeout(this.idle);
    this.idle = null;
    hold(child, true);
    const answers = Array.from(
      { length: count },
      () =>
        new Promise<string>((resolve, reject) => {
          this.waiting.push({ resolve, reject });
        }),
    );
    const timer = setTimeout(
      () => this.end(child, new GitCommandError(`${this.args[0]} (no answer in ${this.timeoutMs} ms)`, null, this.stderr)),
      this.timeoutMs,
    );
    child.stdin.write(`${lines.join('\n')}\n`);
    return Promise.all(answers).finally(() => {
      clearTimeout(timer);
      if (this.waiting.length === 0 && this.child === child && this.retiring) this.close();
      else if (this.waiting.length === 0 && this.child === child) {
        // Unused, it keeps no program alive (a script that merged and is done exits; git then ends on EOF).
        hold(child, false);
        this.idle = setTimeout(() => this.close(), this.idleMs);
        this.idle.unref();
      }
    });
  }

  /**
   * Ends the process once the questions it holds are answered (now when it holds none): the cap on
   * repositories never cuts a merge short. A later question starts a new process.
   */
  retire(): void {
    if (this.waiting.length === 0) this.close();
    else this.retiring = true;
  }

  /** Ends the process (git exits at the end of its input); questions waiting are refused. */
  close(): void {
    this.retiring = false;
    if (this.idle !== null) clearTimeout(this.idle);
    this.idle = null;
    const child = this.child;
    if (child === null) return;
    this.child = null;
    child.stdin.end();
    this.fail(new GitCommandError(`${this.args[0]} (ended)`, null, ''));
  }

  private running(): ChildProcessWithoutNullStreams {
    if (this.child !== null) return this.child;
    noteGitProcess(this.args);
    // GIT_FLUSH: each answer leaves git as it is written, not when a buffer fills.
    const child = spawn('git', [`--git-dir=${this.gitDir}`, ...this.args], { env: minimalGitEnv({ GIT_FLUSH: '1' }), stdio: ['pipe', 'pipe', 'pipe'] });
    this.child = child;
    this.buffered = '';
    this.stderr = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (this.child !== child) return;
      this.buffered += chunk;
      let nl: number;
      while ((nl = this.buffered.indexOf('\n')) >= 0) {
        const line = this.buffered.slice(0, nl);
        this.buffered = this.buffered.slice(nl + 1);
        const next = this.waiting.shift();
        if (next === undefined) return this.end(child, new GitCommandError(`${this.args[0]} (an answer nobody asked for)`, null, this.stderr));
        next.resolve(line);
      }
      if (this.buffered.length > ANSWER_LINE_MAX)
        this.end(child, new GitCommandError(`${this.args[0]} (an answer line over ${ANSWER_LINE_MAX} bytes)`, null, this.stderr));
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (this.stderr.length < 16_384) this.stderr += chunk.toString('utf8');
    });
    child.stdin.on('error', () => {
      /* git exited; its close tells */
    });
    child.on('error', (e) => this.end(child, e));
    child.on('close', (code) => {
      if (this.child === child) this.end(child, new GitCommandError(this.args[0] ?? '', code, this.stderr));
    });
    return child;
  }

  /** This process is done: killed if it still runs, every question waiting refused with `e`. */
  private end(child: ChildProcessWithoutNullStreams, e: Error): void {
    if (this.child === child) {
      this.child = null;
      // SIGTERM first: git removes the lock files it holds (a transaction's ref lock) as it dies.
      child.kill('SIGTERM');
      setTimeout(() => child.exitCode === null && child.signalCode === null && child.kill('SIGKILL'), 2000).unref();
    }
    this.fail(e);
  }

  private fail(e: Error): void {
    for (const w of this.waiting.splice(0)) w.reject(e);
  }
}

/** Whether the process and its pipes keep Node.js's event loop alive: while a question waits, and only then. */
function hold(child: ChildProcessWithoutNullStreams, on: boolean): void {
  for (const handle of [child, child.stdin, child.stdout, child.stderr] as Array<{ ref(): void; unref(): void }>) {
    if (on) handle.ref();
    else handle.unref();
  }
}

/** An object as `cat-file --batch-check` names it, or null when the name is of no object. */
export interface ObjectInfo {
  oid: string;
  type: string;
}

/** What a merge asks of a repository's objects and branches (git/merge.ts, git/repos.ts), over its conversation. */
export interface GitObjects {
  /** Each name's object (a full id, or `<id>^{tree}`), or null when there is none. */
  lookup(names: readonly string[]): Promise<Array<ObjectInfo | null>>;
  /** Writes a commit object of this text (git checks its format) and answers its id. */
  writeCommit(text: string): Promise<string>;
}

/** A repository's processes: the two that read and write objects, and one `update-ref --stdin` per reflog message. */
interface RepoProcesses {
  catFile: LineProcess;
  hashObject: LineProcess;
  publishers: Map<string, LineProcess>;
}

const allOf = (r: RepoProcesses) => [r.catFile, r.hashObject, ...r.publishers.values()];

/** The conversations of the repositories under one root: a GitObjects per repository folder. */
export class Conversations {
  private readonly repos = new Map<string, RepoProcesses>();
  private scratch: string | null = null;
  private written = 0;

  /**
   * `timeoutMs`: how long a lookup or a commit's write may take; `publishMs`: a transaction, which
   * may wait for the ref's lock (a process stopped inside one would leave the lock behind, so it
   * gets the time any other git command of the repositories gets).
   */
  constructor(
    private readonly timeoutMs: number,
    private readonly idleMs = CONVERSATION_IDLE_MS,
    private readonly maxRepos = CONVERSATION_REPOS,
    private readonly publishMs = timeoutMs,
  ) {}

  /** The folder commits' texts pass through on their way to hash-object (null until the first). */
  get scratchDir(): string | null {
    return this.scratch;
  }

  /** The objects of the repository at `gitDir` (its processes start at the first question). */
  objects(gitDir: string): GitObjects {
    return {
      lookup: (names) => this.lookup(gitDir, names),
      writeCommit: (text) => this.writeCommit(gitDir, text),
    };
  }

  /**
   * Moves `ref` from `old` to `next` in one transaction of the repository's `git update-ref
   * --stdin` (`start`, `update <ref> <new> <old>`, `commit`): git's compare-and-set under the ref's
   * lock, its reflog entry carrying `message` (one process per message). A ref no longer at `old`
   * is git's own GitCommandError ("cannot lock ref …: is at … but expected …"), and that process
   * ends with it; the next transaction starts another.
   */
  async publish(gitDir: string, message: string, ref: string, next: string, old: string): Promise<void> {
    const r = this.processesOf(gitDir);
    let publisher = r.publishers.get(message);
    if (publisher === undefined) {
      publisher = new LineProcess(gitDir, ['update-ref', '-m', message, '--stdin'], this.publishMs, this.idleMs, true);
      r.publishers.set(message, publisher);
    }
    const answers = await publisher.ask(['start', `update ${ref} ${next} ${old}`, 'commit'], 2);
    if (answers[0] !== 'start: ok' || answers[1] !== 'commit: ok') {
      publisher.close();
      throw new GitCommandError('update-ref', null, `unexpected answers: ${JSON.stringify(answers).slice(0, 200)}`);
    }
  }

  /** Ends every process and removes the scratch folder (the server's close). */
  close(): void {
    for (const r of this.repos.values()) for (const p of allOf(r)) p.close();
    this.repos.clear();
    if (this.scratch !== null) rmSync(this.scratch, { recursive: true, force: true });
    this.scratch = null;
  }

  /** The processes of a repository; the least recently used repository's end past maxRepos. */
  processesOf(gitDir: string): RepoProcesses {
    let r = this.repos.get(gitDir);
    if (r) this.repos.delete(gitDir);
    else {
      r = {
        catFile: new LineProcess(gitDir, ['cat-file', '--batch-check'], this.timeoutMs, this.idleMs),
        hashObject: new LineProcess(gitDir, ['hash-object', '-t', 'commit', '-w', '--stdin-paths', '--no-filters'], this.timeoutMs, this.idleMs),
        publishers: new Map(),
      };
      if (this.repos.size >= this.maxRepos) {
        const [oldest, o] = this.repos.entries().next().value!;
        this.repos.delete(oldest);
        for (const p of allOf(o)) p.retire();
      }
    }
    this.repos.set(gitDir, r);
    return r;
  }

  private async lookup(gitDir: string, names: readonly string[]): Promise<Array<ObjectInfo | null>> {
    const first = await this.processesOf(gitDir).catFile.ask(names);
    if (!first.some((line) => / missing$/.test(line))) return first.map(parseCheck);
    // A missing answer from a process started before the object came (a repository made again in
    // the same folder, packs renamed under it) is asked again of a new process before it counts;
    // the kept one goes on answering the other merges' questions.
    const once = new LineProcess(gitDir, ['cat-file', '--batch-check'], this.timeoutMs, this.idleMs);
    try {
      return (await once.ask(names)).map(parseCheck);
    } finally {
      once.close();
    }
  }

  private async writeCommit(gitDir: string, text: string): Promise<string> {
    this.scratch ??= mkdtempSync(join(tmpdir(), 'jst-tracker-objects-'));
    const file = join(this.scratch, `${process.pid}-${++this.written}.commit`);
    writeFileSync(file, text, { mode: 0o600 });
    try {
      const [oid] = await this.processesOf(gitDir).hashObject.ask([file]);
      if (oid === undefined || !/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(oid))
        throw new GitCommandError('hash-object', null, `an answer that is not an object id: ${JSON.stringify(oid?.slice(0, 80))}`);
      return oid;
    } finally {
      rmSync(file, { force: true });
    }
  }
}

/** `<oid> <type> <size>`, or `<name> missing` / `<name> ambiguous` (null). */
function parseCheck(line: string): ObjectInfo | null {
  const m = /^([0-9a-f]{40}|[0-9a-f]{64}) (\w+) \d+$/.exec(line);
  return m ? { oid: m[1]!, type: m[2]! } : null;
}
