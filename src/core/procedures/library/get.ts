import { narrowScope } from '../../search/scope-boundary.js';
import type { Procedure } from '../../spec/records.js';
import { parseInput } from '../../utils/validate.js';
import { type ProcedureScopeOptions, scopeOptionsSchema } from '../procedure-inputs.js';
import type { LibraryContext } from './library-context.js';
import { indexedOne } from './library-index.js';
import { slugSchema } from './library-schemas.js';
import { recordedProcedure } from './recorded-procedure.js';

/** `procedures.get`: the procedure of `<id>.md`, or the steps cached from a recording under that id, or null. */
export async function getProcedure(
  ctx: LibraryContext,
  id: string,
  getOptions?: ProcedureScopeOptions,
): Promise<Procedure | null> {
  const { engine } = ctx;
  const slug = parseInput(slugSchema, id, 'procedures.get', 'id');
  const given = parseInput(scopeOptionsSchema, getOptions ?? {}, 'procedures.get', 'options');
  const scope = narrowScope(engine.scope, given.scope);
  if (scope === null) return null;
  const recorded = await recordedProcedure(ctx, slug, scope);
  if (recorded && engine.procedureDirectory() === undefined) return recorded.procedure;
  return (await indexedOne(ctx, slug, scope))?.procedure ?? recorded?.procedure ?? null;
}
