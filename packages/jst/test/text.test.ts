import { describe, expect, it } from 'vitest';
import { emit, errorLine, line } from '../src/core/output.js';
import { cutText, ERROR_MAX, QUOTE_MAX, quoted, terminalText } from '../src/core/text.js';

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

  it('on a colour terminal keeps only the colour sequences jst paints; a title, a screen clear or a hidden text are removed', () => {
    expect(terminalText('\u001b[1mKEY\u001b[0m \u001b[2;33mdim\u001b[22;39m', true)).toBe('\u001b[1mKEY\u001b[0m \u001b[2;33mdim\u001b[22;39m');
    expect(terminalText('a\u001b]0;t\u0007\u001b[2J\u001b[8mhidden\u001b[1;5m', true)).toBe('a]0;t[2J[8mhidden[1;5m');
    expect(terminalText('\u001b[m', true)).toBe('\u001b[m');
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
