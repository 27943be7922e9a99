import { scopeMatches } from '../../search/memory-filter.js';
import type { Scope } from '../../spec/memory.js';
import type { Procedure } from '../../spec/records.js';
import { evidenceOf, withoutRecordingVectors } from '../recording-cache.js';
import { COMPONENT, type LibraryContext } from './library-context.js';

/** The steps cached from a recording under `id`, inside the client's scope: as stored, and as handed out. */
export async function recordedProcedure(
  ctx: LibraryContext,
  id: string,
  scope: Scope | undefined = ctx.engine.scope,
): Promise<{ stored: Procedure; procedure: Procedure } | undefined> {
  await ctx.engine.ready(COMPONENT);
  const [stored] = await ctx.engine.store.procedures.get([id]);
  if (stored?.source !== 'recording' || !scopeMatches(stored.scope, scope)) return undefined;
  if (!evidenceOf(stored)) return undefined;
  return { stored, procedure: withoutRecordingVectors(stored) };
}
