import { z } from 'zod';
import { readProcedureFile } from '../../procedure-files/procedure-directory.js';
import { rewriteCounters } from '../../procedure-files/procedure-file.js';
import { writeFileAtomic } from '../../shared/files/atomic-write.js';
import type { Procedure } from '../../spec/records.js';
import { parseInput } from '../../utils/validate.js';
import { withoutRecordingVectors } from '../recording-cache.js';
import { COMPONENT, type LibraryContext } from './library-context.js';
import { locked, ownFile } from './library-files.js';
import { indexedOne } from './library-index.js';
import { slugSchema } from './library-schemas.js';
import { recordedProcedure } from './recorded-procedure.js';

const outcomeSchema = z.object({ success: z.boolean() }).strict();

/** `procedures.recordUse`: count a use of a procedure (success or failure) and when it was. */
export async function recordProcedureUse(
  ctx: LibraryContext,
  id: string,
  outcome: { success: boolean },
): Promise<Procedure> {
  const { engine } = ctx;
  const slug = parseInput(slugSchema, id, 'procedures.recordUse', 'id');
  const { success } = parseInput(outcomeSchema, outcome, 'procedures.recordUse', 'outcome');
  await engine.ready(COMPONENT);
  // Steps cached from a recording have no file: their counters live on the store record.
  const recorded = await recordedProcedure(ctx, slug);
  if (recorded && (engine.procedureDirectory() === undefined || !(await readProcedureFile(ctx.dir(), slug)))) {
    const updated: Procedure = {
      ...recorded.stored,
      successCount: recorded.stored.successCount + (success ? 1 : 0),
      failureCount: recorded.stored.failureCount + (success ? 0 : 1),
      lastUsedAt: engine.nowIso(),
      updatedAt: engine.nowIso(),
    };
    await engine.store.procedures.upsert([updated]);
    return withoutRecordingVectors(updated);
  }
  return locked(ctx, async () => {
    const { snapshot, parsed } = await ownFile(ctx, slug, 'procedures.recordUse');
    const before = parsed.procedure;
    const counters = {
      successCount: before.successCount + (success ? 1 : 0),
      failureCount: before.failureCount + (success ? 0 : 1),
      lastUsedAt: engine.nowIso(),
    };
    await writeFileAtomic(snapshot.path, rewriteCounters(snapshot.text, counters));
    const indexed = await indexedOne(ctx, slug);
    return indexed?.procedure ?? { ...before, ...counters };
  });
}
