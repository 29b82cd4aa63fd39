import { ApiError } from '../errors.js';

/** Where a token starts in the query: Jira counts lines and characters from 1. */
export interface Pos {
  line: number;
  column: number;
}

/**
 * A syntax error, worded as Jira words them: `Error in the JQL Query: <what>. (line L, character C)`.
 * `at` is omitted when the problem is the end of the query (Jira then says "before the end of the query").
 */
export function jqlSyntaxError(what: string, at?: Pos): ApiError {
  const where = at ? ` (line ${at.line}, character ${at.column})` : '';
  return new ApiError(400, [`Error in the JQL Query: ${what}${where}`]);
}

/** A query that parses but asks for something that does not exist or cannot be done (no position, as Jira). */
export function jqlError(message: string): ApiError {
  return new ApiError(400, [message]);
}

/** Jira's wording for a value it cannot resolve; also used for values the caller may not see, so nothing leaks. */
export const noSuchValue = (value: string, field: string) => jqlError(`The value '${value}' does not exist for the field '${field}'.`);

export const noSuchField = (field: string) => jqlError(`Field '${field}' does not exist or you do not have permission to view it.`);

/** Values in messages are cut short: a message quotes the offending text, not a whole pasted document. */
export function quote(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
