// What the demo plans and what it tells the person to do next.

/** A word as a POSIX shell reads it back unchanged. */
export const shq = (p) => (/^[\w@%+=:,./-]+$/.test(String(p)) ? String(p) : `'${String(p).replace(/'/g, `'\\''`)}'`);

export function planFileFor() {
  return {
    request: 'Let users export a report as CSV',
    summary: 'CSV export for reports',
    scope: 'Export the rows of the report on screen as CSV. No other formats, no scheduling.',
    acceptanceCriteria: [
      'An Export button on every report downloads a .csv file',
      'Columns and order match the table on screen',
      'Values with commas or quotes are quoted (RFC 4180)',
    ],
    priority: 'High',
    path: 'planned',
    steps: [
      {
        summary: 'Serialise report rows to CSV',
        scope: 'A pure function from rows to CSV text',
        acceptanceCriteria: ['RFC 4180 quoting', 'Unit tests for commas, quotes and newlines'],
      },
      { summary: 'CSV download endpoint', scope: 'GET /reports/:id.csv', acceptanceCriteria: ['Content-Type text/csv', 'Content-Disposition names the file'] },
      {
        summary: 'Export button on the report page',
        scope: 'The button and its wiring only',
        acceptanceCriteria: ['Visible on every report', 'Disabled while loading'],
      },
    ],
  };
}

/**
 * After `--once` the server has stopped: the lines that start it again (the same data folder and
 * port, so the worktrees' settings keep working), to run in a terminal of their own before any
 * next command.
 */
export function serverAgain({ jstHere, port, dataDir, tls = false }) {
  return [
    'The server has stopped (--once); its data, the repository and the worktrees stay where listed above.',
    'Start it again first, in a terminal of its own (the same data and port, so these worktrees keep working; Ctrl-C stops it):',
    `  ${jstHere}`,
    `  jst-tracker serve --port ${port} --data ${shq(dataDir)}${tls ? ' --tls' : ''}`,
  ];
}

/**
 * The person's next commands for the next sub-task, each a line that runs as pasted in a new
 * terminal while the server runs (the first puts this checkout's jst on PATH). After `--once`,
 * the lines that start the server again come first.
 */
export function nextSteps({ once, jstHere, repo, next, done, port, dataDir, tls = false }) {
  if (!next) return [];
  const cd = `cd ${shq(next.dir)} &&`;
  const lines = [
    `  ${jstHere}`,
    `  ${cd} jst start`,
    `  ${cd} printf 'export const ready = true;\\n' > ${next.key}.js && git add ${next.key}.js && git commit -qm ${shq(`${next.key}: first cut`)}`,
    `  ${cd} jst note ${shq('first cut committed')}`,
    `  ${cd} jst pr`,
    `  cd ${shq(repo)} && jst review ${next.key} --approve --summary ${shq('Looks good')}`,
    `  cd ${shq(repo)} && jst done ${next.key} --yes ${next.key}`,
  ];
  if (once) {
    return [
      ...serverAgain({ jstHere, port, dataDir, tls }),
      `To take ${next.key} through yourself, paste these lines into another terminal, in order, once it is running:`,
      ...lines,
      '',
    ];
  }
  return [
    `${done ? `${done} is Done and its pull request merged. ` : ''}Next, take ${next.key} through yourself: paste these lines into a new terminal, in order:`,
    ...lines,
    'Merge its pull request on the code host first if you like: open the address jst pr printed and press Merge.',
    '',
  ];
}
