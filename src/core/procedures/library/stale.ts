import { z } from 'zod';
import type { Procedure } from '../../spec/records.js';
import { parseInput } from '../../utils/validate.js';
import type { LibraryContext } from './library-context.js';
import { syncLibrary } from './library-index.js';

const DAY_MS = 86_400_000;
const staleSchema = z.object({ days: z.number().positive().max(100_000).optional() }).strict();

/** `procedures.stale`: the procedures not used (nor created) for `days`, oldest first. */
export async function staleProcedures(ctx: LibraryContext, staleOptions?: { days?: number }): Promise<Procedure[]> {
  const parsed = parseInput(staleSchema, staleOptions ?? {}, 'procedures.stale', 'options');
  const cutoff = ctx.engine.clock.now() - (parsed.days ?? ctx.options.staleAfterDays) * DAY_MS;
  const lastUse = (procedure: Procedure) => Date.parse(procedure.lastUsedAt ?? procedure.createdAt);
  const state = await syncLibrary(ctx);
  return state.procedures
    .map((entry) => entry.procedure)
    .filter((procedure) => lastUse(procedure) < cutoff)
    .sort((a, b) => lastUse(a) - lastUse(b) || a.id.localeCompare(b.id));
}
