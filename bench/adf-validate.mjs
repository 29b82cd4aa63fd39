// validateAdf over the widest document the tracker accepts in one field's worth of nodes: 1,000,000
// sibling paragraphs (packages/adf/test/validate-limits.test.ts checks it is accepted; how long it
// takes is measured here, never asserted in a timed test). Prints the median of 5 runs beside the
// floor of the same run: a plain loop over the same array reading each node's type.
// Run: npm run build && node bench/adf-validate.mjs
import { validateAdf } from '../packages/adf/dist/index.js';

const content = Array.from({ length: 1_000_000 }, (_, i) => ({ type: 'paragraph', content: [{ type: 'text', text: `line ${i}` }] }));
const doc = { type: 'doc', version: 1, content };
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = (f) => {
  const t = performance.now();
  f();
  return performance.now() - t;
};
let seen = 0;
const floor = median(Array.from({ length: 5 }, () => time(() => content.forEach((p) => (seen += p.content[0].type.length)))));
const runs = Array.from({ length: 5 }, () =>
  time(() => {
    if (!validateAdf(doc).ok) throw new Error('refused');
  }),
);
console.log(
  `validateAdf, 1,000,000 sibling paragraphs: median ${median(runs).toFixed(0)} ms; floor (a loop reading each node) ${floor.toFixed(0)} ms; ratio ${(median(runs) / floor).toFixed(1)}× (${seen > 0 ? 'ok' : ''})`,
);
