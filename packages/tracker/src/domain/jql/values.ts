import type { Comparison, Filter, IssueColumn } from '../../store/search.js';
import { parseIssueKey, publicId, rowIdOf } from '../ids.js';
import { ISSUE_TYPES } from '../issue-input.js';
import type { Operand } from './ast.js';
import { DATE_FORMATS, exactMoment, isoOf, parseDateValue, type Moment } from './dates.js';
import { jqlError, noSuchValue, quote } from './errors.js';
import type { JqlField } from './fields.js';
import { evaluateDateFunction, functionSpec } from './functions.js';

/** What the compiler may look up: everything is already limited to what the caller may see. */
export interface JqlContext {
  /** The moment relative dates and date functions count from. */
  now: Date;
  /** The caller: currentUser(). */
  userId: number;
  /** Projects the caller is a member of; any other project "does not exist". */
  projects: readonly { id: number; key: string; name: string }[];
  statuses: readonly { id: number; name: string; category: string }[];
  /** A user of the site by account id or e-mail, or null. */
  user(ref: string): Promise<number | null>;
  /** An issue in a visible project, by project and number or by row id, or null. */
  issue(ref: { projectId: number; number: number } | { id: number }): Promise<number | null>;
}

/** Jira's status categories: key, name and id (the ids GET /status renders). */
const CATEGORIES = [
  { key: 'new', name: 'To Do', id: '2' },
  { key: 'indeterminate', name: 'In Progress', id: '4' },
  { key: 'done', name: 'Done', id: '3' },
];

type Range = Exclude<Comparison, '=' | '<>'>;

export interface ValueMatcher {
  /** The issues whose field equals this value or function (false where the field is empty). */
  equals(operand: Operand): Promise<Filter>;
  /** The issues whose field is before / after it (dates; keys within their project). */
  range(op: Range, operand: Operand): Promise<Filter>;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const compare = (column: IssueColumn, op: Comparison, value: string | number): Filter => ({ kind: 'compare', column, op, value });

/** Resolves the values of one field of one clause. `name` is the field as the query spells it. */
export function valueMatcher(field: JqlField, name: string, ctx: JqlContext): ValueMatcher {
  const column = field.column ?? 'id';

  const text = (o: Operand): string => {
    if (o.kind === 'value') return o.value;
    if (o.kind === 'function') throw jqlError(`The function '${o.name}()' cannot be used with the field '${name}'.`);
    throw jqlError(`The field '${name}' takes one value here, not a list.`);
  };

  const moment = (o: Operand): Moment => {
    if (o.kind === 'function') {
      if (functionSpec(o.name)?.returns !== 'date') text(o);
      const at = evaluateDateFunction(o.name, o.args, ctx.now);
      const found = at && exactMoment(at);
      if (!found) throw jqlError(`The argument of ${o.name}(${o.args.map(quote).join(', ')}) is not valid: use an increment such as "-1", "+2d" or "-1w".`);
      return found;
    }
    const value = text(o);
    const found = parseDateValue(value, ctx.now);
    if (!found) throw jqlError(`Date value '${quote(value)}' for field '${name}' is invalid. ${DATE_FORMATS}`);
    return found;
  };

  /** An issue key or id: the row id of a visible issue, or Jira's "does not exist". */
  const issue = async (o: Operand): Promise<number> => {
    const value = text(o);
    const ref = issueRef(value);
    const id = ref && (await ctx.issue(ref));
    if (!id) throw jqlError(`An issue with key '${quote(value)}' does not exist for field '${name}'.`);
    return id;
  };

  const issueRef = (value: string): { projectId: number; number: number } | { id: number } | null => {
    const key = parseIssueKey(value);
    if (key) {
      const project = ctx.projects.find((p) => p.key === key.projectKey);
      return project ? { projectId: project.id, number: key.number } : null;
    }
    const id = rowIdOf(value);
    if (id === null) throw jqlError(`The issue key '${quote(value)}' for field '${name}' is invalid.`);
    return { id };
  };

  const equals = async (o: Operand): Promise<Filter> => {
    switch (field.kind) {
      case 'project': {
        const value = text(o);
        const p = ctx.projects.find((x) => same(x.key, value) || x.id === rowIdOf(value) || same(x.name, value));
        if (!p) throw noSuchValue(quote(value), name);
        return compare(column, '=', p.id);
      }
      case 'issue':
        return { kind: 'in', column: 'id', values: [await issue(o)], negated: false };
      case 'parent':
        return compare(column, '=', await issue(o));
      case 'issuetype': {
        const value = text(o);
        const t = ISSUE_TYPES.find((x) => same(x.name, value) || x.id === value);
        if (!t) throw noSuchValue(quote(value), name);
        return compare(column, '=', t.name);
      }
      case 'status': {
        const value = text(o);
        const s = ctx.statuses.find((x) => same(x.name, value) || publicId(x.id) === value);
        if (!s) throw noSuchValue(quote(value), name);
        return compare(column, '=', s.id);
      }
      case 'statusCategory': {
        const value = text(o);
        const cat = CATEGORIES.find((c) => same(c.key, value) || same(c.name, value) || c.id === value);
        if (!cat) throw noSuchValue(quote(value), name);
        return { kind: 'in', column, values: ctx.statuses.filter((s) => s.category === cat.key).map((s) => s.id), negated: false };
      }
      case 'user': {
        if (o.kind === 'function' && functionSpec(o.name)?.returns === 'user') return compare(column, '=', ctx.userId);
        const value = text(o);
        const id = await ctx.user(value);
        if (id === null) throw noSuchValue(quote(value), name);
        return compare(column, '=', id);
      }
      case 'date': {
        const m = moment(o);
        return { kind: 'and', items: [compare(column, '>=', isoOf(m.start)), compare(column, '<', isoOf(new Date(m.start.getTime() + m.spanMs)))] };
      }
      case 'text':
        throw new Error('text fields have no equality');
    }
  };

  const range = async (op: Range, o: Operand): Promise<Filter> => {
    if (field.kind === 'date') return compare(column, op, isoOf(moment(o).start));
    // spec'd for keys: a key orders within its project (ABC-2 < ABC-10); an id orders by id.
    const value = text(o);
    const ref = issueRef(value);
    if (!ref) throw jqlError(`An issue with key '${quote(value)}' does not exist for field '${name}'.`);
    if ('id' in ref) return compare('id', op, ref.id);
    return { kind: 'and', items: [compare('project_id', '=', ref.projectId), compare('number', op, ref.number)] };
  };

  return { equals, range };
}
