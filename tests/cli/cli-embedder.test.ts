import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CliIo, runCli } from '../../src/cli/index.js';
import { captureOutput } from '../helpers/cli-output.js';

// The CLI over a store built with a non-default embedder: an OpenAI-compatible server on
// 127.0.0.1 (the wire format Ollama, LM Studio and vLLM speak), named in config.json.

const DIMENSIONS = 16;
const MODEL = 'mini-embed';

interface EmbeddingRequest {
  headers: IncomingHttpHeaders;
  model: string;
  input: string[];
}

const requests: EmbeddingRequest[] = [];
let server: Server;
let baseURL: string;
let embedderId: string;

/** Bag of words hashed into 16 dimensions: texts sharing words get close vectors. */
function embed(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    let hash = 7;
    for (const char of word.slice(0, 5)) hash = (hash * 31 + char.charCodeAt(0)) % 10_007;
    vector[hash % DIMENSIONS]! += 1;
  }
  return vector;
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { model: string; input: string[] };
      if (!req.url?.endsWith('/embeddings')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'no route' } }));
        return;
      }
      requests.push({ headers: req.headers, model: body.model, input: body.input });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'list',
          data: body.input.map((text, index) => ({ object: 'embedding', index, embedding: embed(text) })),
          model: body.model,
          usage: { prompt_tokens: body.input.length, total_tokens: body.input.length },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  baseURL = `http://127.0.0.1:${port}/v1`;
  embedderId = `openai:${MODEL}@127.0.0.1:${port}:${DIMENSIONS}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const dirs: string[] = [];

beforeEach(() => {
  requests.length = 0;
});

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'memoir-cli-embedder-'));
  dirs.push(dir);
  return dir;
}

/** A home whose config.json names the loopback embedder. */
function openaiHome(extra: Record<string, unknown> = {}): string {
  const home = tempDir();
  writeFileSync(
    join(home, 'config.json'),
    JSON.stringify({
      embedderProvider: 'openai',
      embedderModel: MODEL,
      embedderBaseUrl: baseURL,
      embedderDimensions: DIMENSIONS,
      ...extra,
    }),
  );
  return home;
}

const capture = () => captureOutput();

async function memoir(argv: string[], env: Record<string, string>) {
  const stdout = capture();
  const stderr = capture();
  const io: CliIo = { stdout, stderr, env };
  const code = await runCli(argv, io);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

const DEPLOY = 'Deployed the castle server to production on Friday evening.';
const TEA = 'Peter prefers green tea over coffee in the morning.';

async function seed(home: string): Promise<{ deploy: string; tea: string }> {
  const ids: string[] = [];
  for (const text of [DEPLOY, TEA]) {
    const run = await memoir(['retain', text, '--json'], { MEMOIR_HOME: home });
    expect(run.code, run.stderr).toBe(0);
    ids.push((JSON.parse(run.stdout) as { ids: string[] }).ids[0]!);
  }
  return { deploy: ids[0]!, tea: ids[1]! };
}

function exportLines(path: string): string[] {
  return readFileSync(path, 'utf8').trimEnd().split('\n');
}

describe('the CLI opens a store with the embedder config.json names', () => {
  it('round-trips retain, recall, stats, export and import through an OpenAI-compatible server', async () => {
    const home = openaiHome();
    await seed(home);
    // Both memories were embedded by the configured server and model.
    expect(requests.map((request) => request.model)).toEqual([MODEL, MODEL]);
    expect(requests.flatMap((request) => request.input)).toEqual([
      expect.stringContaining('castle server'),
      expect.stringContaining('green tea'),
    ]);

    const recalled = await memoir(['recall', 'castle server deployment', '--json'], { MEMOIR_HOME: home });
    expect(recalled.code, recalled.stderr).toBe(0);
    const results = (JSON.parse(recalled.stdout) as { results: Array<{ memory: { content: string } }> }).results;
    expect(results[0]!.memory.content).toBe(DEPLOY);
    // The query was embedded by the server too.
    expect(requests.at(-1)!.input).toEqual(['castle server deployment']);

    const stats = await memoir(['stats', '--json'], { MEMOIR_HOME: home });
    expect(stats.code, stats.stderr).toBe(0);
    const view = JSON.parse(stats.stdout) as Record<string, unknown>;
    expect(view).toMatchObject({ memories: 2, embedder: { id: embedderId, dimensions: DIMENSIONS } });
    expect(view.configuredEmbedder).toBeUndefined();

    const file = join(tempDir(), 'memories.jsonl');
    expect((await memoir(['export', file], { MEMOIR_HOME: home })).code).toBe(0);
    const lines = exportLines(file);
    expect(JSON.parse(lines[0]!)).toMatchObject({ embedder: { id: embedderId, dimensions: DIMENSIONS } });
    expect(
      lines.filter((line) => line.startsWith('{"type":"memory"') && !line.includes('"embedding":null')),
    ).toHaveLength(2);

    // A second home configured the same way keeps every embedding and answers the same.
    const second = openaiHome();
    const imported = await memoir(['import', file, '--json'], { MEMOIR_HOME: second });
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ memories: 2, skippedEmbeddings: 0 });
    expect(imported.stderr).toBe('');
    const reexported = join(tempDir(), 'again.jsonl');
    expect((await memoir(['export', reexported], { MEMOIR_HOME: second })).code).toBe(0);
    expect(exportLines(reexported).sort()).toEqual(lines.sort());
    const again = await memoir(['recall', 'castle server deployment', '--json'], { MEMOIR_HOME: second });
    expect(again.code, again.stderr).toBe(0);
    expect(
      (JSON.parse(again.stdout) as { results: Array<{ memory: { content: string } }> }).results[0]!.memory.content,
    ).toBe(DEPLOY);
  });

  it('sends the key from the variable embedderApiKeyEnv names, never from config.json', async () => {
    const home = openaiHome({ embedderApiKeyEnv: 'MEMOIR_TEST_EMBEDDER_KEY' });
    const run = await memoir(['retain', TEA], { MEMOIR_HOME: home, MEMOIR_TEST_EMBEDDER_KEY: 'sk-test-123' });
    expect(run.code, run.stderr).toBe(0);
    expect(requests[0]!.headers.authorization).toBe('Bearer sk-test-123');
  });

  it('takes the embedder from MEMOIR_EMBEDDER_* variables as well', async () => {
    const home = tempDir();
    const env = {
      MEMOIR_HOME: home,
      MEMOIR_EMBEDDER_PROVIDER: 'openai',
      MEMOIR_EMBEDDER_MODEL: MODEL,
      MEMOIR_EMBEDDER_BASE_URL: baseURL,
      MEMOIR_EMBEDDER_DIMENSIONS: String(DIMENSIONS),
    };
    expect((await memoir(['retain', TEA], env)).code).toBe(0);
    const stats = JSON.parse((await memoir(['stats', '--json'], env)).stdout) as { embedder: { id: string } };
    expect(stats.embedder.id).toBe(embedderId);
  });
});

describe('a store built with another embedder than the configured one', () => {
  /** The same home, read with the default (local) embedder: config.json is bypassed by an empty one. */
  function localEnv(home: string): Record<string, string> {
    const empty = join(tempDir(), 'local.json');
    writeFileSync(empty, '{}');
    return { MEMOIR_HOME: home, MEMOIR_CONFIG: empty };
  }

  it('works for stats, list, get, export, invalidate and forget, which need no vectors', async () => {
    const home = openaiHome();
    const { deploy, tea } = await seed(home);
    requests.length = 0;
    const env = localEnv(home);

    const stats = await memoir(['stats', '--json'], env);
    expect(stats.code, stats.stderr).toBe(0);
    expect(JSON.parse(stats.stdout)).toMatchObject({
      memories: 2,
      embedder: { id: embedderId, dimensions: DIMENSIONS },
      configuredEmbedder: { id: 'local-hash-v1-256', dimensions: 256 },
    });
    const table = await memoir(['stats'], env);
    expect(table.stdout).toMatch(/^configured {2}local-hash-v1-256 \(256 dimensions\): not the store's/m);

    const list = await memoir(['list', '--json'], env);
    expect(list.code, list.stderr).toBe(0);
    expect((JSON.parse(list.stdout) as { memories: unknown[] }).memories).toHaveLength(2);
    expect((await memoir(['get', deploy], env)).code).toBe(0);

    // The export names the store's own embedder, so its vectors stay usable.
    const file = join(tempDir(), 'out.jsonl');
    expect((await memoir(['export', file], env)).code).toBe(0);
    expect(JSON.parse(exportLines(file)[0]!)).toMatchObject({ embedder: { id: embedderId } });
    expect(exportLines(file).filter((line) => line.includes('"embedding":null'))).toEqual([]);

    expect((await memoir(['invalidate', tea, '--reason', 'switched to coffee'], env)).code).toBe(0);
    expect((await memoir(['update', tea, '--importance', '0.9'], env)).code).toBe(0);
    expect((await memoir(['forget', tea], env)).code).toBe(0);
    // Nothing of that embedded anything, nor replaced the store's vectors: the configured server still recalls.
    expect(requests).toEqual([]);
    const recalled = await memoir(['recall', 'castle server', '--json'], { MEMOIR_HOME: home });
    expect(recalled.code, recalled.stderr).toBe(0);
    expect((JSON.parse(recalled.stdout) as { results: unknown[] }).results).toHaveLength(1);
  });

  it('refuses retain and recall with the settings to configure, and no hint to replace the vectors silently', async () => {
    const home = openaiHome();
    await seed(home);
    const env = localEnv(home);
    for (const argv of [
      ['recall', 'castle'],
      ['retain', 'another fact'],
      ['update', 'mem_x', '--content', 'new text'],
    ]) {
      const run = await memoir(argv, env);
      expect(run.code, argv.join(' ')).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(
        `was built with the embedder ${embedderId} (16 dimensions), but the configured embedder is local-hash-v1-256 (256 dimensions)`,
      );
      expect(run.stderr).toContain(
        `hint: Configure the embedder it was built with (embedderProvider "openai", embedderModel "${MODEL}", embedderDimensions 16 and embedderBaseUrl at 127.0.0.1:`,
      );
      expect(run.stderr).toContain('`memoir reindex --to-configured`');
    }
    const json = await memoir(['--json', 'recall', 'castle'], env);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stderr)).toMatchObject({ error: { code: 'EMBEDDER_MISMATCH', exitCode: 1 } });
  });

  it('reindexes to another embedder only when told to, and says which one it replaces', async () => {
    const home = openaiHome();
    await seed(home);
    const openai = { MEMOIR_HOME: home };
    const local = localEnv(home);

    const refused = await memoir(['reindex'], local);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `error: the store's vectors come from ${embedderId} (16 dimensions); reindexing would replace them with local-hash-v1-256 (256 dimensions)`,
    );
    expect(refused.stderr).toMatch(/hint: To replace them, run `memoir reindex --to-configured`/);
    // Still the server's vectors.
    expect((await memoir(['recall', 'castle', '--json'], openai)).code).toBe(0);

    // --embedder names the target explicitly, and says the configuration still names another.
    const toLocal = await memoir(['reindex', '--embedder', 'local', '--json'], openai);
    expect(toLocal.code, toLocal.stderr).toBe(0);
    expect(JSON.parse(toLocal.stdout)).toEqual({ reembedded: 2, embedder: 'local-hash-v1-256', replaced: embedderId });
    expect(toLocal.stderr).toBe(
      `hint: the configuration still names ${embedderId}: set embedderProvider "local" in config.json or MEMOIR_EMBEDDER_* variables, so that the other commands open the store with local-hash-v1-256.\n`,
    );
    expect((await memoir(['recall', 'castle'], local)).code).toBe(0);
    // Now the openai configuration is the one that differs.
    expect((await memoir(['recall', 'castle'], openai)).code).toBe(1);

    requests.length = 0;
    const back = await memoir(['reindex', '--to-configured'], openai);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toBe(
      `Re-embedded 2 memories with ${embedderId}, replacing the vectors of local-hash-v1-256.\n`,
    );
    expect(requests.map((request) => request.model)).toEqual([MODEL]);
    expect((await memoir(['recall', 'castle'], openai)).code).toBe(0);

    // Reindexing with the store's own embedder needs no confirmation.
    const same = await memoir(['reindex'], openai);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout).toBe(`Re-embedded 2 memories with ${embedderId}.\n`);
  });

  it('works for the commands that need no vectors even when the configured embedder cannot be built', async () => {
    const home = openaiHome();
    await seed(home);
    writeFileSync(
      join(home, 'config.json'),
      JSON.stringify({
        embedderProvider: 'openai',
        embedderModel: MODEL,
        embedderBaseUrl: baseURL,
        embedderDimensions: DIMENSIONS,
        embedderApiKeyEnv: 'MEMOIR_TEST_UNSET_KEY',
      }),
    );
    const env = { MEMOIR_HOME: home };
    const stats = await memoir(['stats', '--json'], env);
    expect(stats.code, stats.stderr).toBe(0);
    expect(JSON.parse(stats.stdout)).toMatchObject({
      embedder: { id: embedderId },
      configuredEmbedder: { error: expect.stringContaining('MEMOIR_TEST_UNSET_KEY') },
    });
    expect((await memoir(['list'], env)).code).toBe(0);
    expect((await memoir(['export', '-'], env)).code).toBe(0);

    const recall = await memoir(['recall', 'castle'], env);
    expect(recall.code).toBe(1);
    expect(recall.stderr).toMatch(/^error: embedder: the configured embedder \(openai, model "mini-embed" at http/);
    expect(recall.stderr).toMatch(
      /hint: Set MEMOIR_TEST_UNSET_KEY in the environment \(keys never go in config\.json\)/,
    );
  });

  it('says which setting to add for a model whose dimensions memoir does not know', async () => {
    const home = openaiHome({ embedderDimensions: null });
    const run = await memoir(['--json', 'retain', TEA], { MEMOIR_HOME: home });
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stderr)).toMatchObject({
      error: {
        code: 'CONFIG_INVALID',
        field: 'embedderDimensions',
        suggestion: expect.stringMatching(/^Set embedderDimensions \(MEMOIR_EMBEDDER_DIMENSIONS\)/),
      },
    });
  });

  it('refuses model settings with the local provider rather than ignoring them', async () => {
    const home = tempDir();
    const run = await memoir(['retain', TEA], { MEMOIR_HOME: home, MEMOIR_EMBEDDER_MODEL: 'nomic-embed-text' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/embedderModel is set to "nomic-embed-text", but embedderProvider is "local"/);
    expect(run.stderr).toMatch(/hint: Set embedderProvider to "openai"/);
  });
});
