/**
 * The code host's values (../model.ts) under the name its domain and HTTP layer use for them: they
 * are defined below all three layers so that the store shares them without importing the domain.
 */
export { PERMISSIONS } from '../model.js';
export type { ChComment, ChPull, ChRepo, ChReview, ChUser, NewPull, Permission, PullListQuery, PullPatch } from '../model.js';
