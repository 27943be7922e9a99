import type { Scope } from '../../spec/memory.js';
import { type IndexedProcedure, type IndexState, syncIndex } from '../procedure-index.js';
import { COMPONENT, type LibraryContext } from './library-context.js';

/**
 * Bring the store's index up to the files (all of them, or `only` these slugs) for `scope`,
 * and report each broken file once per content: a warning and `procedure:invalid`.
 */
export async function syncLibrary(
  ctx: LibraryContext,
  only?: readonly string[],
  scope: Scope | undefined = ctx.engine.scope,
): Promise<IndexState> {
  const { engine } = ctx;
  await engine.ready(COMPONENT);
  const state = await syncIndex(
    { store: engine.store, directory: ctx.dir(), scope, embedderId: engine.embedder.id, embed: ctx.embed },
    only,
  );
  for (const broken of state.broken) {
    if (ctx.reported.get(broken.file) === broken.sha256) continue;
    ctx.reported.set(broken.file, broken.sha256);
    engine.logger.log('warn', `procedure file ${broken.file} is not readable and was left as it is: ${broken.reason}`);
    engine.emit('procedure:invalid', { file: broken.file, reason: broken.reason });
  }
  return state;
}

/** The procedure of `<slug>.md` as indexed for `scope`, when it is readable and in that scope. */
export async function indexedOne(
  ctx: LibraryContext,
  slug: string,
  scope: Scope | undefined = ctx.engine.scope,
): Promise<IndexedProcedure | undefined> {
  const state = await syncLibrary(ctx, [slug], scope);
  return state.procedures.find((entry) => entry.procedure.id === slug);
}
