// Worst cases for Markdown → ADF: CommonMark's pathological inputs (cmark's test/pathological_tests.py),
// the bombs of the hardening round, and inputs built to sit just inside each MARKDOWN_LIMITS bound.
// Each case runs in a child process with a deadline; prints the CPU and wall time of markdownToAdf
// and whether it converted or which limit refused it. Run: npm run build && node bench/markdown.mjs [filter]
// RAW=1 times micromark alone (no pre-scan), to see what a case would cost without the limits.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MARKDOWN_LIMITS } from '../packages/adf/dist/index.js';

const N = 32_000;
const r = (s, n) => s.repeat(Math.max(0, Math.floor(n)));
const fill = (s) => s + r('x ', (N - s.length) / 2);
const fillEnd = (s) => r('x ', (N - s.length) / 2) + s;
const lines = (n, s) => r(s + 'x'.repeat(Math.max(0, Math.floor(N / n) - s.length - 1)) + '\n', n);
const K = MARKDOWN_LIMITS.maxMarkupPerBlock;
const LINES = MARKDOWN_LIMITS.maxLines;
export const cases = {
  // The bombs.
  'star bomb: 16383 * a 16383 *': () => r('*', 16383) + 'a' + r('*', 16383),
  'brackets: 16000 [': () => r('[', 16000),
  'brackets: 16000 [ then ]': () => r('[', 16000) + r(']', 16000),
  // cmark's pathological tests at ~32 K characters.
  'nested strong emph': () => r('*a **a ', N / 14) + 'b' + r(' a** a*', N / 14),
  'many emph closers no openers': () => r('a_ ', N / 3),
  'many emph openers no closers': () => r('_a ', N / 3),
  'many link closers no openers': () => r('a]', N / 2),
  'many link openers no closers': () => r('[a', N / 2),
  'mismatched openers and closers': () => r('*a_ ', N / 4),
  'openers and closers multiple of 3': () => 'a**b' + r('c* ', N / 3),
  'link openers and emph closers': () => r('[ a_', N / 4),
  'pattern [ (](': () => r('[ (](', N / 5),
  'nested brackets': () => r('[', N / 2 - 1) + 'a' + r(']', N / 2 - 1),
  'nested block quotes': () => r('> ', N / 2) + 'a',
  'deeply nested lists': () => Array.from({ length: 1000 }, (_, i) => '  '.repeat(i) + '* a\n').join(''),
  'U+0000': () => r('abc\u0000de\u0000', N / 7),
  backticks: () => Array.from({ length: 250 }, (_, i) => 'e' + r('`', i + 1)).join(''),
  'unclosed links A': () => r('[a](<b', N / 6),
  'unclosed links B': () => r('[a](b', N / 5),
  'unclosed <': () => r('<', N),
  'tables: many columns': () => r('|', N / 2 - 2) + '\n' + r('|-', N / 4 - 2) + '\n',
  'tilde doubles nested': () => r('~~a ', N / 8) + r(' a~~', N / 8),
  'emph in links': () => r('[*a', N / 3) + r(']*', N / 3),
  'setext headings': () => r('a\n=\n\n', N / 5),
  'list lazy lines': () => '- a\n' + r('b\n', N / 2),
  'lines: 16000': () => r('a\n', N / 2),
  'CR line ends, deep quotes': () => 'a\r' + r('> ', 5000) + 'b',
  'inline <!-- unclosed': () => 'x' + r('<!--', N / 4),
  'inline <? unclosed': () => 'x' + r('<?', N / 2),
  // Just inside the limits.
  'inside: inline <? in one paragraph': () => fill('x' + r('<?', MARKDOWN_LIMITS.maxHtmlPerBlock)),
  'inside: inline <!-- in one paragraph': () => fill('x' + r('<!--', MARKDOWN_LIMITS.maxHtmlPerBlock)),
  'inside: inline <!A in one paragraph': () => fill('x' + r('<!A ', MARKDOWN_LIMITS.maxHtmlPerBlock)),
  'inside: mismatched *a_ in one paragraph': () => fillEnd(r('*a_ ', K / 2 - 1)),
  'inside: emph closers in one paragraph': () => fillEnd(r('a_ ', K - 1)),
  'inside: link closers in one paragraph': () => fillEnd(r('a]', K - 1)),
  'inside: nested strong emph': () => fill(r('*a **a ', K / 4 - 1) + 'b' + r(' a** a*', K / 4 - 1)),
  'inside: nested brackets': () => fill(r('[', K / 2 - 1) + 'a' + r(']', K / 2 - 1)),
  'inside: tilde doubles nested': () => fill(r('~~a ', K / 2 - 1) + r(' a~~', K / 2 - 1)),
  'inside: runs of 100 * paired': () => r(r('*', 100) + 'a' + r('*', 100) + '\n\n', N / 203),
  'inside: mismatched, many paragraphs': () => r(r('*a_ ', K / 2 - 1) + '\n\n', N / (2 * K)),
  'inside: maxLines list items': () => lines(LINES, '- a'),
  'inside: maxLines nested list items': () => r(Array.from({ length: 10 }, (_, i) => '  '.repeat(i) + '- a\n').join(''), LINES / 10),
  'inside: list with maxLines lazy lines': () => '- a\n' + lines(LINES - 1, 'b'),
  'inside: quote with lazy lines': () => r('> a\nb\n', LINES / 2),
  'inside: setext headings': () => r('a\n=\n\n', LINES / 3),
  'inside: maxLines table rows': () => 'a|b\n-|-\n' + lines(LINES - 2, 'c|d'),
  'inside: table of maxTableCells cells, 16 columns': () => {
    const c = 16;
    return 'a|'.repeat(c - 1) + 'a\n' + '-|'.repeat(c - 1) + '-\n' + r('b|'.repeat(c - 1) + 'b\n', MARKDOWN_LIMITS.maxTableCells / c - 2);
  },
  'inside: table of maxLines rows, 2 columns': () => 'a|b\n-|-\n' + r('b|c\n', Math.min(LINES, N / 4) - 2),
  'inside: maxLines definitions': () => lines(LINES, '[a]: u'),
  'inside: fenced code of 16000 lines': () => '```\n' + r('a\n', N / 2 - 4) + '```\n',
  'quotes 20 deep, a paragraph each': () => r(r('>', 20) + ' a\n\n', N / 24),
  'inside: quotes 99 deep on every line': () => r(r('>', 99) + ' a\n', MARKDOWN_LIMITS.maxContainerMarkers / 99),
  'inside: quotes 99 deep, a paragraph each': () => r(r('>', 99) + ' a\n\n', MARKDOWN_LIMITS.maxContainerMarkers / 99),
  'inside: quotes 20 deep, a paragraph each': () => r(r('>', 20) + ' a\n\n', MARKDOWN_LIMITS.maxContainerMarkers / 20),
  'inside: quotes 5 deep, a paragraph each': () => r(r('>', 5) + ' a\n\n', Math.min(LINES, MARKDOWN_LIMITS.maxContainerMarkers / 5)),
  'inside: lists 49 deep, repeated': () => r(Array.from({ length: 49 }, (_, i) => '  '.repeat(i) + '- a\n').join(''), N / 2550),
  'inside: 5 list markers a line, a paragraph each': () => r('- - - - - a\n\n', Math.min(LINES, MARKDOWN_LIMITS.maxContainerMarkers / 5)),
  'ordinary: dense prose': () => r('Some **bold** and _em_ text, with `code` and a [link](http://x.y).\n\n', N / 68),
};

const [filter = ''] = process.argv.slice(2);
if (process.env.BENCH_CASE) {
  const { markdownToAdf } = await import('../packages/adf/dist/index.js');
  const { parseMarkdown } = await import('../packages/adf/dist/markdown/parser.js');
  const convert = process.env.RAW ? parseMarkdown : markdownToAdf;
  convert('warm *a* [b](c) `d`\n\n- e\n> f\n');
  const input = cases[process.env.BENCH_CASE]();
  const wall = performance.now();
  const cpu = process.cpuUsage();
  let outcome = 'converted';
  try {
    convert(input);
  } catch (e) {
    outcome = e.limit ? `refused: ${e.limit}` : `error: ${String(e.message).slice(0, 50)}`;
  }
  const used = process.cpuUsage(cpu);
  console.log(JSON.stringify({ chars: input.length, cpu: (used.user + used.system) / 1000, wall: performance.now() - wall, outcome }));
} else {
  const self = fileURLToPath(import.meta.url);
  console.log(`${'case'.padEnd(44)} ${'chars'.padStart(6)} ${'cpu ms'.padStart(7)} ${'wall ms'.padStart(8)}  outcome`);
  for (const name of Object.keys(cases).filter((n) => n.includes(filter))) {
    let line;
    try {
      const out = execFileSync(process.execPath, [self], { env: { ...process.env, BENCH_CASE: name }, timeout: 20_000, encoding: 'utf8' });
      const m = JSON.parse(out);
      line = `${String(m.chars).padStart(6)} ${m.cpu.toFixed(0).padStart(7)} ${m.wall.toFixed(0).padStart(8)}  ${m.outcome}`;
    } catch {
      line = `${''.padStart(6)} ${''.padStart(7)} ${'>20000'.padStart(8)}  timed out or crashed`;
    }
    console.log(`${name.padEnd(44)} ${line}`);
  }
}
