import { z } from 'zod';
import { scopeForWrite } from '../../search/scope-boundary.js';
import { scopeSchema } from '../../spec/memory.js';
import { parseInput } from '../../utils/validate.js';
import { stepsFromRecording } from '../recording-steps.js';
import type { FromRecordingOptions, RecordingProcedure } from '../recording-types.js';
import type { LibraryContext } from './library-context.js';
import { querySchema } from './library-schemas.js';

const fromRecordingSchema = z
  .object({
    k: z.number().int().min(1).max(20).default(3),
    refresh: z.boolean().default(false),
    search: z.boolean().default(true),
    scope: scopeSchema.optional(),
  })
  .strict();
// Old names of options (docs/vocabulary.md): a ranked answer's size is `k` at every door.
const FROM_RECORDING_RENAMES = [{ from: 'limit', to: 'k' }] as const;

/** `procedures.fromRecording`: how the user did something on screen, from their recordings (or the cache of them). */
export async function proceduresFromRecording(
  ctx: LibraryContext,
  query: string,
  recordingOptions?: FromRecordingOptions,
): Promise<RecordingProcedure[]> {
  const { engine, settings } = ctx;
  const text = parseInput(querySchema, query, 'procedures.fromRecording', 'query');
  const parsed = parseInput(
    fromRecordingSchema,
    ctx.renamedOptions(recordingOptions, FROM_RECORDING_RENAMES, 'procedures.fromRecording'),
    'procedures.fromRecording',
    'options',
  );
  // A per-call scope narrows the client's, never widens it; another tenant's is refused.
  const scope = parsed.scope
    ? scopeForWrite(engine.scope, parsed.scope, 'options.scope', 'procedures.fromRecording')
    : engine.scope;
  return stepsFromRecording(
    engine,
    { video: settings.video, retain: settings.retain, scope, similarityThreshold: ctx.thresholds().similarity },
    text,
    { limit: parsed.k, refresh: parsed.refresh, search: parsed.search },
  );
}
