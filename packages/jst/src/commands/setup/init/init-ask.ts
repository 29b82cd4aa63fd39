import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { describeSource, joinSentences, loadConfig, validateConfig, type SettingName } from '../../../config/index.js';
import type { Io } from '../../../core/context.js';
import { cancelledError, EXIT } from '../../../core/errors.js';
import { JstError } from '../../../config/index.js';

export interface Asker {
  /** One line; a secret is not echoed (a terminal shows nothing as it is typed). */
  question(prompt: string, secret: boolean): Promise<string>;
  close(): void;
}

/**
 * The terminal side of `jst init`: one readline over stdin whose echo can be switched off for a
 * token (issue 14 item 7), Ctrl-C as a cancel (exit 130), input that ends as an open question (3).
 */
export function terminalAsker(io: Io): Asker {
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer, _enc, done) {
      if (!muted) io.stderr.write(chunk.toString());
      done();
    },
  });
  const rl = createInterface({ input: io.stdin, output, terminal: Boolean(io.stdin.isTTY) });
  let pending: { reject: (e: Error) => void; prompt: string } | undefined;
  const fail = (e: (p: string) => Error) => {
    const p = pending;
    pending = undefined;
    muted = false;
    p?.reject(e(p.prompt.trim()));
  };
  rl.on('SIGINT', () => {
    io.stderr.write('\n');
    fail((q) => cancelledError(q, 'Nothing was written; run jst init again when ready'));
  });
  rl.on('close', () =>
    fail(
      (q) =>
        new JstError({
          code: 'QUESTION',
          exitCode: EXIT.question,
          problem: `a question needs an answer: ${q}`,
          hint: 'The input ended before the question was answered',
        }),
    ),
  );
  return {
    question(prompt, secret) {
      return new Promise((resolve, reject) => {
        pending = { reject, prompt };
        const done = (answer: string) => {
          pending = undefined;
          if (secret) {
            muted = false;
            io.stderr.write('\n');
          }
          resolve(answer.trim());
        };
        if (!secret) {
          rl.question(prompt, done);
          return;
        }
        io.stderr.write(prompt);
        muted = true;
        rl.question('', done);
      });
    },
    close: () => rl.close(),
  };
}

/**
 * What is wrong with one value typed for `name`, checked by the same rules as the healthcheck's
 * env_config row (validateConfig), given the values typed before it; null = fine. An empty value
 * is left for later, never a problem here.
 */
export function problemWith(name: SettingName, value: string, earlier: Readonly<Record<string, string>>, cwd: string): string | null {
  if (value === '') return null;
  const config = loadConfig({ cwd, env: { ...earlier, [name]: value } });
  const found = validateConfig(config).find((p) => p.setting === name && p.code !== 'CONFIG_MISSING');
  if (found === undefined) return null;
  // The value was typed just now, not read from "the environment" the check assumed.
  const message = found.message.replace(` (from ${describeSource({ kind: 'environment' })})`, '');
  return joinSentences(message, found.fix);
}
