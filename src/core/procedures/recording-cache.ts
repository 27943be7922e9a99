import { createHash } from 'node:crypto';
import type { MemoryEngine } from '../engine/memory-engine.js';
import { cosineSimilarity } from '../search/vector-math.js';
import type { Procedure } from '../spec/records.js';
import type { RecordingProcedure } from './recording-types.js';

// Steps drawn from a recording are costly (a search, frame extraction, a model call per pair
// of frames), so each result is kept as a Procedure record (source `recording`, the clip as
// video evidence) with the query's vector under one metadata key. The store's procedure
// collection holds them beside the index of procedure files; records without the files'
// index key are left alone by the file sync.

/** The metadata key of a cached recording result. */
export const RECORDING_KEY = 'recording';

interface CachedRecording {
  query: string;
  queryVector: number[];
  embedderId: string;
  result: Omit<RecordingProcedure, 'procedureId' | 'cached'>;
}

function cachedOf(procedure: Procedure): CachedRecording | undefined {
  const value = procedure.metadata[RECORDING_KEY];
  if (typeof value !== 'object' || value === null) return undefined;
  const candidate = value as Partial<CachedRecording>;
  return typeof candidate.query === 'string' && Array.isArray(candidate.queryVector) && candidate.result
    ? (candidate as CachedRecording)
    : undefined;
}

/** The results cached for the earlier query most similar to this one, when similar enough; best first. */
export async function findCachedRecording(
  engine: MemoryEngine,
  vector: Float32Array,
  threshold: number,
  limit: number,
): Promise<RecordingProcedure[] | undefined> {
  const records = await engine.store.procedures.list(engine.scope ? { scope: engine.scope } : {});
  let best: { query: string; similarity: number } | undefined;
  const byQuery = new Map<string, Array<{ procedure: Procedure; cached: CachedRecording }>>();
  for (const procedure of records) {
    if (procedure.source !== 'recording') continue;
    const cached = cachedOf(procedure);
    if (!cached || cached.embedderId !== engine.embedder.id || cached.queryVector.length !== vector.length) continue;
    byQuery.set(cached.query, [...(byQuery.get(cached.query) ?? []), { procedure, cached }]);
    const similarity = cosineSimilarity(vector, Float32Array.from(cached.queryVector));
    if (similarity >= threshold && (!best || similarity > best.similarity)) best = { query: cached.query, similarity };
  }
  if (!best) return undefined;
  return byQuery
    .get(best.query)!
    .map(({ procedure, cached }) => ({ ...cached.result, procedureId: procedure.id, cached: true }))
    .sort((a, b) => b.confidence - a.confidence)
    .slice(0, limit);
}

/** Store each result as a Procedure (source `recording`); resolves to the results with their procedure ids. */
export async function cacheRecording(
  engine: MemoryEngine,
  query: string,
  vector: Float32Array,
  results: ReadonlyArray<Omit<RecordingProcedure, 'procedureId' | 'cached'>>,
): Promise<RecordingProcedure[]> {
  const now = engine.nowIso();
  const procedures: Procedure[] = results.map((result) => {
    const digest = createHash('sha256').update(`${query}\n${result.videoId}\n${result.videoStartMs}`).digest('hex');
    const cached: CachedRecording = {
      query,
      queryVector: Array.from(vector),
      embedderId: engine.embedder.id,
      result,
    };
    return {
      id: `recording-${digest.slice(0, 16)}`,
      title: query.slice(0, 200),
      triggerExamples: [query],
      steps: result.steps,
      whatWorks: [],
      whatDoesNotWork: [],
      outputFormat: null,
      successCount: 0,
      failureCount: 0,
      lastUsedAt: null,
      source: 'recording',
      videoEvidence: [{ videoId: result.videoId, startMs: result.videoStartMs, endMs: result.videoEndMs }],
      scope: engine.scope ?? {},
      createdAt: now,
      updatedAt: now,
      metadata: { [RECORDING_KEY]: { ...cached } },
    };
  });
  if (procedures.length > 0) await engine.store.procedures.upsert(procedures);
  return results.map((result, i) => ({ ...result, procedureId: procedures[i]!.id, cached: false }));
}
