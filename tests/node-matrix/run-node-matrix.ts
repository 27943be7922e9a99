import { execFile, spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify, stripVTControlCharacters } from 'node:util';
import { type CachedNode, ensureNode } from './node-binaries.js';

// `npm run test:node-matrix`: the suites that depend on the Node version — native stores
// (better-sqlite3, usearch, LanceDB), the local embedder, child-process doors (CLI, MCP), the
// framework subpaths — on each Node release line users run beside the one CI runs on. Lines
// that install the same packages share a copy of the checkout and one `npm ci` (every native
// module there is N-API, so one install loads on each version). memoir/ai-sdk runs against
// `ai` 7 here (it needs Node 22) and `ai` 6 on Node 20.
// LanceDB: Node 20 (`npm test`) runs the pinned 0.37.1, the last release for Node 20; these
// lines install the current one (0.39, which needs Node 22, with the apache-arrow it accepts
// and the @types/node ≥ 22 it asks for as a peer), so the LanceDB contract runs on both ends of
// the peer range. 0.38 and later refuse to close a handle while a call on it runs and throw on
// a table's `name` during a call ("cannot be borrowed mutably while another borrow is
// active"); the store's call gate (src/adapters/lancedb/lancedb-call-gate.ts) handles both.

const runFile = promisify(execFile);
const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The current LanceDB release and what it takes beside it (its peers: apache-arrow ≤ 18.1.0, @types/node ≥ 22). */
const CURRENT_LANCEDB = ['@lancedb/lancedb@~0.39.0', 'apache-arrow@18.1.0', '@types/node@22'];

/** The release lines tested here, and what each installs beyond the lockfile. */
// better-sqlite3 13 (Node >= 22) ships N-API prebuilds, so nothing compiles; npm picks it on
// these lines for a user too (its engines rule out Node 20, where the range resolves to 12).
// The newest line runs every version-sensitive suite; the one between it and CI's Node 20 runs
// the SQLite store, LanceDB's calls in flight, the local embedder and the CLI process (the same
// N-API binaries load on both lines, so what can differ there is how each Node loads them). The
// LanceDB contract, about 100 s of a core, runs once, on the newest line: its binary and its
// release are the same on both.
const LINES: { node: string; extra: string[]; only?: readonly string[] }[] = [
  {
    node: '22.23.3',
    extra: ['ai@7', 'better-sqlite3@^13.2.0', ...CURRENT_LANCEDB],
    only: [
      'tests/adapters/sqlite-store.test.ts',
      'tests/adapters/lancedb-calls-in-flight.test.ts',
      'tests/adapters/local-embedder.test.ts',
      'tests/cli/cli-process.test.ts',
    ],
  },
  { node: '24.21.0', extra: ['ai@7', 'better-sqlite3@^13.2.0', ...CURRENT_LANCEDB] },
];

/**
 * The suites whose subject changes with the Node version: the native stores' contracts
 * (better-sqlite3 and usearch built for this ABI, LanceDB's napi module), the local embedder,
 * the framework doors (`ai` 7 here, `ai` 6 on Node 20; LangGraph), the MCP server over stdio and
 * the CLI as a child process. The rest of the suite is plain TypeScript over these, and runs on
 * Node 20 in `npm test`. `MEMOIR_MATRIX_TESTS` (space-separated) overrides the list.
 */
const SUITES = (
  process.env.MEMOIR_MATRIX_TESTS ??
  [
    'tests/adapters/sqlite-store.test.ts',
    'tests/adapters/lancedb-store.test.ts',
    'tests/adapters/lancedb-calls-in-flight.test.ts',
    'tests/adapters/lancedb-kill.test.ts',
    'tests/adapters/local-embedder.test.ts',
    'tests/integrations/ai-sdk',
    'tests/integrations/langgraph',
    'tests/integrations/mcp-server.test.ts',
    'tests/cli/cli-process.test.ts',
  ].join(' ')
)
  .split(/\s+/)
  .filter(Boolean);

/** The suites a line runs: its own subset, unless `MEMOIR_MATRIX_TESTS` names the suites. */
function suitesOf(version: string): readonly string[] {
  const only = LINES.find((line) => line.node === version)?.only;
  return only && !process.env.MEMOIR_MATRIX_TESTS ? only : SUITES;
}

interface Outcome {
  node: string;
  lancedb: string;
  status: number;
  seconds: number;
  summary: string;
  log: string;
}

function step(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, log: NodeJS.WritableStream) {
  return new Promise<number>((resolve, reject) => {
    log.write(`\n$ ${command} ${args.join(' ')}\n`);
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.once('error', reject);
    child.once('close', (code) => resolve(code ?? 1));
  });
}

// The tracked and untracked-but-not-ignored files: what a fresh clone of this tree holds. A
// worktree's `node_modules` may be a symlink git does not ignore; it is never copied, since
// `npm ci` in the copy would empty the directory it points to.
async function copyCheckout(into: string): Promise<void> {
  const { stdout } = await runFile('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: repo,
    maxBuffer: 64 * 1024 * 1024,
  });
  const files = stdout.split('\0').filter((file) => file && !/(^|\/)node_modules(\/|$)/.test(file));
  const status = await new Promise<number>((resolve, reject) => {
    const untar = spawn('tar', ['-x', '-C', into]);
    const pack = spawn('tar', ['-c', '--null', '--files-from=-', '--ignore-failed-read'], { cwd: repo });
    pack.stdout.pipe(untar.stdin);
    pack.stdin.end(files.join('\0'));
    untar.once('error', reject);
    untar.once('close', (code) => resolve(code ?? 1));
  });
  if (status !== 0) throw new Error(`copying the checkout into ${into} failed (tar exited ${status})`);
}

/** The environment commands of `node`'s line run in: its binary first on PATH, its headers for node-gyp. */
function lineEnv(node: CachedNode): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PATH: `${dirname(node.bin)}${delimiter}${process.env.PATH ?? ''}`,
    // Should anything build from source, node-gyp uses this version's own headers.
    npm_config_nodedir: node.nodedir,
    MEMOIR_NODE_MATRIX: node.version,
  };
}

/** Run `commands` in order, logging to `logPath`; resolves to the first non-zero status, or 0. */
async function steps(commands: [string, string[]][], cwd: string, env: NodeJS.ProcessEnv, logPath: string) {
  const log = createWriteStream(logPath, { flags: 'a' });
  let status = 0;
  try {
    for (const [command, args] of commands) {
      status = await step(command, args, cwd, env, log);
      if (status !== 0) break;
    }
  } finally {
    await new Promise<void>((resolve) => log.end(resolve));
  }
  return status;
}

function installedLanceDb(checkout: string): string {
  try {
    const manifest = readFileSync(join(checkout, 'node_modules', '@lancedb', 'lancedb', 'package.json'), 'utf8');
    return /"version":\s*"([^"]+)"/.exec(manifest)?.[1] ?? '?';
  } catch {
    return '?';
  }
}

/**
 * The lines that install the same packages share one copy and one install, made with the oldest
 * of their Node versions (npm checks `engines` against the Node it runs on): every native
 * module there is N-API (better-sqlite3 13 and usearch prebuilds, LanceDB's napi-rs binary), so
 * the same node_modules loads on each, and an install is minutes of a loaded machine's CPU.
 */
async function runGroup(nodes: CachedNode[], extra: string[]): Promise<Outcome[]> {
  const work = mkdtempSync(join(tmpdir(), `memoir-node-${nodes.map((node) => node.version).join('-')}-`));
  const checkout = join(work, 'memoir');
  const installLog = join(work, 'install.log');
  const started = Date.now();
  await runFile('mkdir', ['-p', checkout]);
  await copyCheckout(checkout);
  const installStatus = await steps(
    [
      // No install scripts: the lockfile's better-sqlite3 12 would compile for minutes only to be
      // replaced below; usearch and esbuild load their prebuilt binaries without one.
      ['npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund']],
      ...(extra.length
        ? [['npm', ['install', '--no-save', '--no-audit', '--no-fund', ...extra]] as [string, string[]]]
        : []),
    ],
    checkout,
    lineEnv(nodes[0]!),
    installLog,
  );
  const installSeconds = (Date.now() - started) / 1000;
  const lancedb = installedLanceDb(checkout);
  const outcomes: Outcome[] = [];
  for (const node of nodes) {
    const lineStarted = Date.now();
    const logPath = join(work, `node-${node.version}.log`);
    const status =
      installStatus !== 0
        ? installStatus
        : await steps(
            [
              ['node', ['--version']],
              // The matrix runs at a low priority beside npm test, so a test waits longer for a core there:
              // its timeouts are generous (it checks what works on each Node, not how fast).
              [
                'npx',
                [
                  'vitest',
                  'run',
                  '--maxWorkers=1',
                  '--testTimeout=150000',
                  '--hookTimeout=180000',
                  ...suitesOf(node.version),
                ],
              ],
            ],
            checkout,
            lineEnv(node),
            logPath,
          );
    const plain = stripVTControlCharacters(readFileSync(installStatus !== 0 ? installLog : logPath, 'utf8'));
    const summary = [...plain.matchAll(/^\s*(Test Files|Tests)\s+(.*)$/gm)].map((m) => `${m[1]}: ${m[2]}`).join('; ');
    outcomes.push({
      node: node.version,
      lancedb,
      status,
      // The shared install counts towards the first line that used it.
      seconds: Math.round((Date.now() - lineStarted) / 1000 + (outcomes.length === 0 ? installSeconds : 0)),
      summary,
      log: status === 0 ? '' : plain.slice(-20_000),
    });
  }
  // A passing group's copy goes, in the background: removing a node_modules of some 30,000 files
  // takes minutes on a busy disk, and nothing waits for it.
  if (outcomes.every((outcome) => outcome.status === 0)) {
    spawn('rm', ['-rf', work], { detached: true, stdio: 'ignore' }).unref();
  }
  return outcomes;
}

async function main(): Promise<void> {
  const outcomes: Outcome[] = [];
  const groups = new Map<string, { extra: string[]; nodes: CachedNode[] }>();
  for (const line of LINES) {
    const key = line.extra.join(' ');
    const group = groups.get(key) ?? { extra: line.extra, nodes: [] };
    group.nodes.push(await ensureNode(line.node));
    groups.set(key, group);
  }
  for (const { extra, nodes } of groups.values()) {
    for (const node of nodes) console.log(`node-matrix: Node ${node.version}: ${suitesOf(node.version).join(' ')}`);
    for (const outcome of await runGroup(nodes, extra)) {
      outcomes.push(outcome);
      if (outcome.status !== 0) console.log(`--- Node ${outcome.node} failed; the end of its log ---\n${outcome.log}`);
    }
  }
  console.log('\n| Node | LanceDB | result | time |\n|---|---|---|---:|');
  for (const o of outcomes) {
    console.log(`| ${o.node} | ${o.lancedb} | ${o.status === 0 ? 'pass' : 'FAIL'}: ${o.summary} | ${o.seconds} s |`);
  }
  if (outcomes.some((o) => o.status !== 0)) process.exit(1);
}

await main();
