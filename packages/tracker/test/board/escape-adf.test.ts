import { describe, expect, it } from 'vitest';
import { adfToHtml, safeHref } from '../../src/kit/adf-html.js';
import { escapeHtml, html, Html } from '../../src/kit/html.js';
import { markerOf } from '../../src/http/board/markers.js';

const doc = (...content: unknown[]) => ({ type: 'doc', version: 1, content });
const p = (...content: unknown[]) => ({ type: 'paragraph', content });
const t = (text: string, ...marks: unknown[]) => ({ type: 'text', text, ...(marks.length ? { marks } : {}) });

describe('ARCHITECTURE §12 board: one escaping function', () => {
  it('escapes the five characters that matter in text and in quoted attributes', () => {
    expect(escapeHtml(`<img src=x onerror=alert(1)> & "q" 'a'`)).toBe('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;q&quot; &#39;a&#39;');
  });

  it('the html template escapes every value but Html, joins arrays and drops null/false', () => {
    const out = html`<p title="${'"><script>'}">${['<b>', new Html('<i>ok</i>')]}${null}${false}${0}</p>`;
    expect(out.text).toBe('<p title="&quot;&gt;&lt;script&gt;">&lt;b&gt;<i>ok</i>0</p>');
  });
});

describe('ARCHITECTURE §12 board: ADF rendered to HTML', () => {
  it('headings, lists, code, quotes, rules, panels and marks become their elements', () => {
    const out = adfToHtml(
      doc(
        { type: 'heading', attrs: { level: 2 }, content: [t('Scope')] },
        { type: 'bulletList', content: [{ type: 'listItem', content: [p(t('one'))] }] },
        { type: 'orderedList', attrs: { order: 3 }, content: [{ type: 'listItem', content: [p(t('three'))] }] },
        { type: 'codeBlock', attrs: { language: 'ts' }, content: [t('const a = 1 < 2;')] },
        { type: 'blockquote', content: [p(t('quoted'))] },
        { type: 'rule' },
        { type: 'panel', attrs: { panelType: 'warning' }, content: [p(t('careful'))] },
        p(
          t('b', { type: 'strong' }),
          t('i', { type: 'em' }),
          t('c', { type: 'code' }),
          t('s', { type: 'strike' }),
          t('u', { type: 'underline' }),
          t('2', { type: 'subsup', attrs: { type: 'sup' } }),
          { type: 'hardBreak' },
        ),
      ),
    ).text;
    expect(out).toContain('<h2>Scope</h2>');
    expect(out).toContain('<ul><li><p>one</p></li></ul>');
    expect(out).toContain('<ol start="3"><li><p>three</p></li></ol>');
    expect(out).toContain('<pre class="code" data-language="ts"><code>const a = 1 &lt; 2;</code></pre>');
    expect(out).toContain('<blockquote><p>quoted</p></blockquote>');
    expect(out).toContain('<hr>');
    expect(out).toContain('<div class="panel panel-warning"><p>careful</p></div>');
    expect(out).toContain('<p><strong>b</strong><em>i</em><code>c</code><s>s</s><u>u</u><sup>2</sup><br></p>');
  });

  it('tables become tables', () => {
    const cell = (type: string, text: string) => ({ type, content: [p(t(text))] });
    const out = adfToHtml(
      doc({
        type: 'table',
        content: [
          { type: 'tableRow', content: [cell('tableHeader', 'H')] },
          { type: 'tableRow', content: [cell('tableCell', 'C')] },
        ],
      }),
    ).text;
    expect(out).toBe('<div class="table"><table><tr><th><p>H</p></th></tr><tr><td><p>C</p></td></tr></table></div>');
  });

  it('links keep only http, https and mailto hrefs; anything else shows as text', () => {
    const link = (href: string) => adfToHtml(doc(p(t('go', { type: 'link', attrs: { href } })))).text;
    expect(link('https://example.com/a?b=1&c=2')).toBe('<p><a href="https://example.com/a?b=1&amp;c=2" rel="noopener noreferrer nofollow">go</a></p>');
    expect(link('mailto:a@b.test')).toContain('<a href="mailto:a@b.test"');
    for (const bad of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'data:text/html,<script>',
      'vbscript:x',
      '/relative',
      '//evil.test/x',
    ]) {
      expect(link(bad), bad).toBe('<p>go</p>');
    }
    expect(safeHref('java\tscript:alert(1)')).toBeUndefined();
    expect(adfToHtml(doc(p({ type: 'inlineCard', attrs: { url: 'javascript:alert(1)' } }))).text).toBe('<p>javascript:alert(1)</p>');
  });

  it('text holding HTML or script shows as text; unknown nodes show their text, never their attributes', () => {
    const out = adfToHtml(doc(p(t('<script>alert(1)</script>')), { type: 'mystery', attrs: { onclick: 'x' }, text: '<b>t</b>' })).text;
    expect(out).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>&lt;b&gt;t&lt;/b&gt;');
  });

  it('a document nested deeper than any stored one is cut to its text, without overflowing the stack', () => {
    let node: unknown = t('deep');
    for (let i = 0; i < 5000; i++) node = { type: 'blockquote', content: [node] };
    expect(adfToHtml(doc(node)).text).toContain('deep');
  });
});

describe('ARCHITECTURE §11/§12 board: marker comments', () => {
  it.each([
    ['PR target branch: feature/ABC-1-x Worktree: /w', 'target'],
    ['Assignment report', 'assignment'],
    ['Run report', 'run'],
    ['Task memory', 'memory'],
    ['Review tally', 'tally'],
    ['APPROVED — looks good', 'approved'],
    ['CHANGES REQUESTED — fix the tests', 'changes'],
  ])('"%s" is a %s marker', (first, kind) => {
    expect(markerOf(JSON.stringify(doc(p(t(first)), p(t('more')))))?.kind).toBe(kind);
  });

  it('a marker word later in the text, or an ordinary comment, is no marker', () => {
    expect(markerOf(JSON.stringify(doc(p(t('see the Assignment report')))))).toBeUndefined();
    expect(markerOf(JSON.stringify(doc(p(t('APPROVED without the dash')))))).toBeUndefined();
  });

  it('ARCHITECTURE §11: a first line that only begins with a line marker is no marker, as jst does not count it', () => {
    for (const first of ['Run report (draft)', 'Task memory: later', 'Assignment reports', 'Review tally so far'])
      expect(markerOf(JSON.stringify(doc(p(t(first))))), first).toBeUndefined();
  });
});
