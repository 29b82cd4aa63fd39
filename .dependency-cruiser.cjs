/**
 * Import rules checked by `npm run lint:deps` (dependency-cruiser), which `npm test` runs first.
 * Type-only imports count (tsPreCompilationDeps): a layer that names another's types depends on it.
 */
const SRC = '^packages/[^/]+/src/';
const TRACKER = '^packages/tracker/src/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import circle anywhere in the packages: a cycle means two files are one concern or a type lives in the wrong file.',
      severity: 'error',
      from: { path: SRC },
      to: { circular: true },
    },
    {
      name: 'tracker-http-not-store',
      comment: 'Layers http → domain → store: routes and renderers take domain values (domain/model.ts) and read through domain functions.',
      severity: 'error',
      from: { path: `${TRACKER}http/` },
      to: { path: `${TRACKER}store/` },
    },
    {
      name: 'tracker-domain-not-http',
      comment: 'The domain knows nothing of HTTP.',
      severity: 'error',
      from: { path: `${TRACKER}domain/` },
      to: { path: `${TRACKER}http/` },
    },
    {
      name: 'tracker-store-not-http',
      comment: 'The store knows nothing of HTTP.',
      severity: 'error',
      from: { path: `${TRACKER}store/` },
      to: { path: `${TRACKER}http/` },
    },
    {
      name: 'tracker-store-only-domain-model',
      comment: 'The store reads and writes the domain\'s values (domain/model.ts, which imports nothing) and no domain rule.',
      severity: 'error',
      from: { path: `${TRACKER}store/` },
      to: { path: `${TRACKER}domain/`, pathNot: `${TRACKER}domain/model\\.ts$` },
    },
    {
      name: 'jst-config-not-client',
      comment: 'jst\'s settings depend on no client code: the address helpers they share with the client live in @jst/url.',
      severity: 'error',
      from: { path: '^packages/jst/src/config/' },
      to: { path: '(^|/)packages/client/|(^|/)node_modules/@jst/client/|^@jst/client$' },
    },
    {
      name: 'adf-standalone',
      comment: '@jst/adf imports no other workspace.',
      severity: 'error',
      from: { path: '^packages/adf/src/' },
      to: { path: '(^|/)packages/(?!adf/)|(^|/)node_modules/@jst/|^@jst/' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    // Workspace packages resolve (through their node_modules link) to their built dist: checked as
    // a target, not followed, so each package is judged on its own sources.
    doNotFollow: { path: ['node_modules', '/dist/'] },
    exclude: { path: '/test/' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.js', '.mjs', '.cjs'],
    },
  },
};
