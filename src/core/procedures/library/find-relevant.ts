import { narrowScope } from '../../search/scope-boundary.js';
import { cosineSimilarity } from '../../search/vector-math.js';
import type { Procedure } from '../../spec/records.js';
import { parseInput } from '../../utils/validate.js';
import { type FindProceduresOptions, type FoundProcedure, findOptionsSchema } from '../procedure-inputs.js';
import { cachedRecordings, evidenceOf, withoutRecordingVectors } from '../recording-cache.js';
import type { RecordingEvidence } from '../recording-types.js';
import { COMPONENT, type LibraryContext } from './library-context.js';
import { syncLibrary } from './library-index.js';
import { querySchema } from './library-schemas.js';

// Old names of options (docs/vocabulary.md): a ranked answer's size is `k` at every door.
const FIND_RENAMES = [{ from: 'topK', to: 'k' }] as const;
/** The sources whose procedures are files; `recording` ones live in the store. */
const FILE_SOURCES: ReadonlyArray<Procedure['source']> = ['reflection', 'session', 'manual'];

/** A procedure findRelevant may return, with the vectors that find it. */
interface Candidate {
  procedure: Procedure;
  file: string | null;
  vectors: readonly Float32Array[];
  recording?: RecordingEvidence;
}

function bestSimilarity(query: Float32Array, vectors: readonly Float32Array[]): number {
  let best = -1;
  for (const vector of vectors) best = Math.max(best, cosineSimilarity(query, vector));
  return best;
}

/** `procedures.findRelevant`: the procedure files and recorded steps closest to a request, best first. */
export async function findRelevantProcedures(
  ctx: LibraryContext,
  query: string,
  findOptions?: FindProceduresOptions,
): Promise<FoundProcedure[]> {
  const { engine, options } = ctx;
  const text = parseInput(querySchema, query, 'procedures.findRelevant', 'query');
  const parsed = parseInput(
    findOptionsSchema,
    ctx.renamedOptions(findOptions, FIND_RENAMES, 'procedures.findRelevant'),
    'procedures.findRelevant',
    'options',
  );
  // Another tenant's scope, asked of a scoped client, finds nothing, as if nothing were there.
  const scope = narrowScope(engine.scope, parsed.scope);
  if (scope === null) return [];
  const topK = parsed.k ?? options.maxPerPrompt;
  const threshold = parsed.threshold ?? ctx.thresholds().similarity;
  const sources = new Set(parsed.sources ?? [...FILE_SOURCES, 'recording']);
  const wantsRecordings = sources.has('recording');
  const candidates: Candidate[] = [];
  // Without a directory there are no files; recorded steps are still found, as they live in the store.
  if (
    FILE_SOURCES.some((source) => sources.has(source)) &&
    (engine.procedureDirectory() !== undefined || !wantsRecordings)
  ) {
    const state = await syncLibrary(ctx, undefined, scope);
    for (const entry of state.procedures) {
      if (sources.has(entry.procedure.source)) candidates.push(entry);
    }
  }
  if (wantsRecordings) {
    await engine.ready(COMPONENT);
    for (const entry of await cachedRecordings(engine, scope)) {
      const recording = evidenceOf(entry.procedure);
      candidates.push({
        procedure: withoutRecordingVectors(entry.procedure),
        file: null,
        vectors: entry.vectors,
        ...(recording ? { recording } : {}),
      });
    }
  }
  if (candidates.length === 0) return [];
  const [vector] = await ctx.embed([text]);
  const found = candidates
    .map((entry) => ({
      procedure: entry.procedure,
      file: entry.file,
      similarity: bestSimilarity(vector!, entry.vectors),
      ...(entry.recording ? { recording: entry.recording } : {}),
    }))
    .filter((entry) => entry.similarity >= threshold)
    .sort((a, b) => b.similarity - a.similarity || a.procedure.id.localeCompare(b.procedure.id))
    .slice(0, topK);
  for (const entry of found) {
    engine.logger.log(
      'info',
      `Relevant procedure: ${entry.file ?? `${entry.procedure.id} (recorded)`} (similarity ${entry.similarity.toFixed(2)})`,
    );
  }
  return found;
}
