import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { createLanceStore } from '../../src/adapters/lancedb/index.js';
import { createMemoriesAiProvider } from '../../src/adapters/memories-ai/index.js';
import { createMemory, type Memory } from '../../src/index.js';
import { MemoriesAiServer } from '../helpers/memories-ai-server.js';
import { writeTestVideo } from '../helpers/video-files.js';
import { type MockModelServer, startMockModel } from './mock-model-server.js';
import {
  ensureHost,
  HOST_VERSIONS,
  hostEnv,
  type OpenClawHost,
  openclaw,
  portOpen,
  type StartedProcess,
  startOpenclaw,
  waitFor,
} from './openclaw-host.js';
import { typecheckPlugin } from './typecheck-plugin.js';

// `npm run test:openclaw`: memoir's plugin inside a real OpenClaw gateway. Node 26 and
// openclaw come from the cache (ensureHost); the model is the loopback mock, the only
// scripted part. The plugin is installed from this checkout (`plugins install --link`), runs
// on LanceDB (its native module is N-API, so the checkout's build loads under Node 26) and
// extracts with the mock model. Turns go through the gateway with `openclaw agent`:
// 1. Alice says two things in one session: the plugin captures them (four messages), and the
//    store holds extracted memories with all three tiers;
// 2. Alice asks in a new session: the prompt the model receives holds <agent-experience>
//    with the first session's memory;
// 3. Bob (another sender) asks the same: his prompt holds nothing of Alice's;
// 4. Alice asks the agent to call memory_store and memory_recall: the tools answer through
//    the gateway, and what memory_store kept reaches her next prompt through the hook (the
//    tool and the hook resolve the same scope);
// 5. memory-lancedb (a stand-in with its id, slot, tools and recall block) is installed and
//    enabled beside memoir, and the gateway restarted: memoir registers no tools and logs why,
//    its hooks still recall and capture (and log a SKIP decision), memory-lancedb's tools answer
//    under their names, and nothing clashes.
// Between 4 and 5, on the same gateway, the loops of seeds 004 and 000 from the agent's side:
// a. the workspace (`workspace`): a turn's prompt holds a note of memory/YYYY-MM-DD.md; the
//    file is edited while the gateway runs, and a later turn's prompt holds the new text only;
// b. the core block: the agent calls memory_core_append; Alice's next prompt holds the block
//    first, Bob's does not hold it;
// c. recorded steps (`video`): the agent calls memory_recall_steps, which searches the loopback
//    Memories AI server, draws key frames with ffmpeg and names the steps with the mock's
//    scripted vision answers: "On Feb 10, 2026 at 14:30 UTC, the user: 1) …".
// Every process started is stopped by its PID, and the temporary HOME is removed.

const exec = promisify(execFile);
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TOKEN = 'memoir-e2e-token';
// The CLI's turns name no sender: each is stored under its chat, `chat:<to>` (`chat:<channel>:<to>`
// when the host names a channel) — by the hook and by the tools alike.
const ALICE = { to: '+15550001' };
const BOB = { to: '+15550002' };

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`assertion failed: ${message}`);
}

const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** The gateway loads dist/openclaw.js: build it when it is missing or older than the sources. */
async function ensureBuilt(): Promise<void> {
  const built = join(repo, 'dist', 'openclaw.js');
  // For a run right after `npm run build` whose sources changed since (another edit in the tree).
  if (process.env.MEMOIR_E2E_NO_BUILD === '1' && existsSync(built)) return;
  if (existsSync(built) && statSync(built).mtimeMs >= newestMtime(join(repo, 'src'))) return;
  const started = Date.now();
  console.log('e2e: building dist/ (npm run build)');
  await exec('npm', ['run', 'build'], { cwd: repo, maxBuffer: 64 * 1024 * 1024 });
  console.log(`e2e: built in ${seconds(started)}`);
}

/**
 * The directory `plugins install --link` links: this package as the host sees it — its
 * manifest, and an entry that loads the build its package.json names under `openclaw.extensions`.
 * The host fingerprints a linked directory to notice edits (and refuses to load a plugin whose
 * files change meanwhile); the checkout itself, with node_modules and other work in progress,
 * is too large and too busy for that, so the link points at this small copy of its face.
 */
function pluginDirectory(home: string): string {
  const dir = join(home, 'memoir-plugin');
  mkdirSync(dir, { recursive: true });
  const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
    version: string;
    openclaw: { extensions: string[] };
  };
  const entry = pkg.openclaw.extensions[0];
  assert(entry, 'package.json names the plugin entry under openclaw.extensions');
  copyFileSync(join(repo, 'openclaw.plugin.json'), join(dir, 'openclaw.plugin.json'));
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'memoir', version: pkg.version, type: 'module', openclaw: { extensions: ['./index.js'] } }),
  );
  writeFileSync(
    join(dir, 'index.js'),
    `export { default } from ${JSON.stringify(pathToFileURL(join(repo, entry)).href)};\n`,
  );
  return dir;
}

/** What the plugin's loops (a–c) run against: the workspace directory and the Memories AI server. */
interface LoopSources {
  workspace: string;
  memoriesAi: MemoriesAiServer;
}

/** openclaw.json: the mock model for the agent, and the plugin's config and hook policy. */
function configure(home: string, mock: MockModelServer, dbPath: string, sources: LoopSources): void {
  const file = join(home, '.openclaw', 'openclaw.json');
  const config = JSON.parse(readFileSync(file, 'utf8')) as {
    plugins: { entries: Record<string, Record<string, unknown>> };
    [key: string]: unknown;
  };
  config.plugins.entries.memoir = {
    ...config.plugins.entries.memoir,
    enabled: true,
    hooks: { allowConversationAccess: true },
    config: {
      store: 'lancedb',
      dbPath,
      llm: { baseUrl: mock.baseUrl, apiKey: 'sk-mock', model: 'mock-1' },
      extractMinMessages: 4,
      workspace: sources.workspace,
      video: {
        apiKey: sources.memoriesAi.apiKey,
        baseUrl: sources.memoriesAi.baseUrl,
        requestsPerSecond: 1000,
        vision: { baseUrl: mock.baseUrl, apiKey: 'sk-mock', model: 'mock-vision' },
      },
    },
  };
  config.models = {
    providers: {
      mock: {
        baseUrl: mock.baseUrl,
        apiKey: 'sk-mock',
        api: 'openai-completions',
        models: [
          {
            id: 'mock-1',
            name: 'Mock',
            reasoning: false,
            input: ['text'],
            cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
            // Large enough that the host never trims the tool list to fit the prompt.
            contextWindow: 200_000,
            maxTokens: 4096,
          },
        ],
      },
    },
  };
  config.agents = { defaults: { model: { primary: 'mock/mock-1' } } };
  writeFileSync(file, JSON.stringify(config, null, 2));
}

/** One agent turn through the gateway; resolves to the reply text. */
async function turn(
  host: OpenClawHost,
  env: NodeJS.ProcessEnv,
  who: { to: string },
  sessionKey: string,
  message: string,
): Promise<string> {
  const started = Date.now();
  const args = [
    'agent',
    '--agent',
    'main',
    '--to',
    who.to,
    '--session-key',
    sessionKey,
    '--message',
    message,
    '--json',
  ];
  let stdout = '';
  // Two refusals happen at the connection, before the turn is sent, so retrying them cannot run
  // the turn twice: on a loaded machine the gateway's event loop can stall past the client's
  // connect deadline ("Gateway not reachable", or "gateway request timeout for connect" when the
  // handshake itself times out), and a gateway that already listens refuses
  // connections while its channels and sidecars still start ("gateway starting; retry shortly",
  // which the gateway marks retryable). Any other failure is the test's verdict.
  for (let attempt = 1; ; attempt += 1) {
    try {
      ({ stdout } = await openclaw(host, args, env));
      break;
    } catch (error) {
      const refusedAtConnect =
        /Gateway not reachable|gateway starting; retry shortly|gateway request timeout for connect/.test(
          (error as Error).message,
        );
      if (!refusedAtConnect || attempt === 8) throw error;
      console.log(`e2e: the gateway did not take the connection (attempt ${attempt}); retrying`);
      await new Promise((resolve) => setTimeout(resolve, Math.min(5_000 * attempt, 15_000)));
    }
  }
  const reply = JSON.parse(stdout) as { status?: string; result?: { payloads?: Array<{ text?: string }> } };
  assert(reply.status === 'ok', `the turn "${message}" finished (${stdout.slice(0, 500)})`);
  const text = (reply.result?.payloads ?? []).map((payload) => payload.text ?? '').join('\n');
  console.log(`e2e: [${who.to} ${sessionKey}] "${message}" → "${text.slice(0, 160)}" (${seconds(started)})`);
  return text;
}

/** The user-side text of the newest agent request the model received (prompt and injected context). */
function lastAgentPrompt(mock: MockModelServer): string {
  const request = [...mock.requests].reverse().find((entry) => entry.caller === 'agent');
  assert(request, 'the agent called the model');
  return request.messages
    .filter((message) => message.role === 'user')
    .map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content)))
    .join('\n');
}

/** The text of the newest tool result the host sent the model. */
function lastToolResult(mock: MockModelServer): string {
  for (const request of [...mock.requests].reverse()) {
    const result = request.messages.findLast((message) => message.role === 'tool');
    if (result) return typeof result.content === 'string' ? result.content : JSON.stringify(result.content);
  }
  return '';
}

// memoir's block carries its process's nonce: `<agent-experience nonce="…">`.
const experienceOf = (prompt: string) =>
  /<agent-experience nonce="[\w-]+">[\s\S]*?<\/agent-experience>/.exec(prompt)?.[0];

/** The memories stored for the chat `to` (`chat:<channel>:<to>`, whatever channel the host names), and its user id. */
async function storedMemories(dbPath: string, to: string): Promise<{ userId: string; memories: Memory[] }> {
  const reader = createMemory({ store: createLanceStore({ uri: dbPath }) });
  try {
    const all = await reader.list({ scope: { agentId: 'main' }, limit: 1000 });
    const owners = [...new Set(all.map((memory) => memory.scope.userId ?? ''))];
    const mine = owners.filter((userId) => userId.startsWith('chat:') && userId.endsWith(`:${to}`));
    assert(mine.length === 1, `one chat scope holds ${to}'s memories (owners: ${owners.join(', ')})`);
    const userId = mine[0]!;
    return { userId, memories: all.filter((memory) => memory.scope.userId === userId) };
  } finally {
    await reader.close();
  }
}

// The workspace's daily note: words far from the deploy talk of phases 1–3, so its recall
// stays out of those prompts (Bob's included).
const WORKSPACE_NOTE = (place: string) =>
  `# 2026-02-09\n\n## Retain\n\n- W @Peter: Peter keeps the spare keys in the ${place}.\n`;
const RECORDED = '2026-02-10T14:30:05.000Z';
const STEPS = ['Opened github.com/settings/keys in the browser', "Clicked the green 'New SSH key' button"];

/** The workspace directory and the Memories AI server holding one recording, for the loops a–c. */
async function loopSources(home: string): Promise<LoopSources> {
  const workspace = join(home, 'agent-workspace');
  mkdirSync(join(workspace, 'memory'), { recursive: true });
  writeFileSync(join(workspace, 'memory', '2026-02-09.md'), WORKSPACE_NOTE('oak drawer'));
  const memoriesAi = await new MemoriesAiServer().start();
  const provider = createMemoriesAiProvider({
    apiKey: memoriesAi.apiKey,
    baseUrl: memoriesAi.baseUrl,
    minIntervalMs: 0,
  });
  const video = writeTestVideo(join(home, 'rec-20260210-143005-0a0b0c0d.mp4'), 6);
  const { videoId } = await provider.upload({ filePath: video, recordedAt: RECORDED });
  memoriesAi.searchResults = [{ video_id: videoId, score: 0.92, start: 1, end: 5, captured_at: RECORDED }];
  return { workspace, memoriesAi };
}

/** The loops a–c on the running gateway (see the header). */
async function agentLoops(
  host: OpenClawHost,
  env: NodeJS.ProcessEnv,
  mock: MockModelServer,
  sources: LoopSources,
  since: number,
): Promise<void> {
  // a. The workspace, indexed at start: its note reaches the prompt.
  const question = 'Where does Peter keep the spare keys?';
  await turn(host, env, ALICE, 'agent:main:alice-ws-1', question);
  const first = lastAgentPrompt(mock);
  assert(/oak drawer/.test(first), `the prompt holds the workspace note (${first.slice(0, 800)})`);
  // Edited while the gateway runs: the watcher re-indexes it (debounced), and a later turn sees it.
  writeFileSync(join(sources.workspace, 'memory', '2026-02-09.md'), WORKSPACE_NOTE('walnut cabinet'));
  let edited = '';
  for (let attempt = 1; attempt <= 5 && !/walnut cabinet/.test(edited); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await turn(host, env, ALICE, `agent:main:alice-ws-${attempt + 1}`, question);
    edited = lastAgentPrompt(mock);
  }
  assert(/walnut cabinet/.test(edited), `the prompt holds the edited note (${edited.slice(0, 800)})`);
  assert(!/oak drawer/.test(edited), 'the prompt no longer holds the old note');
  console.log(`e2e: a. the workspace note, edited while the gateway ran, reached the next prompt (${seconds(since)})`);

  // b. The core block: written by a tool call, at the top of Alice's next prompt, not in Bob's.
  await turn(
    host,
    env,
    ALICE,
    'agent:main:alice-core-1',
    'call memory_core_append with text=Alice edits code in Helix.',
  );
  const appended = lastToolResult(mock);
  assert(/Helix/.test(appended), `memory_core_append answered with the block (${appended})`);
  await turn(host, env, ALICE, 'agent:main:alice-core-2', 'What should I set up on the new laptop?');
  const block = experienceOf(lastAgentPrompt(mock));
  assert(block && /Alice edits code in Helix\./.test(block), `Alice's next prompt holds her core block (${block})`);
  const title = block.indexOf('Agent experience from earlier conversations');
  assert(title === -1 || block.indexOf('Helix') < title, 'the core block comes first in the block');
  await turn(host, env, BOB, 'agent:main:bob-core-1', 'What should I set up on the new laptop?');
  assert(!/Helix/.test(lastAgentPrompt(mock)), 'Bob’s prompt holds nothing of Alice’s core block');
  console.log(`e2e: b. the core block, edited by a tool call, led Alice's next prompt:\n${block}`);

  // c. Recorded steps: searched, framed and named through the gateway.
  mock.visionSteps = STEPS;
  await turn(
    host,
    env,
    ALICE,
    'agent:main:alice-steps-1',
    'call memory_recall_steps with query=how do I add an SSH key on GitHub',
  );
  const steps = lastToolResult(mock);
  assert(
    /On Feb 10, 2026 at 14:30 UTC, the user: 1\) Opened github\.com\/settings\/keys in the browser 2\) Clicked the green/.test(
      steps,
    ),
    `memory_recall_steps answered with the recorded steps (${steps})`,
  );
  assert(
    sources.memoriesAi.requests.some((request) => request.path.includes('search')),
    'the plugin searched the Memories AI server',
  );
  assert(
    mock.requests.some((request) => request.caller === 'vision'),
    'the vision model named the steps',
  );
  console.log(`e2e: c. memory_recall_steps's result as the model read it:\n${steps.slice(0, 1200)}`);
}

/**
 * Phase 2: memory-lancedb installed and enabled beside memoir (the stand-in: see its index.js),
 * with memoir's config unchanged. The gateway starts with both; memoir registers no tools and
 * says why, memory-lancedb's tools answer under their names, nothing clashes, and memoir's hooks
 * still recall, capture, and log a SKIP decision. Returns the running gateway (the caller stops it).
 */
async function besideMemoryLanceDb(
  host: OpenClawHost,
  env: NodeJS.ProcessEnv,
  mock: MockModelServer,
  home: string,
  since: number,
): Promise<StartedProcess> {
  const standIn = join(home, 'memory-lancedb-stand-in');
  mkdirSync(standIn, { recursive: true });
  for (const file of ['openclaw.plugin.json', 'package.json', 'index.js']) {
    copyFileSync(join(dirname(fileURLToPath(import.meta.url)), 'memory-lancedb-stand-in', file), join(standIn, file));
  }
  const install = await openclaw(
    host,
    ['plugins', 'install', '--link', '--force', '--accept-capabilities', standIn],
    env,
  );
  assert(/Linked plugin path/.test(install.stdout), `memory-lancedb was linked (${install.stdout}${install.stderr})`);
  const file = join(home, '.openclaw', 'openclaw.json');
  const config = JSON.parse(readFileSync(file, 'utf8')) as {
    plugins: { entries: Record<string, Record<string, unknown>>; slots?: Record<string, string> };
  };
  config.plugins.entries['memory-lancedb'] = {
    ...config.plugins.entries['memory-lancedb'],
    enabled: true,
    hooks: { allowConversationAccess: true },
    config: {
      embedding: { apiKey: 'sk-mock', baseUrl: mock.baseUrl, model: 'mock-embed' },
      dbPath: join(home, 'memory-lancedb-rows.json'),
    },
  };
  config.plugins.slots = { ...config.plugins.slots, memory: 'memory-lancedb' };
  writeFileSync(file, JSON.stringify(config, null, 2));

  type Inspected = {
    plugin: { status: string; toolNames: string[] };
    typedHooks: Array<{ name: string }>;
    diagnostics: Array<{ level: string; message: string }>;
  };
  const inspect = async (id: string) =>
    JSON.parse((await openclaw(host, ['plugins', 'inspect', id, '--runtime', '--json'], env)).stdout) as Inspected;
  const lancedb = await inspect('memory-lancedb');
  assert(lancedb.plugin.status === 'loaded', `memory-lancedb loaded (${JSON.stringify(lancedb.diagnostics)})`);
  const memoir = await inspect('memoir');
  assert(memoir.plugin.status === 'loaded', `memoir loaded beside it (${JSON.stringify(memoir.diagnostics)})`);
  // Its core block tools, memory_reflect (the workspace is set) and the procedure tools (a switch
  // of their own) clash with none of memory-lancedb's.
  const ownTools = new Set([
    'memory_reflect',
    'memory_find_procedures',
    'memory_get_procedure',
    'memory_learn_procedure',
  ]);
  const memoirMemoryTools = memoir.plugin.toolNames.filter(
    (name: string) => !name.startsWith('memory_core_') && !ownTools.has(name),
  );
  assert(
    memoirMemoryTools.length === 0,
    `memoir registered no memory tools, only its core block, reflect and procedure tools (${memoir.plugin.toolNames.join(', ')})`,
  );
  const hooks = memoir.typedHooks.map((hook) => hook.name);
  assert(
    hooks.includes('before_prompt_build') && hooks.includes('agent_end'),
    `memoir's hooks are registered (${hooks.join(', ')})`,
  );
  for (const name of ['memory_recall', 'memory_store', 'memory_forget']) {
    assert(lancedb.plugin.toolNames.includes(name), `memory-lancedb registers ${name}`);
  }
  console.log(`e2e: memory-lancedb installed beside memoir; memoir registers no tools (${seconds(since)})`);

  const { gateway, agentEnv } = await startGateway(host, env, since);
  const log = () => gateway.output();
  try {
    assert(
      /memoir: no memory tools registered: memory-lancedb is enabled/.test(log()),
      'the gateway log says why memoir registers no memory tools',
    );
    // memory-lancedb captures the first statement; memoir gathers both, and its pipeline
    // SKIPs the second, which session 1 already said word for word.
    const session = 'agent:main:alice-lancedb-1';
    await turn(host, agentEnv, ALICE, session, 'Remember that the on-call rotation changes every Monday.');
    await waitFor('memory-lancedb to capture', () => /memory-lancedb: auto-captured [1-9]/.test(log()), 60_000);
    assert(mock.embedded.length > 0, 'memory-lancedb embedded through the /embeddings route');
    await turn(host, agentEnv, ALICE, session, 'I always prefer blue-green deploys for the staging cluster.');
    await waitFor(
      'memoir to log its SKIP decision',
      () => /memoir: skipped a memory \(duplicate of \S+\)/.test(log()),
      60_000,
    );
    console.log(`e2e: ${/memoir: skipped a memory[^\n]*/.exec(log())?.[0]}`);

    // A new session: both plugins' blocks reach the prompt.
    await turn(
      host,
      agentEnv,
      ALICE,
      'agent:main:alice-lancedb-2',
      'How do the staging blue-green deploys fit the on-call rotation on Monday?',
    );
    const prompt = lastAgentPrompt(mock);
    const relevant = /<relevant-memories>[\s\S]*?<\/relevant-memories>/.exec(prompt)?.[0];
    assert(
      relevant && /on-call rotation/.test(relevant),
      `memory-lancedb's block is in the prompt (${prompt.slice(0, 800)})`,
    );
    const experience = experienceOf(prompt);
    assert(experience && /blue-green/.test(experience), 'memoir’s <agent-experience> block is in the prompt beside it');
    console.log('e2e: the prompt holds <relevant-memories> (memory-lancedb) and <agent-experience> (memoir)');

    // memory_recall is memory-lancedb's: its answer, not memoir's. (A host that lists the tool
    // behind its tool-search bridge wraps the result with the tool's id, which names the plugin.)
    await turn(
      host,
      agentEnv,
      ALICE,
      'agent:main:alice-lancedb-3',
      'call memory_recall with query=on-call rotation Monday',
    );
    const recalled = lastToolResult(mock);
    assert(
      /Found \d+ memories:/.test(recalled) && /on-call rotation/.test(recalled) && !/<memories>/.test(recalled),
      `memory-lancedb answered memory_recall (${recalled})`,
    );
    const bridged = /"id":\s*"openclaw:([^:"]+):memory_recall"/.exec(recalled)?.[1];
    assert(bridged === undefined || bridged === 'memory-lancedb', `memory_recall ran as ${bridged}'s`);
    assert(!/plugin tool name conflict/.test(log()), 'no tool name clashed');
    assert(!/memoir: (recall failed|capture failed|could not store)/.test(log()), 'memoir’s hooks ran without failing');
    console.log('e2e: memory_recall answered by memory-lancedb; no tool name conflict in the gateway log');
    return gateway;
  } catch (error) {
    console.error(`e2e: gateway output (last 8000 characters):\n${log().slice(-8000)}`);
    await gateway.stop();
    throw error;
  }
}

/** Start the gateway on a free loopback port; resolves once it takes connections. */
async function startGateway(
  host: OpenClawHost,
  env: NodeJS.ProcessEnv,
  since: number,
): Promise<{ gateway: StartedProcess; agentEnv: NodeJS.ProcessEnv }> {
  const port = 19_000 + Math.floor(Math.random() * 1000);
  const gateway = startOpenclaw(
    host,
    [
      'gateway',
      'run',
      '--allow-unconfigured',
      '--bind',
      'loopback',
      '--port',
      String(port),
      '--auth',
      'token',
      '--token',
      TOKEN,
    ],
    env,
  );
  // The port opens before the gateway takes connections; its log says when it does.
  try {
    await waitFor(
      'the gateway to listen',
      async () => /http server listening/.test(gateway.output()) && (await portOpen(port)),
      180_000,
    );
  } catch (error) {
    await gateway.stop();
    throw new Error(`${(error as Error).message}\n${gateway.output().slice(-4000)}`);
  }
  console.log(`e2e: gateway ${gateway.child.pid} listening on 127.0.0.1:${port} (${seconds(since)})`);
  return { gateway, agentEnv: { ...env, OPENCLAW_GATEWAY_TOKEN: TOKEN, OPENCLAW_GATEWAY_PORT: String(port) } };
}

async function main(): Promise<void> {
  const started = Date.now();
  const host = await ensureHost();
  console.log(`e2e: host ready: Node ${HOST_VERSIONS.node}, openclaw ${HOST_VERSIONS.openclaw} (${seconds(started)})`);
  await typecheckPlugin(host);
  await ensureBuilt();

  const home = mkdtempSync(join(tmpdir(), 'memoir-openclaw-home-'));
  const dbPath = join(home, 'memoir-lancedb');
  const env = hostEnv(home);
  let mock: MockModelServer | undefined;
  let sources: LoopSources | undefined;
  let gateway: StartedProcess | undefined;
  try {
    mock = await startMockModel();
    sources = await loopSources(home);
    const install = await openclaw(
      host,
      ['plugins', 'install', '--link', '--force', '--accept-capabilities', pluginDirectory(home)],
      env,
    );
    assert(/Linked plugin path/.test(install.stdout), `the plugin was linked (${install.stdout}${install.stderr})`);
    configure(home, mock, dbPath, sources);
    const inspect = await openclaw(host, ['plugins', 'inspect', 'memoir', '--runtime', '--json'], env);
    const runtime = JSON.parse(inspect.stdout) as {
      plugin: { status: string; toolNames: string[] };
      typedHooks: Array<{ name: string }>;
      diagnostics: Array<{ level: string; message: string }>;
    };
    assert(runtime.plugin.status === 'loaded', `the plugin loaded (${JSON.stringify(runtime.diagnostics)})`);
    const registered = [...runtime.plugin.toolNames, ...runtime.typedHooks.map((hook) => hook.name)];
    for (const name of ['memory_recall', 'memory_store', 'memory_forget', 'before_prompt_build', 'agent_end']) {
      assert(registered.includes(name), `plugins inspect lists ${name} (${registered.join(', ')})`);
    }
    assert(
      !runtime.diagnostics.some((diagnostic) => /before_agent_start|blocked/.test(diagnostic.message)),
      `no hook was refused (${JSON.stringify(runtime.diagnostics)})`,
    );
    console.log(`e2e: plugin installed and inspected (${seconds(started)})`);

    const first = await startGateway(host, env, started);
    gateway = first.gateway;
    const agentEnv = first.agentEnv;
    const log = () => gateway?.output() ?? '';

    // 1. Alice's first session: four messages, captured and extracted.
    await turn(
      host,
      agentEnv,
      ALICE,
      'agent:main:alice-1',
      'I always prefer blue-green deploys for the staging cluster.',
    );
    await turn(host, agentEnv, ALICE, 'agent:main:alice-1', 'The staging database lives in the Frankfurt region.');
    await waitFor('memoir: extracted N memories', () => /memoir: extracted [1-9]\d* memories/.test(log()), 60_000);
    const { userId, memories: captured } = await storedMemories(dbPath, ALICE.to);
    // Each turn is kept as said (category conversation) beside what the model extracted.
    const turns = captured.filter((memory) => memory.category === 'conversation');
    const extracted = captured.filter(
      (memory) => memory.metadata.episode !== true && memory.category !== 'conversation',
    );
    console.log(`e2e: captured ${extracted.length} memories for ${userId}:`);
    for (const memory of extracted) {
      console.log(`  [${memory.category}] L0 ${memory.abstract}`);
      console.log(`      L1 ${(memory.overview ?? '').replace(/\n/g, ' | ')}`);
      console.log(`      L2 ${memory.content}`);
    }
    assert(extracted.length >= 2, 'both statements were extracted');
    assert(
      turns.some((memory) => memory.content === 'user: The staging database lives in the Frankfurt region.') &&
        turns.some((memory) => /^user: I always prefer blue-green deploys/.test(memory.content)),
      'both user turns were kept as said, each its own memory',
    );
    assert(
      extracted.every((memory) => memory.abstract && memory.overview && memory.content),
      'every extracted memory has L0, L1 and L2',
    );
    assert(
      extracted.some((memory) => /blue-green/.test(memory.content)),
      'the blue-green preference is among the memories',
    );

    // 2. Alice, new session: the prompt carries her experience.
    await turn(host, agentEnv, ALICE, 'agent:main:alice-2', 'How should I roll out the staging blue-green deploys?');
    const injected = experienceOf(lastAgentPrompt(mock));
    assert(injected, 'the second prompt holds an <agent-experience> block');
    assert(/blue-green/.test(injected), 'the block holds the first session’s memory');
    console.log(`e2e: injected into Alice's next prompt:\n${injected}`);
    assert(/memoir: injecting [1-9]\d* memories/.test(log()), 'the gateway log says memoir is injecting');

    // 3. Bob asks the same: nothing of Alice's reaches him.
    await turn(host, agentEnv, BOB, 'agent:main:bob-1', 'How should I roll out the staging blue-green deploys?');
    const bobPrompt = lastAgentPrompt(mock);
    assert(!bobPrompt.includes('<agent-experience'), 'Bob’s prompt holds no <agent-experience> block');
    assert(!/Frankfurt|prefer blue-green/.test(bobPrompt), 'Bob’s prompt holds none of Alice’s memories');
    console.log('e2e: Bob (another sender) received no <agent-experience> block');

    // 4. The tools, called by the model through the gateway: what each returned is what the
    // host sent back to the model as the tool's result.
    await turn(
      host,
      agentEnv,
      ALICE,
      'agent:main:alice-3',
      'call memory_store with text=The release train leaves every Thursday at noon.',
    );
    const stored = lastToolResult(mock);
    assert(/Stored memory \S+/.test(stored), `memory_store answered (${stored})`);
    await turn(host, agentEnv, ALICE, 'agent:main:alice-4', 'call memory_recall with query=release train Thursday');
    // What the tool stored, the hook recalls into the next prompt: both resolve the turn's scope alike.
    const storedInjected = experienceOf(lastAgentPrompt(mock));
    assert(
      storedInjected && /release train leaves every Thursday/.test(storedInjected),
      `the memory stored by memory_store reached the next prompt through the hook (${storedInjected})`,
    );
    const recalled = lastToolResult(mock);
    assert(
      /release train leaves every Thursday/.test(recalled),
      `memory_recall answered with the stored memory (${recalled})`,
    );
    await turn(host, agentEnv, ALICE, 'agent:main:alice-5', 'call memory_forget with query=release train');
    const forgot = lastToolResult(mock);
    assert(/Candidates|memory_id/.test(forgot), `memory_forget listed candidates (${forgot})`);
    console.log(`e2e: memory_recall's result as the model read it:\n${recalled.slice(0, 1200)}`);
    console.log('e2e: memory_store, memory_recall and memory_forget answered through the gateway');

    // a–c. The workspace, the core block and recorded steps, on the same gateway.
    await agentLoops(host, agentEnv, mock, sources, started);

    // 5. Beside memory-lancedb (seed 002's first phase), on a restarted gateway.
    await gateway.stop();
    gateway = undefined;
    gateway = await besideMemoryLanceDb(host, env, mock, home, started);
    console.log(`e2e: passed in ${seconds(started)}`);
  } catch (error) {
    if (gateway) console.error(`e2e: gateway output (last 8000 characters):\n${gateway.output().slice(-8000)}`);
    for (const request of (mock?.requests ?? []).slice(-6)) {
      const roles = request.messages.map((message) => message.role).join(',');
      console.error(
        `e2e: model request (${request.caller}) roles ${roles}; tools: ${request.tools.join(', ') || 'none'}`,
      );
    }
    throw error;
  } finally {
    await gateway?.stop();
    await mock?.close();
    sources?.memoriesAi.close();
    rmSync(home, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exitCode = 1;
});
