/**
 * The tracker's values (../model.ts) under the name the domain and the HTTP layer use for them:
 * they are defined below all three layers so that the store shares them without importing the domain.
 */
export type { Comment, CommentRows, Issue, Project, Site, Status, User, VisibleProject } from '../model.js';
