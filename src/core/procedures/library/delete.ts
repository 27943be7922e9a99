import { keepHistory, readProcedureFile, removeProcedureFile } from '../../procedure-files/procedure-directory.js';
import { parseInput } from '../../utils/validate.js';
import { COMPONENT, type LibraryContext } from './library-context.js';
import { locked, ownFile } from './library-files.js';
import { slugSchema } from './library-schemas.js';

/** `procedures.delete`: remove a procedure's file (a copy stays under `.history/`) and its index entry. */
export async function deleteProcedure(ctx: LibraryContext, id: string): Promise<boolean> {
  const { engine } = ctx;
  const slug = parseInput(slugSchema, id, 'procedures.delete', 'id');
  await engine.ready(COMPONENT);
  return locked(ctx, async () => {
    const snapshot = await readProcedureFile(ctx.dir(), slug);
    if (!snapshot) return false;
    await ownFile(ctx, slug, 'procedures.delete');
    await keepHistory(ctx.dir(), slug, engine.nowIso());
    await removeProcedureFile(ctx.dir(), slug);
    await engine.store.procedures.delete([slug]);
    return true;
  });
}
