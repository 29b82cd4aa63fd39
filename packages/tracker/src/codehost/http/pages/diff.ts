/** One line of a file's patch as the review page shows it. */
export interface DiffRow {
  kind: 'hunk' | 'add' | 'del' | 'ctx' | 'note';
  /** The line's number on the base side (deleted and context lines). */
  old?: number;
  /** The line's number on the head side (added and context lines). */
  new?: number;
  text: string;
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/**
 * A unified-diff patch (GitHub's `patch`: hunks from the first `@@`) as rows with line numbers,
 * counted from each hunk's header. A line the format does not know is kept as a note.
 */
export function diffRows(patch: string): DiffRow[] {
  const rows: DiffRow[] = [];
  let oldLine = 0;
  let newLine = 0;
  const lines = patch.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  for (const line of lines) {
    const hunk = HUNK.exec(line);
    if (hunk) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      rows.push({ kind: 'hunk', text: line });
    } else if (line.startsWith('+')) {
      rows.push({ kind: 'add', new: newLine++, text: line.slice(1) });
    } else if (line.startsWith('-')) {
      rows.push({ kind: 'del', old: oldLine++, text: line.slice(1) });
    } else if (line.startsWith(' ') || line === '') {
      rows.push({ kind: 'ctx', old: oldLine++, new: newLine++, text: line.slice(1) });
    } else {
      // "\ No newline at end of file" and the like.
      rows.push({ kind: 'note', text: line });
    }
  }
  return rows;
}
