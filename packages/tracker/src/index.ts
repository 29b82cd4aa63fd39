export { buildApp, type AppOptions } from './http/app.js';
export { Tracker } from './domain/tracker.js';
export { Store } from './store/store.js';
export { openDb, type DbOptions } from './store/db.js';
export { applySeed } from './domain/apply-seed.js';
export { parseSeed, loadSeedFile, SeedError, type Seed } from './domain/seed.js';
export { startServer, type RunningServer, type ServerOptions } from './server.js';
