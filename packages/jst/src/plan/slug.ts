import { issueBranchName } from '@jst/protocol';

/**
 * Branch slugs (issue 6 "Slugs"): lower-case ASCII words joined by `-`, at most 50 characters,
 * valid inside a git ref. Accents are folded (é → e); anything else that is not a letter or digit
 * separates words. A summary with nothing usable (emoji, CJK only) yields `work`.
 */
export const SLUG_MAX = 50;

export function slugify(summary: string): string {
  const ascii = summary
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  const words = ascii.split(/[^a-z0-9]+/).filter(Boolean);
  let slug = '';
  for (const w of words) {
    const next = slug ? `${slug}-${w}` : w;
    if (next.length > SLUG_MAX) {
      if (!slug) slug = w.slice(0, SLUG_MAX);
      break;
    }
    slug = next;
  }
  return slug || 'work';
}

export const featureBranch = (key: string, summary: string) => issueBranchName('feature', key, slugify(summary));
export const hotfixBranch = (key: string, summary: string) => issueBranchName('hotfix', key, slugify(summary));
