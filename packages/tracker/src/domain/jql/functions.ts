/** JQL functions this tracker knows. Names are case-insensitive, as in Jira. */
export interface FunctionSpec {
  name: string;
  maxArgs: number;
  /** What the function stands for: the caller, or a moment in time. */
  returns: 'user' | 'date';
}

type Unit = 'y' | 'M' | 'w' | 'd' | 'h' | 'm';

/** The date functions: which calendar period they round to, and whether to its start or end. */
const PERIODS: Record<string, { unit: Unit; edge: 'start' | 'end' }> = {
  startOfDay: { unit: 'd', edge: 'start' },
  endOfDay: { unit: 'd', edge: 'end' },
  startOfWeek: { unit: 'w', edge: 'start' },
  endOfWeek: { unit: 'w', edge: 'end' },
  startOfMonth: { unit: 'M', edge: 'start' },
  endOfMonth: { unit: 'M', edge: 'end' },
  startOfYear: { unit: 'y', edge: 'start' },
  endOfYear: { unit: 'y', edge: 'end' },
};

const SPECS: FunctionSpec[] = [
  { name: 'currentUser', maxArgs: 0, returns: 'user' },
  { name: 'now', maxArgs: 0, returns: 'date' },
  ...Object.keys(PERIODS).map((name) => ({ name, maxArgs: 1, returns: 'date' as const })),
];

export function functionSpec(name: string): FunctionSpec | undefined {
  const lower = name.toLowerCase();
  return SPECS.find((s) => s.name.toLowerCase() === lower);
}

/** Adds a signed amount of a unit in UTC; months and years move on the calendar. */
export function addUnits(at: Date, amount: number, unit: Unit): Date {
  const d = new Date(at.getTime());
  switch (unit) {
    case 'y':
      d.setUTCFullYear(d.getUTCFullYear() + amount);
      break;
    case 'M':
      d.setUTCMonth(d.getUTCMonth() + amount);
      break;
    case 'w':
      d.setUTCDate(d.getUTCDate() + 7 * amount);
      break;
    case 'd':
      d.setUTCDate(d.getUTCDate() + amount);
      break;
    case 'h':
      d.setTime(d.getTime() + amount * 3_600_000);
      break;
    case 'm':
      d.setTime(d.getTime() + amount * 60_000);
      break;
  }
  return d;
}

/** The start of the calendar period holding `at` (UTC; weeks start on Sunday as in Jira's default locale). */
function startOf(at: Date, unit: Unit): Date {
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth();
  const day = at.getUTCDate();
  switch (unit) {
    case 'y':
      return new Date(Date.UTC(y, 0, 1));
    case 'M':
      return new Date(Date.UTC(y, m, 1));
    case 'w':
      return new Date(Date.UTC(y, m, day - at.getUTCDay()));
    case 'h':
      return new Date(Date.UTC(y, m, day, at.getUTCHours()));
    case 'm':
      return new Date(Date.UTC(y, m, day, at.getUTCHours(), at.getUTCMinutes()));
    default:
      return new Date(Date.UTC(y, m, day));
  }
}

/**
 * Evaluates `now()`, `startOfDay()` … `endOfYear()` at `now`. The optional argument shifts the
 * period first: `startOfDay(-1)` is the start of yesterday, `startOfMonth(+2w)` uses weeks. Returns
 * null for an argument that is not an increment.
 */
export function evaluateDateFunction(name: string, args: string[], now: Date): Date | null {
  if (name === 'now') return now;
  const period = PERIODS[name];
  if (!period) return null;
  let base = now;
  if (args.length > 0) {
    const m = /^([+-]?)(\d{1,6})([yMwdhm]?)$/.exec(args[0]!.trim());
    if (!m) return null;
    const amount = Number(m[2]) * (m[1] === '-' ? -1 : 1);
    base = addUnits(now, amount, (m[3] || period.unit) as Unit);
  }
  const start = startOf(base, period.unit);
  return period.edge === 'start' ? start : new Date(addUnits(start, 1, period.unit).getTime() - 1);
}
