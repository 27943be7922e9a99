/** `memoir import --from-lancedb <dir>`: memories from OpenClaw's memory-lancedb or ePro v2's table. */
import { resolve } from 'node:path';
import { type ForeignMemory, type ForeignTable, readForeignMemories } from '../adapters/lancedb/lancedb-import.js';
import type { ImportResult } from '../core/backup/transfer.js';
import { canonicalJson, encodeEmbedding } from '../core/backup/transfer-encoding.js';
import type { MemoryClient } from '../core/client/memory-client.js';
import { cosineSimilarity } from '../core/search/vector-math.js';
import { deriveAbstract, fingerprintOf } from '../core/shared/memory-builder.js';
import type { Memory, Scope } from '../core/spec/memory.js';
import type { CliContext } from './cli-context.js';
import { CliUsageError } from './cli-errors.js';
import { describeScope } from './cli-format.js';
import { createProgress } from './cli-progress.js';

/** How close a re-embedded row must come to its stored vector for the vectors to count as the same embedder's. */
const SAME_EMBEDDER = 0.98;
const SAMPLE = 3;

const KNOWN: readonly string[] = ['memories', 'agent_memories'];

/** The `--table` value, checked. */
export function foreignTable(value: string | undefined): ForeignTable | undefined {
  if (value === undefined) return undefined;
  if (!KNOWN.includes(value)) {
    throw new CliUsageError(
      `--table must be memories (OpenClaw memory-lancedb) or agent_memories (ePro v2), not ${value}`,
      'Leave --table out to read whichever of the two the directory holds.',
    );
  }
  return value as ForeignTable;
}

// The run's scope (--agent, --user, --namespace) is the imported memories' owner, so a scoped
// reader, such as the OpenClaw plugin's recall for one agent and sender, finds them.
function toMemory(row: ForeignMemory, now: number, scope: Scope): Memory {
  const iso = (ms: number | null) => new Date(ms ?? now).toISOString();
  const createdAt = iso(row.createdAt);
  const category = row.category ?? 'note';
  const memory = {
    id: row.id,
    kind: 'world' as const,
    category,
    abstract: row.abstract ?? deriveAbstract(row.content),
    overview: row.overview,
    content: row.content,
    context: null,
    entities: [],
    scope,
    sessionId: row.sessionId,
    source: null,
    occurredAt: createdAt,
    createdAt,
    updatedAt: iso(row.updatedAt ?? row.createdAt),
    validFrom: createdAt,
    validTo: null,
    invalidationReason: null,
    supersededBy: null,
    importance: Math.min(1, Math.max(0, row.importance ?? 0.5)),
    bookmarked: false,
    accessCount: row.accessCount,
    lastAccessedAt: null,
    metadata: { importedFrom: 'lancedb' },
  };
  const fingerprint = fingerprintOf({ ...memory, occurredAt: createdAt });
  return { ...memory, fingerprint };
}

/** Whether the configured embedder reproduces the table's vectors: a few rows re-embedded and compared. */
async function sameEmbedder(client: MemoryClient, rows: readonly ForeignMemory[]): Promise<boolean> {
  const sample = rows.filter((row) => row.vector !== null).slice(0, SAMPLE);
  if (sample.length === 0 || sample.some((row) => row.vector!.length !== client.embedder.dimensions)) return false;
  const vectors = await client.embedder.embed(sample.map((row) => row.embeddedText));
  return sample.every((row, index) => cosineSimilarity(row.vector!, vectors[index]!) >= SAME_EMBEDDER);
}

/** Read the table at `dir` and import its rows, keeping ids, dates and (when the embedder matches) vectors. */
export async function importFromLanceDb(
  context: CliContext,
  client: MemoryClient,
  dir: string,
  table: ForeignTable | undefined,
): Promise<void> {
  const uri = /^[a-z][a-z0-9+]*:\/\//i.test(dir) ? dir : resolve(dir);
  const identity = { id: client.embedder.id, dimensions: client.embedder.dimensions };
  const progress = createProgress(context.stderr, 'importing');
  const now = Date.now();
  let tableName: ForeignTable | undefined;
  let keepVectors: boolean | undefined;
  let withVectors = 0;
  async function* lines(): AsyncGenerator<string> {
    for await (const batch of readForeignMemories({ uri, table })) {
      tableName = batch.table;
      if (batch.rows.length === 0) continue;
      if (keepVectors === undefined) {
        keepVectors = await sameEmbedder(client, batch.rows);
        // The header names the store's embedder only when the vectors are that embedder's.
        const embedder = keepVectors ? canonicalJson(identity) : 'null';
        yield `{"type":"header","format":"memoir-jsonl","version":1,"embedder":${embedder}}`;
      }
      for (const row of batch.rows) {
        const embedding = keepVectors && row.vector ? JSON.stringify(encodeEmbedding(row.vector)) : 'null';
        if (embedding !== 'null') withVectors += 1;
        yield `{"type":"memory","memory":${canonicalJson(toMemory(row, now, context.scope ?? {}))},"embedding":${embedding}}`;
      }
    }
  }
  async function* counted(): AsyncGenerator<string> {
    let done = 0;
    for await (const line of lines()) {
      yield line;
      progress.update(++done);
    }
  }
  let result: ImportResult;
  try {
    // Through the client: a scoped run writes into its own scope only, never over another's ids.
    result = await client.import(counted());
  } finally {
    progress.finish();
  }
  const summary = {
    from: uri,
    table: tableName ?? table ?? null,
    memories: result.memories,
    vectorsKept: withVectors,
    needEmbedding: result.memories - withVectors,
    scope: context.scope ?? null,
  };
  if (context.json) context.printJson(summary);
  else {
    context.print(
      `Imported ${result.memories} ${result.memories === 1 ? 'memory' : 'memories'} from ${summary.table} at ${uri} into ${describeScope(summary.scope)}; ${withVectors} kept their vectors.`,
    );
  }
  if (summary.needEmbedding > 0) {
    context.note(
      `note: ${summary.needEmbedding} memories have no vector from ${client.embedder.id} (the table's vectors came from another embedder, or none).\nhint: Run \`memoir reindex\` so they are found by meaning too; keyword search finds them already.`,
    );
  }
}
