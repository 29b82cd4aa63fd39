import { readFileSync } from 'node:fs';
import { MarkdownLimitError } from '@jst/adf';
import { JstError } from '../config/index.js';
import { criteriaList, scopeBlocks } from './description.js';
import type { PlanInput, WorkItem } from './plan-types.js';

export type { PlanInput, WorkItem } from './plan-types.js';

/** What is still open, each as the question the clarify loop asks (spec §1 rule 5). */
export interface Question {
  field: string;
  question: string;
}

export type Draft = Partial<Omit<PlanInput, 'steps' | 'markdown'>> & { steps?: Partial<WorkItem>[]; markdown?: boolean };

const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
const list = (v: unknown) =>
  Array.isArray(v) ? v.map(str).filter((x): x is string => x !== undefined) : typeof v === 'string' && v.trim() ? [v.trim()] : undefined;

/** Reads a plan file; a malformed one is a usage error naming the file and the key. */
export function readPlanFile(file: string): Draft {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new JstError({
      code: 'PLAN_FILE',
      problem: `cannot read the plan file ${file}: ${(e as Error).message}`,
      hint: 'It must be JSON: {"request","summary","scope","acceptanceCriteria":[…],"priority","path","steps":[…]}',
    });
  }
  return parsePlan(json, file);
}

/** What the plan is called in messages when it came as a tool argument rather than a file. */
export const PLAN_ARGUMENT = '(the plan argument)';

/** A plan-file object, checked key by key; `file` names it in messages. */
export function parsePlan(json: unknown, file: string): Draft {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new JstError({ code: 'PLAN_FILE', problem: `the plan file ${file} must hold a JSON object` });
  }
  const o = json as Record<string, unknown>;
  const known = ['request', 'summary', 'scope', 'acceptanceCriteria', 'priority', 'path', 'steps', 'markdown'];
  for (const k of Object.keys(o)) {
    if (!known.includes(k))
      throw new JstError({ code: 'PLAN_FILE', problem: `unknown key "${k}" in the plan file ${file}`, hint: `Known keys: ${known.join(', ')}` });
  }
  if (o.path !== undefined && o.path !== 'planned' && o.path !== 'hotfix') {
    throw new JstError({ code: 'PLAN_FILE', problem: `"path" in ${file} must be "planned" or "hotfix" (got ${JSON.stringify(o.path)})` });
  }
  if (o.steps !== undefined && !Array.isArray(o.steps)) throw new JstError({ code: 'PLAN_FILE', problem: `"steps" in ${file} must be an array` });
  if (o.markdown !== undefined && typeof o.markdown !== 'boolean') {
    throw new JstError({ code: 'PLAN_FILE', problem: `"markdown" in ${file} must be true or false (got ${JSON.stringify(o.markdown)})` });
  }
  const draft: Draft = {};
  const set = <K extends keyof Draft>(k: K, v: Draft[K] | undefined) => {
    if (v !== undefined) draft[k] = v;
  };
  set('request', str(o.request));
  set('summary', str(o.summary));
  set('scope', str(o.scope));
  set('acceptanceCriteria', list(o.acceptanceCriteria));
  set('priority', str(o.priority));
  set('path', o.path);
  if (Array.isArray(o.steps)) {
    draft.steps = o.steps.map((s, i) => {
      if (typeof s !== 'object' || s === null)
        throw new JstError({ code: 'PLAN_FILE', problem: `steps[${i}] in ${file} must be an object with summary, scope and acceptanceCriteria` });
      const r = s as Record<string, unknown>;
      const step: Partial<WorkItem> = {};
      if (str(r.summary)) step.summary = str(r.summary)!;
      if (str(r.scope)) step.scope = str(r.scope)!;
      if (list(r.acceptanceCriteria)) step.acceptanceCriteria = list(r.acceptanceCriteria)!;
      return step;
    });
  }
  if (o.markdown === true) {
    draft.markdown = true;
    checkMarkdown(draft, file);
  }
  return draft;
}

/**
 * ARCHITECTURE §7: every check that can fail runs before the first issue is created, so Markdown
 * over the converter's limits is refused here, naming the key, not halfway through the run.
 */
function checkMarkdown(d: Draft, file: string): void {
  const check = (key: string, convert: () => unknown) => {
    try {
      convert();
    } catch (e) {
      if (e instanceof MarkdownLimitError) throw new JstError({ code: 'PLAN_FILE', problem: `"${key}" in ${file}: ${e.message}` });
      throw e;
    }
  };
  if (d.scope) check('scope', () => scopeBlocks(d.scope!, true));
  if (d.acceptanceCriteria) check('acceptanceCriteria', () => criteriaList(d.acceptanceCriteria!, true));
  d.steps?.forEach((s, i) => {
    if (s.scope) check(`steps[${i}].scope`, () => scopeBlocks(s.scope!, true));
    if (s.acceptanceCriteria) check(`steps[${i}].acceptanceCriteria`, () => criteriaList(s.acceptanceCriteria!, true));
  });
}

/** spec §1 rule 5: the questions still open before scope, acceptance criteria and priority are settled. */
export function openQuestions(d: Draft): Question[] {
  const q: Question[] = [];
  if (!d.request) q.push({ field: 'request', question: 'What should be done? (the request)' });
  if (!d.summary) q.push({ field: 'summary', question: 'A one-line summary for the issue?' });
  if (!d.scope) q.push({ field: 'scope', question: 'What is in scope (and what is not)?' });
  if (!d.acceptanceCriteria?.length) q.push({ field: 'acceptanceCriteria', question: 'What are the acceptance criteria (one per line)?' });
  if (!d.priority) q.push({ field: 'priority', question: 'What is the priority (e.g. Highest, High, Medium, Low)?' });
  d.steps?.forEach((s, i) => {
    if (!s.summary) q.push({ field: `steps[${i}].summary`, question: `Step ${i + 1}: a one-line summary?` });
    if (!s.scope) q.push({ field: `steps[${i}].scope`, question: `Step ${i + 1}: what is in scope?` });
    if (!s.acceptanceCriteria?.length) q.push({ field: `steps[${i}].acceptanceCriteria`, question: `Step ${i + 1}: its acceptance criteria?` });
  });
  return q;
}

/** The draft as a settled plan; call only when `openQuestions` is empty. */
export function settle(d: Draft): PlanInput {
  const steps = (d.steps ?? []).map((s) => ({ summary: s.summary!, scope: s.scope!, acceptanceCriteria: s.acceptanceCriteria! }));
  return {
    request: d.request!,
    summary: d.summary!,
    scope: d.scope!,
    acceptanceCriteria: d.acceptanceCriteria!,
    priority: d.priority!,
    path: d.path ?? 'planned',
    steps,
    // Only when set, so the journal's hash of a literal plan is what it always was.
    ...(d.markdown ? { markdown: true as const } : {}),
  };
}
