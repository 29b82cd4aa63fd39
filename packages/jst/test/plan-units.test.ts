import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstLineText, validateAdf } from '@jst/adf';
import { issueDescription } from '../src/plan/description.js';
import { openQuestions, readPlanFile, settle } from '../src/plan/plan-file.js';
import { assignmentReport, handOffLines } from '../src/plan/report.js';
import { SLUG_MAX, featureBranch, slugify } from '../src/plan/slug.js';

const refOk = (name: string) => {
  try {
    execFileSync('git', ['check-ref-format', '--branch', name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

describe('ARCHITECTURE §7 branch slugs: lower-case ASCII, words joined by -, at most 50 characters, a valid git ref', () => {
  it('examples', () => {
    expect(slugify('Add CSV export to the Reports page!')).toBe('add-csv-export-to-the-reports-page');
    expect(slugify('Crème brûlée — naïve "quotes" / slashes\\back')).toBe('creme-brulee-naive-quotes-slashes-back');
    expect(slugify('日本語のみ')).toBe('work');
    expect(slugify('..lock/.. @{ ~^:?*[')).toBe('lock');
    expect(slugify('a'.repeat(500))).toHaveLength(SLUG_MAX);
    expect(slugify('word '.repeat(100)).length).toBeLessThanOrEqual(SLUG_MAX);
    expect(slugify('word '.repeat(100)).endsWith('-')).toBe(false);
  });
  it('any summary (Unicode, quotes, slashes, 500 characters) yields a slug valid in a git ref', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 500, unit: 'grapheme' }), (s) => {
        const slug = slugify(s);
        expect(slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
        expect(slug.length).toBeLessThanOrEqual(SLUG_MAX);
      }),
      { numRuns: 300 },
    );
    const samples = fc.sample(fc.string({ maxLength: 500, unit: 'grapheme' }), 40);
    for (const s of samples) expect(refOk(featureBranch('ABC-12', s)), s).toBe(true);
  });
});

describe('ARCHITECTURE §7 plan file', () => {
  const file = (o: unknown) => {
    const f = join(mkdtempSync(join(tmpdir(), 'plan-')), 'p.json');
    writeFileSync(f, typeof o === 'string' ? o : JSON.stringify(o));
    return f;
  };
  it('reads every key; steps present = multistep; missing answers are the open questions', () => {
    const d = readPlanFile(file({ request: 'r', summary: 's', scope: 'x', acceptanceCriteria: ['a'], priority: 'High', steps: [{ summary: 'one' }] }));
    expect(openQuestions(d).map((q) => q.field)).toEqual(['steps[0].scope', 'steps[0].acceptanceCriteria']);
    expect(openQuestions({}).map((q) => q.field)).toEqual(['request', 'summary', 'scope', 'acceptanceCriteria', 'priority']);
  });
  it('bad files are usage errors naming the file and the key', () => {
    expect(() => readPlanFile(file('{nope'))).toThrow(/plan file .*p\.json/);
    expect(() => readPlanFile(file({ request: 'r', colour: 'red' }))).toThrow(/unknown key "colour"/);
    expect(() => readPlanFile(file({ path: 'urgent' }))).toThrow(/"path" .* must be "planned" or "hotfix"/);
    expect(() => readPlanFile(file([1]))).toThrow(/JSON object/);
  });
});

describe('spec §1 rules 5 and 12: description and report', () => {
  const plan = settle({ request: 'Do it', summary: 'Do', scope: 'All', acceptanceCriteria: ['works', 'tested'], priority: 'High', path: 'planned', steps: [] });
  it('the description is valid ADF with headings and a bullet list, nothing as markdown', () => {
    const d = issueDescription(plan, plan, 'single', 'jstmarker');
    expect(validateAdf(d).ok).toBe(true);
    expect(d.content.filter((n) => n.type === 'heading').map((n) => n.content![0]!.text)).toEqual([
      'Request',
      'Scope',
      'Acceptance criteria',
      'Priority',
      'Path',
    ]);
    expect(d.content.find((n) => n.type === 'bulletList')!.content).toHaveLength(2);
    expect(JSON.stringify(d)).not.toContain('##');
  });
  it('the report starts with the literal marker; hotfix says it must reach the base branch', () => {
    const leaves = [{ key: 'ABC-1', summary: 'Do', branch: 'hotfix/ABC-1-do', worktree: '/w/worktree-ABC-1', prTarget: 'main', role: 'single' as const }];
    const text = assignmentReport({
      plan: { ...plan, path: 'hotfix' },
      leaves,
      siteUrl: 'https://acme.atlassian.net',
      base: 'main',
      defaultBase: 'development',
      production: 'main',
    });
    expect(text.split('\n')[0]).toBe('Assignment report');
    expect(text).toContain('https://acme.atlassian.net/browse/ABC-1');
    expect(text).toMatch(/must still reach the default base branch development/);
    expect(text).not.toMatch(/\n\s*\n/);
    expect(handOffLines(leaves)).toEqual(['cd /w/worktree-ABC-1 && jst start']);
    expect(firstLineText({ type: 'doc', version: 1, content: [{ type: 'paragraph', content: [{ type: 'text', text: text.split('\n')[0] }] }] })).toBe(
      'Assignment report',
    );
  });
});
