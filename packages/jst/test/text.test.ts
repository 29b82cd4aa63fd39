import { describe, expect, it } from 'vitest';
import { emit, errorLine, line } from '../src/core/output.js';
import { bold, red } from '../src/core/output.js';
import { documentText } from '../src/phase/document.js';
import { colourMark, cutText, ERROR_MAX, jsonText, QUOTE_MAX, quoted, terminalText } from '../src/core/text.js';

const captured = (color: boolean) => {
  let out = '';
  return {
    io: {
      stdout: {
        write: (t: string) => {
          out += t;
        },
      },
      stderr: { write: () => undefined },
      stdin: process.stdin,
      color,
      interactive: false,
    },
    out: () => out,
  };
};

describe('ARCHITECTURE §11: text from the code host or the tracker is shown without control characters, and an error quotes a bounded part of it', () => {
  it('removes C0 (but newline and tab), DEL, C1 and the bidirectional overrides; an escape sequence shows as plain text', () => {
    expect(terminalText('a\u001b]0;pwned\u0007\u001b[2Jb')).toBe('a]0;pwned[2Jb');
    expect(terminalText('x\r\ny\tz\u0000\u007f\u009b31m\u202ee\u2066f')).toBe('x\ny\tz31mef');
    expect(terminalText('plain — text ✓')).toBe('plain — text ✓');
  });

  it("on a colour terminal the only escape sequences are jst's own colours: every sequence in the text, even a colour, is removed", () => {
    expect(terminalText(`${colourMark('1')}KEY${colourMark('0')} ${colourMark('2;33')}dim${colourMark('22;39')}`, true)).toBe(
      '\u001b[1mKEY\u001b[0m \u001b[2;33mdim\u001b[22;39m',
    );
    expect(terminalText(`${colourMark('1')}KEY${colourMark('0')}`, false)).toBe('KEY');
    expect(terminalText('\u001b[1mKEY\u001b[0m \u001b[31mred\u001b[39m', true)).toBe('[1mKEY[0m [31mred[39m');
    expect(terminalText('a\u001b]0;t\u0007\u001b[2J\u001b[8mhidden\u009b31m\u202eb\u2066c\u2069', true)).toBe('a]0;t[2J[8mhidden31mbc');
    // A mark is eight private-use characters drawn at random per process: one written by a server is text.
    expect(terminalText('\ue000\ue001\ue002\ue003\ue004\ue005\ue006\ue00731mX', true)).toBe('\ue000\ue001\ue002\ue003\ue004\ue005\ue006\ue00731mX');
    const io = captured(true).io;
    expect(terminalText(`${bold(io, 'ABC-1')} ${red(io, 'x')}`, true)).toBe('\u001b[1mABC-1\u001b[0m \u001b[31mx\u001b[0m');
  });

  it("a document on a colour terminal: the renderer's colours are shown, the document's own sequences are not", () => {
    const io = { ...captured(true).io, stdout: { write: () => undefined, columns: 80 } };
    const doc = {
      type: 'doc',
      version: 1,
      content: [{ type: 'paragraph', content: [{ type: 'text', text: 'go\u001b[31m\u009b32mred\u202e', marks: [{ type: 'strong' }] }] }],
    };
    const shown = terminalText(documentText(io, doc), true);
    expect(shown).toBe('\u001b[1mgo[31m32mred\u001b[22m');
  });

  it('--json escapes DEL, C1 and the bidirectional controls as JSON escapes (C0 JSON escapes itself), and parses back to the same text', () => {
    const value = { s: 'a\u001b[2J\u007f\u0085\u009b31m\u202ex\u2066y\u2069 ✓' };
    const text = jsonText(value);
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(text).toContain('\\u001b[2J\\u007f\\u0085\\u009b31m\\u202ex\\u2066y\\u2069 ✓');
    expect(JSON.parse(text)).toEqual(value);
    const j = captured(false);
    emit(j.io, { json: value, text: '', code: 0 }, true);
    expect(j.out()).toBe(`${text}\n`);
  });

  it('cuts at QUOTE_MAX characters saying how many were left out, never inside a surrogate pair', () => {
    expect(QUOTE_MAX).toBe(300);
    expect(cutText('x'.repeat(300))).toBe('x'.repeat(300));
    expect(cutText('x'.repeat(301))).toBe(`${'x'.repeat(300)}… (1 more characters)`);
    const emoji = `${'x'.repeat(299)}😀tail`;
    expect(cutText(emoji)).toBe(`${'x'.repeat(299)}… (6 more characters)`);
    expect(quoted(`line one\n  line two\u001b[2J ${'y'.repeat(1000)}`)).toMatch(/^line one line two\[2J y+… \(\d+ more characters\)$/);
  });

  it('the printers apply it: text mode and error lines are clean; --json stays JSON, whose escapes keep the text', () => {
    const t = captured(false);
    emit(t.io, { json: { s: 'a\u001b[2J' }, text: 'a\u001b[2J\n', code: 0 }, false);
    line(t.io, 'b\u0007');
    expect(t.out()).toBe('a[2J\nb\n');
    const j = captured(false);
    emit(j.io, { json: { s: 'a\u001b[2J' }, text: '', code: 0 }, true);
    expect(j.out()).not.toMatch(/\u001b/);
    expect(JSON.parse(j.out())).toEqual({ s: 'a\u001b[2J' });
    const err = errorLine(`bad\u001b]0;x\u0007 ${'z'.repeat(5000)}`);
    expect(err).toMatch(/^jst: bad\]0;x z+… \(\d+ more characters\)\n$/);
    expect(err.length).toBeLessThan(ERROR_MAX + 40);
  });
});
