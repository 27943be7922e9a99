import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { ensureHost, type OpenClawHost } from './openclaw-host.js';

// The plugin declares OpenClaw's API structurally (openclaw is not a dependency). This
// compiles it against the published host types: assigning the plugin to the host's
// `OpenClawPluginDefinition` makes tsc check that the host's `OpenClawPluginApi` fits what
// `register` expects — every hook's event and context, the tool shape, the service — with
// strict function types. It also confirms `before_agent_start` is gone from current hosts,
// the reason the plugin registers it only on old ones.

const run = promisify(execFile);
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

const check = (pluginEntry: string) => `import type {
  AnyAgentTool,
  OpenClawPluginApi,
  OpenClawPluginDefinition,
} from 'openclaw/plugin-sdk/plugin-entry';
import memoirPlugin from '${pluginEntry}';
import type {
  OpenClawHookHandlers,
  OpenClawPluginApi as MemoirSlice,
  OpenClawService,
  OpenClawTool,
  OpenClawToolContext,
} from '${pluginEntry.replace(/index\.ts$/, 'openclaw-host-types.ts')}';

// The plugin is a definition the host accepts.
export const definition: OpenClawPluginDefinition = memoirPlugin;

// Each handler, passed where the host takes it: the host's events and contexts must fit
// what the handlers read (parameters are checked contravariantly).
export function hooks(api: OpenClawPluginApi, handlers: OpenClawHookHandlers): void {
  api.on('before_prompt_build', handlers.before_prompt_build);
  api.on('agent_end', handlers.agent_end);
  api.on('session_end', handlers.session_end);
  api.on('before_reset', handlers.before_reset);
}

// The tool factory and the service, where the host takes them.
export function registrations(
  api: OpenClawPluginApi,
  factory: (ctx: OpenClawToolContext) => OpenClawTool | null | undefined,
  service: OpenClawService,
): void {
  api.registerTool(factory, { name: 'memory_recall' });
  api.registerService(service);
}

// The plugin's tools are tools the host runs.
export const tool = (value: OpenClawTool): AnyAgentTool => value;

// The members the plugin reads from the api exist with the types it expects.
export const slice = (api: OpenClawPluginApi): Pick<MemoirSlice, 'id' | 'pluginConfig' | 'logger' | 'runtime' | 'resolvePath'> => api;

// Current hosts no longer know before_agent_start.
export const legacy = (api: OpenClawPluginApi) =>
  // @ts-expect-error before_agent_start was removed from the hook names (2026.8).
  api.on('before_agent_start', () => undefined);
`;

/** Compiler options of the check (see research/openclaw-plugin-api.md, addendum 2026-11-23). */
const compilerOptions = {
  target: 'ES2023',
  lib: ['ES2023', 'DOM'],
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  strict: true,
  exactOptionalPropertyTypes: false,
  noEmit: true,
  // openclaw's own .d.ts files need Node 22 types and @types/ws; only the plugin is checked.
  skipLibCheck: true,
  allowImportingTsExtensions: true,
  verbatimModuleSyntax: true,
  types: ['node'],
  typeRoots: [join(repo, 'node_modules', '@types')],
};

/** Type-check the plugin against the host's types; resolves with tsc's (empty) output, rejects with its errors. */
export async function typecheckPlugin(host: OpenClawHost): Promise<void> {
  const dir = join(host.prefix, 'memoir-typecheck');
  mkdirSync(dir, { recursive: true });
  const entry = join(repo, 'src', 'integrations', 'openclaw', 'index.ts');
  writeFileSync(join(dir, 'check.mts'), check(pathToFileURL(entry).pathname));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['check.mts'] }, null, 2));
  const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
  const started = Date.now();
  try {
    await run(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    throw new Error(
      `the plugin does not type-check against openclaw's types:\n${failed.stdout ?? ''}${failed.stderr ?? ''}`,
    );
  }
  console.log(
    `typecheck: ${relative(repo, entry)} compiles against openclaw/plugin-sdk/plugin-entry (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await typecheckPlugin(await ensureHost());
}
