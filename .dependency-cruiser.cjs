// The layer rules (CONTRIBUTING.md, "Layers"), checked by `npm run lint`. Imports only point down:
// spec → core (basics, engine, shared, subsystems, features, client) → adapters / recorder → integrations → cli.
// Folder-level cycles (two folders importing each other through different modules) are checked
// by scripts/check-folder-cycles.mjs, which `npm run lint` runs after this.

/** The core's feature folders: each has one or more public `*-api.ts` modules (createXxxApi and its types). */
const FEATURES = '(capture|core-block|lifecycle|memories|procedures|recall|reflect|retain|sessions|versions|workspace)';
/**
 * The core's named subsystems below the features: each is the one home of something several features
 * use (backup archives, the Markdown workspace's format, procedure files, …), and none is a feature.
 */
const SUBSYSTEMS = '(backup|conversation|embeddings|procedure-files|retention|schedule|workspace-format)';
/** The core's layers below the features: they import none of them. */
const BELOW_FEATURES = `(spec|utils|text|search|store-kit|store|engine|llm|prompts|supersession|shared|${SUBSYSTEMS.slice(1, -1)})`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle makes a feature impossible to load, test or move on its own.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'spec-imports-only-zod',
      severity: 'error',
      comment: 'Models, ports and errors depend on nothing but zod.',
      from: { path: '^src/core/spec/' },
      to: { pathNot: ['^src/core/spec/', '(^|/)node_modules/zod/'] },
    },
    {
      name: 'core-stays-inside',
      severity: 'error',
      comment: 'The core never imports adapters, the recorder, integrations, the CLI or the composition root.',
      from: { path: '^src/core/' },
      to: { path: ['^src/(adapters|recorder|integrations|cli|testing)/', '^src/[^/]+[.]ts$'] },
    },
    {
      name: 'core-does-not-load-config',
      severity: 'error',
      comment:
        'Settings (config file, environment, CLI flags → options) are read in the composition layer, src/config/, ' +
        'which may name adapters; the core only declares its option schemas and takes options.',
      from: { path: '^src/core/' },
      to: { path: '^src/config/' },
    },
    {
      name: 'core-imports-no-native-library',
      severity: 'error',
      comment: 'Importing memoir loads no native module: only adapters touch these packages.',
      from: { path: '^src/core/' },
      to: { path: '(^|/)node_modules/(better-sqlite3|sqlite-vec|@lancedb|apache-arrow|openai)/' },
    },
    {
      name: 'only-integrations-import-host-sdks',
      severity: 'error',
      comment: 'The MCP SDK serves hosts: the core, adapters and recorder never depend on it.',
      from: { path: '^src/', pathNot: '^src/(integrations|cli)/' },
      to: { path: '(^|/)node_modules/@modelcontextprotocol/' },
    },
    {
      name: 'only-the-ai-sdk-door-imports-ai',
      severity: 'error',
      comment:
        'The Vercel AI SDK (`ai`, `@ai-sdk/*`) is an optional peer: only memoir/ai-sdk may touch it, and that only for types ' +
        '(its public types are its own slice of the SDK, so the package type-checks without it).',
      from: { path: '^src/', pathNot: '^src/integrations/ai-sdk/' },
      to: { path: '(^|/)node_modules/(ai|@ai-sdk/[^/]+)/' },
    },
    {
      name: 'only-the-langgraph-door-imports-langchain',
      severity: 'error',
      comment:
        '@langchain/langgraph and @langchain/core are optional peers: only memoir/langgraph (src/integrations/langgraph) may load them.',
      from: { path: '^src/', pathNot: '^src/integrations/langgraph/' },
      to: { path: '(^|/)node_modules/@langchain/' },
    },
    {
      name: 'core-basics-import-no-feature',
      severity: 'error',
      comment: 'Utilities, text and search sit below the features; the engine sits below them too.',
      from: { path: '^src/core/(utils|text|search|store-kit|store|engine)/' },
      to: { path: '^src/core/', pathNot: '^src/core/(spec|utils|text|search|store-kit|store|engine)/' },
    },
    {
      name: 'below-features-import-no-feature',
      severity: 'error',
      comment:
        'The subsystems (backup, conversation, embeddings, procedure-files, retention, schedule, workspace-format), the small ' +
        'helpers in shared/ and the model helpers (llm, prompts, supersession) sit below every feature.',
      from: { path: `^src/core/(shared|llm|prompts|supersession|${SUBSYSTEMS.slice(1, -1)})/` },
      to: { path: '^src/core/', pathNot: `^src/core/${BELOW_FEATURES}/` },
    },
    {
      name: 'shared-imports-no-subsystem',
      severity: 'error',
      comment:
        'shared/ keeps only the small helpers several features and subsystems meet through (building memories, tallies, ' +
        'formatContext, directory locks); a helper that needs a subsystem belongs in that subsystem.',
      from: { path: '^src/core/shared/' },
      to: { path: `^src/core/${SUBSYSTEMS}/` },
    },
    {
      name: 'features-meet-through-their-api',
      severity: 'error',
      comment:
        'A feature reaches another feature only through its public api module (`<folder>/*-api.ts` or `<folder>/index.ts`: ' +
        'createXxxApi and its types), so a folder can change inside without breaking its neighbours. A helper two features ' +
        'need goes to the subsystem it belongs to, or to src/core/shared/ when it is a small helper of no subsystem.',
      from: { path: `^src/core/${FEATURES}/` },
      to: {
        path: `^src/core/${FEATURES}/`,
        pathNot: ['^src/core/$1/', `^src/core/${FEATURES}/[^/]+-api[.]ts$`, `^src/core/${FEATURES}/index[.]ts$`],
      },
    },
    {
      name: 'features-do-not-import-the-client',
      severity: 'error',
      comment: 'The client composes features; a feature that imports it closes a loop.',
      from: { path: '^src/core/', pathNot: '^src/core/client/' },
      to: { path: '^src/core/client/' },
    },
    {
      name: 'adapters-import-spec-search-text-utils',
      severity: 'error',
      comment: 'An adapter implements a port with the core basics only, and never another adapter.',
      from: { path: '^src/adapters/([^/]+)/' },
      to: {
        path: '^src/',
        pathNot: ['^src/core/(spec|search|text|utils|store-kit)/', '^src/adapters/$1/'],
      },
    },
    {
      name: 'store-kit-imports-spec-and-search',
      severity: 'error',
      comment: 'The store kit (memoir/store-kit) is what store authors build on: the port, the filter semantics and nothing of the engine.',
      from: { path: '^src/core/store-kit/' },
      to: { path: '^src/', pathNot: ['^src/core/(spec|search|text|utils|store-kit)/'] },
    },
    {
      name: 'recorder-imports-spec-and-basics',
      severity: 'error',
      from: { path: '^src/recorder/' },
      to: { path: '^src/', pathNot: ['^src/core/(spec|search|text|utils)/', '^src/recorder/'] },
    },
    {
      name: 'integrations-use-the-public-api',
      severity: 'error',
      comment:
        'Hosts consume a client; they do not reach into features or the CLI. Adapters only through their package entry (memoir/sqlite, memoir/openai, …).',
      from: { path: '^src/integrations/' },
      to: {
        path: '^src/',
        pathNot: [
          '^src/integrations/',
          '^src/index[.]ts$',
          '^src/create-memory[.]ts$',
          // The composition layer beside create-memory.ts: settings and the library defaults doors share.
          '^src/config/',
          '^src/core/spec/',
          '^src/core/utils/',
          '^src/adapters/[^/]+/index[.]ts$',
          '^src/recorder/index[.]ts$',
        ],
      },
    },
    {
      name: 'doors-go-through-the-client',
      severity: 'error',
      comment:
        'Doors (the CLI, MCP, OpenClaw, framework integrations) call the public API of a client built for the caller\'s scope. ' +
        'Store-level modules (transfer, backup/restore, cleanup, the engine, features over a raw MemoryStore) bypass that scope, ' +
        'so a door may import from the core only the spec, configuration, the client and the pure helpers listed here ' +
        '(types from anywhere: they carry no code).',
      from: { path: '^src/(cli|integrations)/' },
      to: {
        path: '^src/core/',
        pathNot: [
          '^src/core/(spec|config|client)/',
          // Every utility but pages.ts, which pages through a raw store.
          '^src/core/utils/(?!pages[.]ts$)',
          // Pure functions of values: no store, no engine.
          '^src/core/backup/transfer-encoding[.]ts$',
          '^src/core/shared/memory-builder[.]ts$',
          '^src/core/shared/format-context[.]ts$',
          '^src/core/search/vector-math[.]ts$',
        ],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'no-door-imports-another-door',
      severity: 'error',
      comment:
        'Each folder under src/integrations/ is a door (mcp, openclaw, ai-sdk, langgraph, ui) and stands on the public client alone: ' +
        'a door never imports another door. What doors legitimately share lives in the shared folders, the tool table ' +
        '(agent-tools/, with its entry agent-tools.ts) and the loopback HTTP guard (http-guard/); a scoped view of a client ' +
        'comes from the core (memory.withScope).',
      from: { path: '^src/integrations/([^/]+)/', pathNot: '^src/integrations/(agent-tools|http-guard)/' },
      to: {
        path: '^src/integrations/',
        pathNot: ['^src/integrations/$1/', '^src/integrations/(agent-tools|http-guard)/', '^src/integrations/agent-tools[.]ts$'],
      },
    },
    {
      name: 'shared-door-code-imports-no-door',
      severity: 'error',
      comment: 'The tool table and the HTTP guard serve every door, so they import none of them.',
      from: { path: ['^src/integrations/(agent-tools|http-guard)/', '^src/integrations/agent-tools[.]ts$'] },
      to: {
        path: '^src/integrations/',
        pathNot: ['^src/integrations/(agent-tools|http-guard)/', '^src/integrations/agent-tools[.]ts$'],
      },
    },
    {
      name: 'cli-starts-a-door-through-its-entry',
      severity: 'error',
      comment:
        'The CLI is a door too, and the one that starts others (`memoir mcp`, `memoir ui`): it reaches another door only through ' +
        "that door's entry (src/integrations/<door>/index.ts, what users import as memoir/mcp), never its inner modules.",
      from: { path: '^src/cli/' },
      to: {
        path: '^src/integrations/',
        pathNot: [
          '^src/integrations/[^/]+/index[.]ts$',
          '^src/integrations/(agent-tools|http-guard)/',
          '^src/integrations/agent-tools[.]ts$',
        ],
      },
    },
    {
      name: 'cli-loads-other-doors-lazily',
      severity: 'error',
      comment:
        'A door the CLI starts is loaded when its command runs (`await import(...)`), so `memoir recall` never loads the MCP SDK ' +
        'or the web view (types may be imported: they carry no code).',
      from: { path: '^src/cli/' },
      to: {
        path: '^src/integrations/[^/]+/index[.]ts$',
        pathNot: '^src/integrations/(agent-tools|http-guard)/',
        dependencyTypesNot: ['dynamic-import', 'type-only'],
      },
    },
    {
      name: 'web-view-is-a-thin-door',
      severity: 'error',
      comment:
        'The web view (memoir ui) renders what a client returns: it reaches other integrations only for the shared HTTP guard, ' +
        'and loads no host SDK and no client framework.',
      from: { path: '^src/integrations/ui/' },
      to: {
        path: ['^src/integrations/(?!ui/|http-guard/)', '(^|/)node_modules/(@modelcontextprotocol|react|vue|preact|svelte|lit)/'],
      },
    },
    {
      name: 'http-guard-stands-alone',
      severity: 'error',
      comment: 'The loopback guard every HTTP door shares depends on nothing but the spec and utilities.',
      from: { path: '^src/integrations/http-guard/' },
      to: { path: '^src/', pathNot: ['^src/integrations/http-guard/', '^src/core/(spec|utils)/'] },
    },
    {
      name: 'contracts-use-the-public-api',
      severity: 'error',
      comment:
        'The shipped store contracts (memoir/testing/contracts) test a store as its outside author would: ' +
        'through the root entry and memoir/testing only, never core or adapter internals.',
      from: { path: '^src/testing/contracts/' },
      to: { path: '^src/', pathNot: ['^src/testing/', '^src/index[.]ts$'] },
    },
    {
      name: 'only-the-contracts-import-vitest',
      severity: 'error',
      comment: 'vitest is an optional peer: only memoir/testing/contracts may load it, never memoir or memoir/testing.',
      from: { path: '^src/', pathNot: '^src/testing/contracts/' },
      to: { path: '(^|/)node_modules/vitest/' },
    },
    {
      name: 'only-the-cli-imports-the-cli',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'], exportsFields: ['exports'], conditionNames: ['import', 'node'] },
  },
};
