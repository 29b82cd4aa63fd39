import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adfToText } from '@jst/adf';
import { expectValidAdf } from '../../adf/test/support/vendor-schema.js';
import { issueDescription } from '../src/plan/description.js';
import { readPlanFile, settle } from '../src/plan/plan-file.js';
import { acceptanceCriteria } from '../src/phase/handover.js';

const planFile = (o: unknown) => {
  const f = join(mkdtempSync(join(tmpdir(), 'jst-plan-md-')), 'plan.json');
  writeFileSync(f, JSON.stringify(o));
  return f;
};

const SCOPE = '# Export\n\nAdd **CSV** export:\n\n- the `Reports` page\n- the API';
const base = {
  request: 'CSV export',
  summary: 'CSV export',
  scope: SCOPE,
  priority: 'High',
  acceptanceCriteria: ['`GET /reports.csv` answers 200', 'a [spec](https://x.test/spec) link'],
};

describe('plan file "markdown": true (ARCHITECTURE §7, §11)', () => {
  it('scope and acceptance criteria become ADF nodes inside the authored structure; headings sit under "Scope"', () => {
    const plan = settle(readPlanFile(planFile({ ...base, markdown: true })));
    expect(plan.markdown).toBe(true);
    const d = issueDescription(plan, plan, 'single', 'm1');
    expectValidAdf(d);
    const types = d.content.map((n) => (n.type === 'heading' ? `h${String(n.attrs!.level)}` : n.type));
    expect(types).toEqual(['h2', 'paragraph', 'h2', 'h3', 'paragraph', 'bulletList', 'h2', 'bulletList', 'h2', 'paragraph', 'h2', 'paragraph', 'paragraph']);
    expect(d.content[7]).toEqual({
      type: 'bulletList',
      content: [
        {
          type: 'listItem',
          content: [
            {
              type: 'paragraph',
              content: [
                { type: 'text', text: 'GET /reports.csv', marks: [{ type: 'code' }] },
                { type: 'text', text: ' answers 200' },
              ],
            },
          ],
        },
        {
          type: 'listItem',
          content: [
            {
              type: 'paragraph',
              content: [
                { type: 'text', text: 'a ' },
                { type: 'text', text: 'spec', marks: [{ type: 'link', attrs: { href: 'https://x.test/spec' } }] },
                { type: 'text', text: ' link' },
              ],
            },
          ],
        },
      ],
    });
    // jst start reads the criteria back from the same structure, printed like every issue view.
    expect(acceptanceCriteria(d)).toEqual(['`GET /reports.csv` answers 200', 'a spec (https://x.test/spec) link']);
    expect(adfToText(d)).toContain('## Scope\n\n### Export\n\nAdd **CSV** export:\n\n- the `Reports` page\n- the API');
  });

  it("each step's scope and criteria are Markdown too; a criterion block ADF forbids in a list item degrades", () => {
    const plan = settle(
      readPlanFile(
        planFile({
          ...base,
          markdown: true,
          steps: [{ summary: 'API', scope: '## Endpoint\n\n```ts\nget()\n```', acceptanceCriteria: ['# loud', 'two\nlines'] }],
        }),
      ),
    );
    const d = issueDescription(plan, plan.steps[0]!, 'subtask', 'm2');
    expectValidAdf(d);
    expect(d.content[3]).toEqual({ type: 'heading', attrs: { level: 4 }, content: [{ type: 'text', text: 'Endpoint' }] });
    expect(d.content[4]).toEqual({ type: 'codeBlock', attrs: { language: 'ts' }, content: [{ type: 'text', text: 'get()' }] });
    expect(acceptanceCriteria(d)).toEqual(['**loud**', 'two lines']);
  });

  it('spec §2: without "markdown" (or with false) the same texts stay literal', () => {
    for (const markdown of [undefined, false]) {
      const plan = settle(readPlanFile(planFile({ ...base, ...(markdown === undefined ? {} : { markdown }) })));
      expect(plan.markdown).toBeUndefined();
      const d = issueDescription(plan, plan, 'single', 'm3');
      expect(d.content[3]).toEqual({ type: 'paragraph', content: [{ type: 'text', text: SCOPE }] });
      expect(d.content[5]).toEqual({
        type: 'bulletList',
        content: base.acceptanceCriteria.map((c) => ({ type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: c }] }] })),
      });
    }
  });

  it('a bad "markdown" value or Markdown over the limit is refused when the file is read, naming the key', () => {
    expect(() => readPlanFile(planFile({ ...base, markdown: 'yes' }))).toThrow(/"markdown" in .*plan\.json must be true or false \(got "yes"\)/);
    const long = { ...base, markdown: true, steps: [{ summary: 's', scope: 'x'.repeat(40_000), acceptanceCriteria: ['a'] }] };
    expect(() => readPlanFile(planFile(long))).toThrow(/"steps\[0\]\.scope" in .*plan\.json: Markdown input is 40000 characters; the limit is 32767/);
  });
});
