import { join } from 'node:path';
import { Readable } from 'node:stream';
import * as lancedb from '@lancedb/lancedb';
import { describe, expect, it } from 'vitest';
import { type CliIo, runCli } from '../../src/cli/index.js';
import { createLocalEmbedder, createMemory } from '../../src/index.js';
import { captureOutput } from '../helpers/cli-output.js';
import { tempDir } from '../helpers/stores.js';

// `memoir import --from-lancedb`: real LanceDB directories laid out as OpenClaw's
// memory-lancedb plugin and ePro v2 write them, read into a new memoir home.

async function memoir(argv: string[], home: string) {
  const stdout = captureOutput();
  const stderr = captureOutput();
  const io: CliIo = { stdout, stderr, env: { MEMOIR_HOME: home }, stdin: Readable.from([]) };
  const code = await runCli(argv, io);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

const embedder = createLocalEmbedder();
const CREATED = Date.parse('2025-03-04T05:06:07.000Z');
const UPDATED = Date.parse('2025-04-01T00:00:00.000Z');

describe('memoir import --from-lancedb', () => {
  it('imports an OpenClaw memory-lancedb table with its ids, dates and (same embedder) vectors', async () => {
    const dir = join(tempDir(), 'openclaw-lancedb');
    const texts = ['Peter prefers tea over coffee', 'The staging server reboots every Sunday night'];
    const vectors = await embedder.embed(texts);
    const db = await lancedb.connect(dir);
    await db.createTable(
      'memories',
      texts.map((text, index) => ({
        id: `oc-${index}`,
        text,
        vector: Array.from(vectors[index]!),
        importance: 0.9,
        category: 'preference',
        createdAt: CREATED + index,
      })),
    );
    db.close();
    const home = tempDir();
    const run = await memoir(['import', '--from-lancedb', dir, '--json'], home);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ table: 'memories', memories: 2, vectorsKept: 2, needEmbedding: 0 });
    const memory = createMemory({ home, logger: { log() {} } });
    const tea = await memory.get('oc-0');
    expect(tea).toMatchObject({
      id: 'oc-0',
      content: texts[0],
      category: 'preference',
      importance: 0.9,
      createdAt: new Date(CREATED).toISOString(),
    });
    const found = await memory.store.getEmbeddings(['oc-0', 'oc-1']);
    expect(Array.from(found.get('oc-1')!)).toEqual(Array.from(vectors[1]!));
    expect((await memory.recall('staging server reboot', { k: 1 })).results[0]?.memory.id).toBe('oc-1');
    await memory.close();
  });

  it("gives the imported memories the run's scope (--agent, --user), as the OpenClaw plugin reads them", async () => {
    const dir = join(tempDir(), 'scoped-lancedb');
    const [vector] = await embedder.embed(['The VPN gateway is vpn.example.org']);
    const db = await lancedb.connect(dir);
    await db.createTable('memories', [
      {
        id: 'oc-s',
        text: 'The VPN gateway is vpn.example.org',
        vector: Array.from(vector!),
        importance: 0.7,
        category: 'fact',
        createdAt: CREATED,
      },
    ]);
    db.close();
    const home = tempDir();
    const run = await memoir(['--agent', 'main', '--user', 'local', 'import', '--from-lancedb', dir], home);
    expect(run.code).toBe(0);
    const memory = createMemory({ home, logger: { log() {} } });
    expect((await memory.get('oc-s')).scope).toEqual({ agentId: 'main', userId: 'local' });
    await memory.close();
  });

  it('a scoped run never replaces another user’s memory whose id the table reuses', async () => {
    const home = tempDir();
    const bob = createMemory({ home, logger: { log() {} }, scope: { userId: 'bob' } });
    const {
      ids: [bobId],
    } = await bob.retain({ content: 'Bob keeps his bank PIN 4711 in the attic safe.' });
    await bob.close();
    const dir = join(tempDir(), 'hostile-lancedb');
    const [vector] = await embedder.embed(['hijacked by alice']);
    const db = await lancedb.connect(dir);
    await db.createTable('memories', [
      {
        id: bobId!,
        text: 'hijacked by alice',
        vector: Array.from(vector!),
        importance: 0.5,
        category: 'fact',
        createdAt: CREATED,
      },
    ]);
    db.close();
    const run = await memoir(['--user', 'alice', 'import', '--from-lancedb', dir], home);
    expect(run.code).not.toBe(0);
    const admin = createMemory({ home, logger: { log() {} } });
    expect(await admin.get(bobId!)).toMatchObject({
      content: 'Bob keeps his bank PIN 4711 in the attic safe.',
      scope: { userId: 'bob' },
    });
    await admin.close();
  });

  it('imports an ePro v2 agent_memories table; vectors of another embedder are left out', async () => {
    const dir = join(tempDir(), 'epro-lancedb');
    const db = await lancedb.connect(dir);
    await db.createTable('agent_memories', [
      {
        id: 'ep-1',
        category: 'cases',
        abstract: 'Fixed the flaky deploy by pinning the runner image.',
        overview: '## Problem\nflaky deploy\n## Fix\npin the image',
        content: 'The deploy failed one run in five; pinning the CI runner image fixed it.',
        // 1536 floats, as text-embedding-3-small writes them: not the local embedder's.
        vector: Array.from({ length: 1536 }, (_, i) => Math.sin(i)),
        source_session: 'agent:main:42',
        active_count: 7,
        created_at: CREATED,
        updated_at: UPDATED,
      },
    ]);
    db.close();
    const home = tempDir();
    const run = await memoir(['import', '--from-lancedb', dir, '--table', 'agent_memories', '--json'], home);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      table: 'agent_memories',
      memories: 1,
      vectorsKept: 0,
      needEmbedding: 1,
    });
    expect(run.stderr).toMatch(/memoir reindex/);
    const memory = createMemory({ home, logger: { log() {} } });
    const row = await memory.get('ep-1');
    expect(row).toMatchObject({
      category: 'cases',
      abstract: 'Fixed the flaky deploy by pinning the runner image.',
      overview: '## Problem\nflaky deploy\n## Fix\npin the image',
      sessionId: 'agent:main:42',
      accessCount: 7,
      createdAt: new Date(CREATED).toISOString(),
      updatedAt: new Date(UPDATED).toISOString(),
    });
    await memory.close();
  });

  it('an unknown --table is a usage error', async () => {
    const run = await memoir(['import', '--from-lancedb', tempDir(), '--table', 'notes'], tempDir());
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/--table must be memories .* or agent_memories/);
  });
});
