import { readFileSync } from 'node:fs';
import { JstError } from '../config/index.js';
import type { Io } from '../core/context.js';

export async function readStdin(io: Io): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of io.stdin) chunks.push(typeof c === 'string' ? Buffer.from(c) : c);
  return Buffer.concat(chunks).toString('utf8');
}

export function readFileArg(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new JstError({
      code: 'USAGE',
      problem: `cannot read ${what} file ${file} (${(e as NodeJS.ErrnoException).code ?? String(e)})`,
      hint: 'Check the path',
    });
  }
}

/** A BODY argument: a JSON string, `@file`, or `-` for standard input (ARCHITECTURE §3). */
export async function readBody(io: Io, arg: string): Promise<unknown> {
  const text = arg === '-' ? await readStdin(io) : arg.startsWith('@') ? readFileArg(arg.slice(1), 'BODY') : arg;
  try {
    return JSON.parse(text);
  } catch (e) {
    const from = arg === '-' ? 'standard input' : arg.startsWith('@') ? arg.slice(1) : 'the BODY argument';
    throw new JstError({
      code: 'USAGE',
      problem: `the body from ${from} is not valid JSON: ${(e as Error).message}`,
      hint: 'Pass a JSON object, @file or - (stdin)',
    });
  }
}
