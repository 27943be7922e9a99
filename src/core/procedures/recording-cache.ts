import { createHash } from 'node:crypto';
import type { MemoryEngine } from '../engine/memory-engine.js';
import type { RetainApi } from '../retain/retain-api.js';
import { cosineSimilarity } from '../search/vector-math.js';
import type { JsonValue, MemoryInput, Scope } from '../spec/memory.js';
import type { Procedure } from '../spec/records.js';
import { stepsSentence, videoOffset } from './recording-text.js';
import type { RecordedSpan, RecordingEvidence, RecordingProcedure } from './recording-types.js';

// Steps drawn from a recording are costly (a search, frame extraction, a model call per pair
// of frames), so each result is kept as a Procedure record (source `recording`, the clip as
// video evidence) with the query's vector under one metadata key. The store's procedure
// collection holds them beside the index of procedure files; records without the files'
// index key are left alone by the file sync. Each result is also retained as a memory
// (category `recording`), so `recall` finds the steps beside everything else remembered.

/** The metadata key of a cached recording result. */
export const RECORDING_KEY = 'recording';

/** The category of the memories recorded steps are recalled by. */
export const RECORDING_CATEGORY = 'recording';

/** A result as cached: what `fromRecording` returned, without the per-call fields. */
export type CachedResult = Omit<RecordingProcedure, 'procedureId' | 'cached' | 'memoryId'>;

interface CachedRecording {
  query: string;
  queryVector: number[];
  /** The vector of the steps and summary, so a request worded like the steps finds them too. */
  textVector?: number[];
  embedderId: string;
  /** The memory recall finds the steps by (absent on records cached before there was one). */
  memoryId?: string | null;
  result: CachedResult;
}

/** A cached record, and the vectors a request is compared with. */
export interface CachedEntry {
  /** The record (metadata as stored, vectors included). */
  procedure: Procedure;
  /** Its parsed cache data. */
  cached: CachedRecording;
  /** The query's vector, then the steps' when stored. */
  vectors: Float32Array[];
}

/** The cache data of a record, vectors or not (handed-out procedures carry none). */
function recordingDataOf(procedure: Procedure): Omit<CachedRecording, 'queryVector'> | undefined {
  const value = procedure.metadata[RECORDING_KEY];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const candidate = value as Partial<CachedRecording>;
  const result = candidate.result as Partial<CachedResult> | undefined;
  return typeof candidate.query === 'string' &&
    typeof result === 'object' &&
    result !== null &&
    typeof result.videoId === 'string' &&
    typeof result.videoStartMs === 'number' &&
    typeof result.videoEndMs === 'number' &&
    Array.isArray(result.steps)
    ? (candidate as CachedRecording)
    : undefined;
}

function cachedOf(procedure: Procedure): CachedRecording | undefined {
  const data = recordingDataOf(procedure) as CachedRecording | undefined;
  return data && Array.isArray(data.queryVector) ? data : undefined;
}

/** The wall-clock span of a clip: the video's recording time plus the clip's offsets. */
export function spanOf(recordedAt: string | undefined, startMs: number, endMs: number): RecordedSpan | null {
  const origin = recordedAt ? Date.parse(recordedAt) : Number.NaN;
  if (!Number.isFinite(origin)) return null;
  return { start: new Date(origin + startMs).toISOString(), end: new Date(origin + endMs).toISOString() };
}

/** A cached result in today's shape: records cached before `recordedAt` existed get it from `timestamp`. */
function resultOf(cached: Pick<CachedRecording, 'result'>): CachedResult {
  const { result } = cached;
  if (result.recordedAt !== undefined) return result;
  const start = result.timestamp ? Date.parse(result.timestamp) : Number.NaN;
  const recordedAt = Number.isFinite(start)
    ? { start: result.timestamp!, end: new Date(start + (result.videoEndMs - result.videoStartMs)).toISOString() }
    : null;
  return { ...result, recordedAt };
}

function procedureResult(entry: Pick<CachedEntry, 'procedure' | 'cached'>): RecordingProcedure {
  return {
    ...resultOf(entry.cached),
    procedureId: entry.procedure.id,
    memoryId: entry.cached.memoryId ?? null,
    cached: true,
  };
}

/** The procedure as handed out: the cache data without its vectors (hundreds of numbers an agent has no use for). */
export function withoutRecordingVectors(procedure: Procedure): Procedure {
  const cached = cachedOf(procedure);
  if (!cached) return procedure;
  const { queryVector: _query, textVector: _text, embedderId: _embedder, ...rest } = cached;
  return {
    ...procedure,
    metadata: { ...procedure.metadata, [RECORDING_KEY]: JSON.parse(JSON.stringify(rest)) },
  };
}

/** Where a cached recording procedure came from, for `findRelevant` results; undefined for other procedures. */
export function evidenceOf(procedure: Procedure): RecordingEvidence | undefined {
  if (procedure.source !== 'recording') return undefined;
  const cached = recordingDataOf(procedure);
  if (!cached) return undefined;
  const result = resultOf(cached);
  return {
    query: cached.query,
    videoId: result.videoId,
    videoUrl: result.videoUrl,
    videoStartMs: result.videoStartMs,
    videoEndMs: result.videoEndMs,
    recordedAt: result.recordedAt,
    confidence: result.confidence,
    summary: result.summary,
    memoryId: cached.memoryId ?? null,
  };
}

/** The cached recordings of a scope that the client's embedder can compare with. */
export async function cachedRecordings(engine: MemoryEngine, scope: Scope | undefined): Promise<CachedEntry[]> {
  const records = await engine.store.procedures.list(scope ? { scope } : {});
  const entries: CachedEntry[] = [];
  for (const procedure of records) {
    if (procedure.source !== 'recording') continue;
    const cached = cachedOf(procedure);
    if (!cached || cached.embedderId !== engine.embedder.id || cached.queryVector.length !== engine.embedder.dimensions)
      continue;
    const vectors = [Float32Array.from(cached.queryVector)];
    if (Array.isArray(cached.textVector) && cached.textVector.length === cached.queryVector.length)
      vectors.push(Float32Array.from(cached.textVector));
    entries.push({ procedure, cached, vectors });
  }
  return entries;
}

/** The results cached for the earlier query most similar to this one, when similar enough; best first. */
export async function findCachedRecording(
  engine: MemoryEngine,
  scope: Scope | undefined,
  vector: Float32Array,
  threshold: number,
  limit: number,
): Promise<RecordingProcedure[] | undefined> {
  let best: { query: string; similarity: number } | undefined;
  const byQuery = new Map<string, CachedEntry[]>();
  for (const entry of await cachedRecordings(engine, scope)) {
    const { query } = entry.cached;
    byQuery.set(query, [...(byQuery.get(query) ?? []), entry]);
    const similarity = cosineSimilarity(vector, entry.vectors[0]!);
    if (similarity >= threshold && (!best || similarity > best.similarity)) best = { query, similarity };
  }
  if (!best) return undefined;
  return byQuery
    .get(best.query)!
    .map(procedureResult)
    .sort((a, b) => b.confidence - a.confidence)
    .slice(0, limit);
}

/**
 * Without a video provider, the cache is all there is: the cached results closest to the
 * request (query or steps) with a similarity of at least `threshold`, best first. Undefined
 * when nothing at all is cached in the scope.
 */
export async function nearestCachedRecordings(
  engine: MemoryEngine,
  scope: Scope | undefined,
  vector: Float32Array,
  threshold: number,
  limit: number,
): Promise<RecordingProcedure[] | undefined> {
  const entries = await cachedRecordings(engine, scope);
  if (entries.length === 0) return undefined;
  return entries
    .map((entry) => ({
      entry,
      similarity: Math.max(...entry.vectors.map((candidate) => cosineSimilarity(vector, candidate))),
    }))
    .filter(({ similarity }) => similarity >= threshold)
    .sort((a, b) => b.similarity - a.similarity || b.entry.cached.result.confidence - a.entry.cached.result.confidence)
    .slice(0, limit)
    .map(({ entry }) => procedureResult(entry));
}

/** The memory recall finds a result by: the seed's sentence first, then what and where. */
export function recordingMemoryInput(query: string, result: CachedResult, procedureId: string): MemoryInput {
  const sentence = stepsSentence(result);
  const clip = `${videoOffset(result.videoStartMs)}–${videoOffset(result.videoEndMs)}`;
  const span = result.recordedAt ? ` (${result.recordedAt.start} – ${result.recordedAt.end})` : '';
  const content = [
    sentence,
    `Task: ${query}`,
    ...(result.summary.trim() ? [`What the clip shows: ${result.summary.trim()}`] : []),
    `Recording: video ${result.videoId}, ${clip}${span}, confidence ${result.confidence.toFixed(2)}.`,
  ].join('\n');
  return {
    content,
    abstract: sentence,
    kind: 'experience',
    category: RECORDING_CATEGORY,
    ...(result.recordedAt ? { occurredAt: result.recordedAt.start } : {}),
    metadata: {
      [RECORDING_KEY]: {
        procedureId,
        query,
        videoId: result.videoId,
        videoUrl: result.videoUrl,
        videoStartMs: result.videoStartMs,
        videoEndMs: result.videoEndMs,
        recordedAt: result.recordedAt ? { ...result.recordedAt } : null,
        confidence: result.confidence,
        steps: [...result.steps],
      },
    },
  };
}

/** The ids of the stored memories that are still valid, of those asked for. */
async function validMemories(engine: MemoryEngine, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const found = await engine.store.getMemories([...ids]);
  return new Set(found.filter((memory) => memory.validTo === null).map((memory) => memory.id));
}

/**
 * Retain one memory per result, in `scope`; a result whose steps changed since it was last
 * remembered supersedes the earlier memory (kept as history). Resolves to one id per result,
 * null where it could not be stored: the steps stay cached, and the failure is logged.
 */
async function rememberResults(
  engine: MemoryEngine,
  retain: Pick<RetainApi, 'retain'>,
  scope: Scope | undefined,
  items: ReadonlyArray<{ query: string; result: CachedResult; procedureId: string; previous: string | null }>,
): Promise<Array<string | null>> {
  if (items.length === 0) return [];
  const live = await validMemories(
    engine,
    items.flatMap((item) => (item.previous ? [item.previous] : [])),
  );
  const inputs = items.map((item): MemoryInput => {
    const input = recordingMemoryInput(item.query, item.result, item.procedureId);
    return {
      ...input,
      ...(scope ? { scope } : {}),
      ...(item.previous && live.has(item.previous) ? { supersedes: [item.previous] } : {}),
    };
  });
  try {
    // Recorded steps are not facts about where someone lives: no supersession rules on their words.
    const { ids } = await retain.retain(inputs, { corrections: 'marked' });
    return ids;
  } catch (error) {
    engine.logger.log('warn', `recorded steps are cached but not in recall: ${(error as Error).message}`);
    return items.map(() => null);
  }
}

/**
 * Cached results that were never remembered (cached before recall knew them): remember them
 * now and note the memory on the record. A memory someone forgot is not brought back.
 */
export async function rememberCached(
  engine: MemoryEngine,
  retain: Pick<RetainApi, 'retain'>,
  scope: Scope | undefined,
  results: RecordingProcedure[],
): Promise<RecordingProcedure[]> {
  const records = await engine.store.procedures.get(results.map((result) => result.procedureId));
  const missing = records.filter((record) => {
    const cached = cachedOf(record);
    return cached !== undefined && cached.memoryId === undefined;
  });
  if (missing.length === 0) return results;
  const ids = await rememberResults(
    engine,
    retain,
    scope,
    missing.map((record) => {
      const cached = cachedOf(record)!;
      return { query: cached.query, result: resultOf(cached), procedureId: record.id, previous: null };
    }),
  );
  const updated = missing.map((record, i) => ({
    ...record,
    metadata: { ...record.metadata, [RECORDING_KEY]: { ...(cachedOf(record) as object), memoryId: ids[i] ?? null } },
  })) as Procedure[];
  await engine.store.procedures.upsert(updated);
  const byId = new Map(missing.map((record, i) => [record.id, ids[i] ?? null]));
  return results.map((result) =>
    byId.has(result.procedureId) ? { ...result, memoryId: byId.get(result.procedureId)! } : result,
  );
}

/** Store each result as a Procedure (source `recording`) and a memory; resolves to the results with their ids. */
export async function cacheRecording(
  engine: MemoryEngine,
  retain: Pick<RetainApi, 'retain'>,
  scope: Scope | undefined,
  query: string,
  vector: Float32Array,
  results: readonly CachedResult[],
): Promise<RecordingProcedure[]> {
  if (results.length === 0) return [];
  const now = engine.nowIso();
  const ids = results.map((result) => {
    const digest = createHash('sha256')
      .update(`${JSON.stringify(scope ?? {})}\n${query}\n${result.videoId}\n${result.videoStartMs}`)
      .digest('hex');
    return `recording-${digest.slice(0, 16)}`;
  });
  const earlier = new Map((await engine.store.procedures.get(ids)).map((record) => [record.id, record]));
  const textVectors = await engine.embed(
    results.map((result) => [result.summary, ...result.steps].join('\n') || query),
    'procedures.fromRecording',
  );
  const memoryIds = await rememberResults(
    engine,
    retain,
    scope,
    results.map((result, i) => {
      const previous = earlier.get(ids[i]!);
      return {
        query,
        result,
        procedureId: ids[i]!,
        previous: (previous && cachedOf(previous)?.memoryId) || null,
      };
    }),
  );
  const procedures: Procedure[] = results.map((result, i) => {
    const cached: CachedRecording = {
      query,
      queryVector: Array.from(vector),
      textVector: Array.from(textVectors[i]!),
      embedderId: engine.embedder.id,
      memoryId: memoryIds[i] ?? null,
      result: JSON.parse(JSON.stringify(result)) as CachedResult,
    };
    return {
      id: ids[i]!,
      title: query.slice(0, 200),
      triggerExamples: [query],
      steps: result.steps,
      whatWorks: [],
      whatDoesNotWork: [],
      outputFormat: null,
      successCount: earlier.get(ids[i]!)?.successCount ?? 0,
      failureCount: earlier.get(ids[i]!)?.failureCount ?? 0,
      lastUsedAt: earlier.get(ids[i]!)?.lastUsedAt ?? null,
      source: 'recording',
      videoEvidence: [{ videoId: result.videoId, startMs: result.videoStartMs, endMs: result.videoEndMs }],
      scope: scope ?? {},
      createdAt: earlier.get(ids[i]!)?.createdAt ?? now,
      updatedAt: now,
      // Plain JSON already (built from JSON above); the interfaces only lack an index signature.
      metadata: { [RECORDING_KEY]: cached as unknown as JsonValue },
    };
  });
  await engine.store.procedures.upsert(procedures);
  return results.map((result, i) => ({
    ...result,
    procedureId: ids[i]!,
    memoryId: memoryIds[i] ?? null,
    cached: false,
  }));
}
