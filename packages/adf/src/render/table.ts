import { isObj, kidsOf, type Obj } from './inline.js';

const ANSI = /\x1b\[[0-9;]*m/g;
const visible = (s: string): number => [...s.replace(ANSI, '')].length;

/**
 * A table as Markdown-style rows: `| a | b |`, columns padded to line up, and a `| --- |` line under
 * a header row. A table wider than `ctx.width` is printed unpadded, so a narrow terminal wraps
 * whole rows rather than a grid of spaces. Cell blocks are joined onto one line.
 */
export function table(rows: readonly unknown[], ctx: { readonly width: number }, depth: number, cellLines: (cell: Obj, depth: number) => string[]): string[] {
  const objRows = rows.filter(isObj);
  const firstCells = objRows[0] ? kidsOf(objRows[0]).filter(isObj) : [];
  const headerRow = firstCells.length > 0 && firstCells.every((c) => c.type === 'tableHeader');
  const grid: string[][] = objRows.map((row) => {
    const cells = kidsOf(row).filter(isObj);
    return cells.map((cell) =>
      cellLines(cell, depth + 3)
        .map((l) => l.trim())
        .filter((l) => l !== '')
        .join(' ')
        .replace(/\|/g, '\\|'),
    );
  });
  const columns = Math.max(0, ...grid.map((r) => r.length));
  if (columns === 0) return [];
  const widths = Array.from({ length: columns }, (_, c) => Math.max(3, ...grid.map((r) => visible(r[c] ?? ''))));
  const padded = widths.reduce((sum, w) => sum + w + 3, 1) <= ctx.width;
  const line = (cells: readonly string[]) =>
    `| ${widths
      .map((w, c) => {
        const cell = cells[c] ?? '';
        return padded ? cell + ' '.repeat(w - visible(cell)) : cell;
      })
      .join(' | ')} |`;
  const out = grid.map(line);
  if (headerRow) out.splice(1, 0, line(widths.map((w) => '-'.repeat(padded ? w : 3))));
  return out;
}
