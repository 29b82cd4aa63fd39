/**
 * Import rules checked by `npm run lint:deps` (dependency-cruiser), which `npm test` runs first.
 * Type-only imports count (tsPreCompilationDeps): a layer that names another's types depends on it.
 */
const TRACKER = '^packages/tracker/src/';

/** A forbidden import: any module matching `from` that imports one matching `to`. */
const forbid = (name, comment, from, to) => ({ name, comment, severity: 'error', from, to });

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    forbid(
      'no-circular',
      'No import circle anywhere in the packages: a cycle means two files are one concern or a type lives in the wrong file.',
      { path: '^packages/[^/]+/src/' },
      { circular: true },
    ),
    // The tracker's layers: http → domain → store.
    forbid(
      'tracker-http-not-store',
      'Routes and renderers take domain values (domain/model.ts) and read through domain functions.',
      { path: `${TRACKER}http/` },
      { path: `${TRACKER}store/` },
    ),
    forbid(
      'tracker-http-not-store-access',
      'The Tracker keeps its store under a key only the domain imports (domain/store-access.ts): routes call domain functions, never the store through the Tracker (test/layers.test.ts reads http/ for `.store` too).',
      { path: `${TRACKER}(codehost/)?http/` },
      { path: `${TRACKER}domain/store-access\\.ts$` },
    ),
    forbid('tracker-domain-not-http', 'The domain knows nothing of HTTP.', { path: `${TRACKER}domain/` }, { path: `${TRACKER}http/` }),
    forbid('tracker-store-not-http', 'The store knows nothing of HTTP.', { path: `${TRACKER}store/` }, { path: `${TRACKER}http/` }),
    forbid(
      'tracker-store-not-domain',
      "The store reads and writes the tracker's values (src/model.ts, below all three layers, which imports nothing) and knows no domain rule.",
      { path: `${TRACKER}store/` },
      { path: `${TRACKER}domain/` },
    ),
    // The kit (src/kit/): what the tracker and the code host both use, below both.
    forbid(
      'kit-is-the-floor',
      "The kit (web pages' HTML and frame, token hashing, seed checks, the refused-body guard) sits below the tracker and the code host: it imports neither, nor the composition.",
      { path: `${TRACKER}kit/` },
      { path: `${TRACKER}(http|domain|store|codehost)/|${TRACKER}(server|cli|index)\\.ts$` },
    ),
    // The code host (src/codehost/, ARCHITECTURE §14) is a module of its own: the tracker's layers
    // never import it; only the composition (server.ts, cli.ts, index.ts) puts the two together.
    forbid(
      'tracker-not-codehost',
      "The tracker's domain, store and HTTP layers know nothing of the code host; the board asks it through one injected function.",
      { path: `${TRACKER}(domain|store|http)/` },
      { path: `${TRACKER}codehost/` },
    ),
    // The code host's layers: http → domain → store, its values (codehost/model.ts) below all three,
    // git beside them; of the tracker it uses the kit, and its store the tracker's store context.
    forbid(
      'codehost-model-below',
      "The code host's values (codehost/model.ts) sit below its layers and import nothing.",
      { path: `${TRACKER}codehost/model\\.ts$` },
      { path: `${TRACKER}` },
    ),
    forbid(
      'codehost-domain-not-http',
      "The code host's domain knows nothing of HTTP (GitHub's error shape is made at the HTTP edge) nor of the tracker's layers.",
      { path: `${TRACKER}codehost/domain/` },
      { path: `${TRACKER}(codehost/)?http/|${TRACKER}(domain|store)/` },
    ),
    forbid(
      'codehost-store-not-up',
      "The code host's store knows nothing of HTTP, git or the domain's rules: it reads and writes codehost/model.ts values on the tracker's store context.",
      { path: `${TRACKER}codehost/store/` },
      { path: `${TRACKER}codehost/(http|git|domain)/|${TRACKER}(http|domain)/` },
    ),
    forbid(
      'codehost-http-not-store',
      "The code host's routes and pages call its domain functions, never its store or the tracker's.",
      { path: `${TRACKER}codehost/http/` },
      { path: `${TRACKER}codehost/store/|${TRACKER}store/` },
    ),
    forbid(
      'codehost-http-not-store-access',
      'The CodeHost keeps its store and git under keys only the domain imports (codehost/domain/store-access.ts): routes and pages call domain functions (test/layers.test.ts reads codehost/http/ for `.store` too).',
      { path: `${TRACKER}codehost/http/` },
      { path: `${TRACKER}codehost/domain/store-access\\.ts$` },
    ),
    forbid(
      'codehost-http-not-tracker',
      "The code host's HTTP edge uses the kit, not the tracker's HTTP or domain (except ApiError, which the tracker's own hooks throw before the code host's scope answers in GitHub's shape).",
      { path: `${TRACKER}codehost/http/` },
      { path: `${TRACKER}http/|${TRACKER}domain/(?!errors\\.ts$)` },
    ),
    forbid(
      'codehost-git-standalone',
      "The git layer runs git over bare repositories and knows nothing of the database, the REST interface or the domain's rules.",
      { path: `${TRACKER}codehost/git/` },
      { path: `${TRACKER}codehost/(store|http|domain)/|${TRACKER}(store|http|domain)/` },
    ),
    // Workspaces resolve through node_modules links (to their dist/), or stay bare names when unbuilt.
    forbid(
      'jst-config-not-client',
      "jst's settings depend on no client code: the address helpers they share with the client live in @jst/url.",
      { path: '^packages/jst/src/config/' },
      { path: '(^|/)packages/client/|(^|/)node_modules/@jst/client/|^@jst/client$' },
    ),
    // jst: core/ is the floor (the context, errors, output, prompts, text, the settings' words); what the
    // context needs of config/ and codehost/ is injected by the composition (src/compose.ts).
    forbid(
      'jst-core-is-the-floor',
      'core/ imports nothing else of jst: only its own files, the workspaces @jst/client, @jst/adf, @jst/url, @jst/protocol and node built-ins (the configuration, tracker clients and code host reach the context from src/compose.ts).',
      { path: '^packages/jst/src/core/' },
      {
        pathNot:
          '^packages/jst/src/core/|(^|/)packages/(client|adf|url|protocol)/|(^|/)node_modules/@jst/(client|adf|url|protocol)/|^@jst/(client|adf|url|protocol)$',
        dependencyTypesNot: ['core'],
      },
    ),
    // jst: a folder per command (commands/<noun>/<verb>/); what two commands share lives below them.
    forbid(
      'jst-command-folders-apart',
      'A command folder (commands/<noun>/<verb>/) imports no other command folder: what two commands share goes to phase/ (or commands/fields.ts, outputs.ts for their declarations).',
      { path: '^packages/jst/src/commands/([^/]+)/([^/]+)/' },
      { path: '^packages/jst/src/commands/[^/]+/[^/]+/', pathNot: '^packages/jst/src/commands/$1/$2/' },
    ),
    forbid(
      'jst-rules-below-commands',
      'plan/, start/, dispatch/, healthcheck/ and phase/ import only core/, config/, git/, codehost/, phase/, their own folder, the workspaces @jst/client, @jst/adf, @jst/url, @jst/protocol and node built-ins: never a command, a face or one another.',
      { path: '^packages/jst/src/(plan|start|dispatch|healthcheck|phase)/' },
      {
        pathNot:
          '^packages/jst/src/($1|core|config|git|codehost|phase)/|(^|/)packages/(client|adf|url|protocol)/|(^|/)node_modules/@jst/(client|adf|url|protocol)/|^@jst/(client|adf|url|protocol)$',
        dependencyTypesNot: ['core'],
      },
    ),
    forbid(
      'jst-specs-not-faces',
      "A command spec knows nothing of its faces: commander and the MCP SDK are loaded by program.ts and mcp/ alone (jst mcp's own spec is the face's, mcp/command.ts).",
      { path: '^packages/jst/src/commands/' },
      { path: '^packages/jst/src/(program|cli-specs|compose)\\.ts$|(^|/)node_modules/(commander|@modelcontextprotocol)/|^packages/jst/src/mcp/' },
    ),
    forbid(
      'tracker-not-client',
      'The server and the client meet only over HTTP: jst-tracker imports neither @jst/client nor jst (what both must know is in @jst/protocol).',
      { path: TRACKER },
      { path: '(^|/)packages/(client|jst)/|(^|/)node_modules/(@jst/client|jst)/|^(@jst/client|jst)$' },
    ),
    forbid(
      'protocol-standalone',
      '@jst/protocol, below both programs, imports no other workspace.',
      { path: '^packages/protocol/src/' },
      { path: '(^|/)packages/(?!protocol/)|(^|/)node_modules/@jst/|^@jst/' },
    ),
    forbid(
      'adf-standalone',
      '@jst/adf imports no other workspace.',
      { path: '^packages/adf/src/' },
      { path: '(^|/)packages/(?!adf/)|(^|/)node_modules/@jst/|^@jst/' },
    ),
  ],
  options: {
    tsPreCompilationDeps: true,
    // A workspace package reached through its link is checked as a target, not followed: each
    // package is judged on its own sources.
    doNotFollow: { path: ['node_modules', '/dist/'] },
    exclude: { path: '/test/|\\.test\\.ts$' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.js', '.mjs', '.cjs'],
    },
  },
};
