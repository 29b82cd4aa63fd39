import fc from 'fast-check';
import { wellFormed } from './support.js';

/** Query strings for the hostile URL properties: known and unknown parameters, odd values, broken escapes. */

const PARAMS = [
  'startAt',
  'maxResults',
  'orderBy',
  'expand',
  'fields',
  'query',
  'accountId',
  'keys',
  'id',
  'jql',
  'nextPageToken',
  'deleteSubtasks',
  'returnIssue',
  'transitionId',
  'failFast',
  'fieldsByKeys',
  'username',
  'properties',
  'typeKey',
  'action',
  'status',
  'reconcileIssues',
  'notifyUsers',
  '__proto__',
  'constructor',
  'fields[]',
  'startAt[0]',
  '',
];

/** Bytes a URL may carry as written: broken escapes, overlong UTF-8, encoded NUL, and the like. */
export const brokenEscape = fc.constantFrom('%', '%G1', '%E0%A4%A', '%FF', '%C0%AF', '%ED%A0%80', '%00', '%25', '%2', '%%', '%u0041', '%F0%9F%98');

const paramValue = fc.oneof(
  fc.constantFrom(
    '0',
    '-1',
    '1',
    '50',
    '5000',
    '5001',
    '2147483648',
    '99999999999999999999',
    '1.5',
    '1e3',
    '0x10',
    '',
    'true',
    'false',
    'TRUE',
    'null',
    'undefined',
    'NaN',
    '*all',
    '-summary',
    'summary,status',
    'created',
    '-created',
    'key',
    'ABC',
    'abc',
    'SEC',
    'assigner@acme.test',
    'project = ABC',
    'order by key',
    'a,b,,c',
  ),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.integer().map(String),
  fc.double().map(String),
);

/** One query parameter, encoded one of several ways (properly, with '+', raw, or with a broken escape). */
const queryPart = fc
  .tuple(fc.oneof(fc.constantFrom(...PARAMS), fc.string({ maxLength: 8 })), paramValue, fc.constantFrom('component', 'component', 'plus', 'broken', 'bare'))
  .chain(([name, value, style]) => {
    const enc = (s: string) => encodeURIComponent(wellFormed(s));
    switch (style) {
      case 'plus':
        return fc.constant(`${enc(name)}=${enc(value).replace(/%20/g, '+')}`);
      case 'bare':
        return fc.constant(enc(name));
      case 'broken':
        return brokenEscape.map((b) => `${enc(name)}=${enc(value.slice(0, 3))}${b}${enc(value.slice(3))}`);
      default:
        return fc.constant(`${enc(name)}=${enc(value)}`);
    }
  });
export const queryString = fc.array(queryPart, { maxLength: 6 }).map((parts) => (parts.length === 0 ? '' : `?${parts.join('&')}`));
