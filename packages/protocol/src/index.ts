/**
 * @jst/protocol: what jst and jst-tracker both know about each other's words, each piece once
 * (ARCHITECTURE §16): the marker comments and the role each counts from, the project-key, issue-key
 * and issue-branch grammars, `Retry-After`, and the atomic JSON write of the journals. It imports no
 * other workspace, so the tracker can use it without ever importing the client or jst.
 */
export * from './markers.js';
export * from './keys.js';
export * from './retry-after.js';
export * from './atomic-file.js';
