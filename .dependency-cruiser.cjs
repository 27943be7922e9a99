// The layer rules (CONTRIBUTING.md, "Layers"), checked by `npm run lint`. Imports only point down:
// spec → core (utilities, engine, features, client) → adapters / recorder → integrations → cli.
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
      name: 'core-basics-import-no-feature',
      severity: 'error',
      comment: 'Utilities, text and search sit below the features; the engine sits below them too.',
      from: { path: '^src/core/(utils|text|search|engine)/' },
      to: { path: '^src/core/', pathNot: '^src/core/(spec|utils|text|search|engine)/' },
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
        pathNot: ['^src/core/(spec|search|text|utils)/', '^src/adapters/$1/'],
      },
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
          '^src/core/lifecycle/transfer-encoding[.]ts$',
          '^src/core/memories/memory-builder[.]ts$',
          '^src/core/recall/format-context[.]ts$',
          '^src/core/search/vector-math[.]ts$',
        ],
        dependencyTypesNot: ['type-only'],
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
