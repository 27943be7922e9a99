import { keepHistory, readProcedureFile } from '../../procedure-files/procedure-directory.js';
import { isSlug, type parseProcedureFile } from '../../procedure-files/procedure-file.js';
import { scopeForWrite } from '../../search/scope-boundary.js';
import { ValidationError } from '../../spec/errors.js';
import type { Procedure } from '../../spec/records.js';
import { parseInput } from '../../utils/validate.js';
import { type ProcedureInput, procedureInputSchema } from '../procedure-inputs.js';
import { COMPONENT, type LibraryContext } from './library-context.js';
import { freeSlug, locked, ownFile, writeProcedure } from './library-files.js';

/** `procedures.save`: write a procedure's file, a new one or over its earlier version (kept under `.history/`). */
export async function saveProcedure(ctx: LibraryContext, input: ProcedureInput): Promise<Procedure> {
  const { engine } = ctx;
  const parsed = parseInput(procedureInputSchema, input, 'procedures.save', 'procedure');
  // The schema's slug rule, plus the names no file system takes everywhere (con, nul, …).
  if (parsed.id !== undefined && !isSlug(parsed.id))
    throw new ValidationError(
      [{ field: 'procedure.id', message: `expected a slug that can name a file everywhere, got "${parsed.id}"` }],
      { component: 'procedures.save' },
    );
  const scope = scopeForWrite(engine.scope, parsed.scope, 'procedure.scope', 'procedures.save');
  await engine.ready(COMPONENT);
  return locked(ctx, async () => {
    const now = engine.nowIso();
    const existing = parsed.id ? await readProcedureFile(ctx.dir(), parsed.id) : null;
    let previous: ReturnType<typeof parseProcedureFile> | undefined;
    if (existing && parsed.id) {
      previous = (await ownFile(ctx, parsed.id, 'procedures.save')).parsed;
      await keepHistory(ctx.dir(), parsed.id, now);
    }
    const { id, createdAt, ...fields } = parsed;
    const procedure: Procedure = {
      ...fields,
      id: id ?? (await freeSlug(ctx, parsed.title)),
      scope,
      createdAt: createdAt ?? previous?.procedure.createdAt ?? now,
      updatedAt: now,
    };
    const indexed = await writeProcedure(ctx, procedure, previous?.extraSections);
    if (previous) {
      engine.emit('procedure:updated', {
        procedure: indexed.procedure,
        previous: previous.procedure,
        file: indexed.file,
        similarity: 1,
      });
    } else {
      engine.emit('procedure:created', { procedure: indexed.procedure, file: indexed.file });
    }
    return indexed.procedure;
  });
}
