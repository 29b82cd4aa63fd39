import { describe, expect, it } from 'vitest';
import { expectValidAdf } from './support/vendor-schema.js';

describe('the vendored ADF schema check can fail', () => {
  it('accepts a plain document', () => {
    expectValidAdf({ type: 'doc', version: 1, content: [{ type: 'paragraph', content: [{ type: 'text', text: 'a' }] }] });
  });
  it('fails on either checker: a bad heading level (ours), an unknown table layout (only the vendor checks table attrs)', () => {
    expect(() => expectValidAdf({ type: 'doc', version: 1, content: [{ type: 'heading', attrs: { level: 7 }, content: [] }] })).toThrow(/validateAdf/);
    expect(() =>
      expectValidAdf({
        type: 'doc',
        version: 1,
        content: [
          {
            type: 'table',
            attrs: { layout: 'sideways' },
            content: [{ type: 'tableRow', content: [{ type: 'tableCell', content: [{ type: 'paragraph', content: [] }] }] }],
          },
        ],
      }),
    ).toThrow(/vendor ADF schema/);
  });
});
