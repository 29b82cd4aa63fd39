import { readFileSync } from 'node:fs';
import { JstError } from '../core/errors.js';
import { isSettingName } from '../core/settings.js';

/** One `NAME=value` setting read from an environment-style file. */
export interface EnvEntry {
  name: string;
  value: string;
  /** 1-based line number, so messages can say `file:line`. */
  line: number;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;
const DOUBLE_QUOTE_ESCAPES: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\' };

/**
 * Parses the text of a `.jst/*.env` file (ARCHITECTURE §10: `NAME=value` lines, `#` comments,
 * optional quotes and `export` prefix). Nothing is expanded: `$HOME` stays `$HOME`, because the
 * same files are read by shell ports of the client and a value must mean one thing everywhere.
 * `file` is used only to name the file in errors.
 */
export function parseEnvFile(text: string, file: string): EnvEntry[] {
  const entries: EnvEntry[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = index + 1;
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    entries.push(parseLine(trimmed, file, line));
  });
  return entries;
}

/** Reads and parses a file; `null` when it does not exist (each file is optional at load time). */
export function readEnvFile(file: string): EnvEntry[] | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (isErrno(error, 'ENOENT') || isErrno(error, 'ENOTDIR')) return null;
    throw new JstError({
      code: 'CONFIG_UNREADABLE',
      problem: `cannot read ${file} (${errnoCode(error)})`,
      hint: 'Check that the file is readable by you',
      file,
      cause: error,
    });
  }
  return parseEnvFile(text, file);
}

function parseLine(text: string, file: string, line: number): EnvEntry {
  // Error messages quote the setting name at most, never the line: the line may hold a token.
  const fail = (problem: string, setting?: string): never => {
    throw new JstError({
      code: 'CONFIG_SYNTAX',
      problem: `${file}:${line}: ${problem}`,
      hint: 'Write each setting as NAME=value on its own line, or start the line with # to comment it out',
      file,
      line,
      setting,
    });
  };
  const body = text.replace(/^export\s+/, '');
  const name = NAME.exec(body)?.[0];
  if (name === undefined) return fail('line is not a NAME=value setting (a name starts with a letter or _)');
  const rest = body.slice(name.length).trimStart();
  if (!rest.startsWith('=')) {
    // A token pasted on a line of its own reads as a name here: only a known setting's name is quoted.
    return isSettingName(name)
      ? fail(`${name} is not followed by = (expected NAME=value)`, name)
      : fail('the line starts with a word that is not followed by = and is not a setting name (not shown: it may be a token); expected NAME=value');
  }
  const afterEquals = rest.slice(1);
  const valueText = afterEquals.trimStart();
  const quote = valueText[0];
  if (quote === "'" || quote === '"') {
    const { value, end } = quote === "'" ? readSingle(valueText) : readDouble(valueText);
    if (end < 0) return fail(`the ${quote === "'" ? 'single' : 'double'} quote opened in the value of ${name} is not closed on the same line`, name);
    const tail = valueText.slice(end + 1);
    // Only a comment may follow the closing quote; anything else means the quoting is not what the author meant.
    if (tail.trim() !== '' && !/^\s+#/.test(tail)) return fail(`unexpected text after the closing quote of ${name}`, name);
    return { name, value, line };
  }
  // A `#` starts a comment only after whitespace, so `a#b` (common in tokens and URLs) stays intact.
  const hadGap = afterEquals.length !== valueText.length;
  const commentAt = hadGap && valueText.startsWith('#') ? 0 : valueText.search(/\s#/);
  const value = (commentAt < 0 ? valueText : valueText.slice(0, commentAt)).trimEnd();
  return { name, value, line };
}

function readSingle(text: string): { value: string; end: number } {
  const end = text.indexOf("'", 1);
  return { value: end < 0 ? '' : text.slice(1, end), end };
}

function readDouble(text: string): { value: string; end: number } {
  let value = '';
  for (let i = 1; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === '"') return { value, end: i };
    if (ch === '\\' && i + 1 < text.length) {
      const next = text[i + 1] as string;
      // Unknown escapes keep their backslash, so Windows paths like "C:\work" survive unchanged.
      value += DOUBLE_QUOTE_ESCAPES[next] ?? `\\${next}`;
      i++;
      continue;
    }
    value += ch;
  }
  return { value, end: -1 };
}

/** One line to write: a setting, optionally preceded by comment lines; or a bare comment/blank line. */
export type EnvLine = { name: string; value: string; comment?: string | undefined } | { comment: string } | { blank: true };

/** Quotes a value only when it would not read back unchanged (or would be unsafe to `source` in a shell). */
export function formatEnvValue(value: string): string {
  if (/^[A-Za-z0-9_@%+=:,./~-]*$/.test(value) && !value.startsWith('~')) return value;
  // Single quotes are literal in both this parser and POSIX shells; use them whenever they can hold the value.
  if (!/['\r\n]/.test(value)) return `'${value}'`;
  return `"${value.replace(/[\\"\n\r\t]/g, (c) => `\\${c === '\n' ? 'n' : c === '\r' ? 'r' : c === '\t' ? 't' : c}`)}"`;
}

/** Writes lines in the format `parseEnvFile` reads; `parseEnvFile(serializeEnvFile(x))` gives back the values. */
export function serializeEnvFile(lines: readonly EnvLine[]): string {
  const out: string[] = [];
  for (const item of lines) {
    if ('blank' in item) {
      out.push('');
      continue;
    }
    if (item.comment !== undefined) out.push(...item.comment.split('\n').map((c) => (c === '' ? '#' : `# ${c}`)));
    if (!('name' in item)) continue;
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(item.name)) {
      throw new JstError({ code: 'CONFIG_NAME', problem: `"${item.name}" is not a valid setting name`, hint: 'Use letters, digits and _', setting: item.name });
    }
    out.push(`${item.name}=${formatEnvValue(item.value)}`);
  }
  return `${out.join('\n')}\n`;
}

function isErrno(error: unknown, code: string): boolean {
  return errnoCode(error) === code;
}

function errnoCode(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'unknown error';
}
