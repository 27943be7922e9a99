import { keepHistory, readProcedureFile } from '../../procedure-files/procedure-directory.js';
import { sha256 } from '../../procedure-files/procedure-file.js';
import type { ProcedureOutput } from '../../prompts/procedure-prompt.js';
import { cosineSimilarity } from '../../search/vector-math.js';
import type { Scope } from '../../spec/memory.js';
import type { Procedure } from '../../spec/records.js';
import { embeddedTexts, type IndexedProcedure } from '../procedure-index.js';
import { draftOf, mergeDrafts, needsModelSection, withoutNeedsModel } from '../procedure-learning.js';
import type { LibraryContext } from './library-context.js';
import { freeSlug, locked, newProcedure, writeProcedure } from './library-files.js';
import { syncLibrary } from './library-index.js';

/** The metadata key of a procedure written from tool calls alone, without a model. */
export const WRITTEN_WITHOUT_MODEL = 'writtenWithoutModel';
// Attempts at merging into a file that keeps changing under us; the last one merges without the model, under the lock.
const MERGE_ATTEMPTS = 3;

/** Replace a stored procedure's text parts with a merged draft, keeping its counters and history. */
async function replaceWithMerge(
  ctx: LibraryContext,
  existing: IndexedProcedure,
  draft: ProcedureOutput,
  similarity: number,
  byModel = false,
): Promise<void> {
  const { engine } = ctx;
  const now = engine.nowIso();
  const history = await keepHistory(ctx.dir(), existing.procedure.id, now);
  // A model's merge writes the sections a draft without one lacked: its note goes.
  const { [WRITTEN_WITHOUT_MODEL]: _note, ...metadata } = existing.procedure.metadata;
  const merged: Procedure = {
    ...existing.procedure,
    ...draft,
    ...(byModel ? { metadata } : {}),
    updatedAt: now,
  };
  const indexed = await writeProcedure(
    ctx,
    merged,
    byModel ? withoutNeedsModel(existing.extraSections) : existing.extraSections,
  );
  engine.logger.log('info', `Updated procedure: ${indexed.file}`, { similarity, history });
  engine.emit('procedure:updated', {
    procedure: indexed.procedure,
    previous: existing.procedure,
    file: indexed.file,
    similarity,
  });
}

/**
 * Store a learned draft: merge it into the most similar procedure of the scope when that one
 * reaches `updateThreshold`, else create a file. Deciding and writing happen under the
 * directory lock, so two reflections on similar tasks make one procedure; the model merge
 * runs outside it, and is redone when the file changed meanwhile (a hand edit is never
 * overwritten by a merge of the version before it).
 */
export async function commitDraft(
  ctx: LibraryContext,
  draft: ProcedureOutput,
  source: Procedure['source'],
  scope: Scope | undefined,
  withoutModel?: { failed: string[] },
): Promise<void> {
  const { engine } = ctx;
  await syncLibrary(ctx, undefined, scope);
  const [combined] = await ctx.embed(embeddedTexts(draft).slice(0, 1));
  for (let attempt = 1; attempt <= MERGE_ATTEMPTS; attempt++) {
    const last = attempt === MERGE_ATTEMPTS;
    const target = await locked(ctx, async () => {
      const state = await syncLibrary(ctx, undefined, scope);
      let best: { entry: IndexedProcedure; similarity: number } | undefined;
      for (const entry of state.procedures) {
        const similarity = entry.vectors[0] ? cosineSimilarity(combined!, entry.vectors[0]) : -1;
        if (!best || similarity > best.similarity) best = { entry, similarity };
      }
      if (best && best.similarity >= ctx.thresholds().update) {
        if (!last) return best;
        // The file kept changing: merge without the model, here, where nothing can change it.
        await replaceWithMerge(
          ctx,
          best.entry,
          (await mergeDrafts(undefined, draftOf(best.entry.procedure), draft)).draft,
          best.similarity,
        );
        return null;
      }
      const slug = await freeSlug(ctx, draft.title);
      const indexed = withoutModel
        ? await writeProcedure(
            ctx,
            newProcedure(ctx, slug, draft, source, scope, { [WRITTEN_WITHOUT_MODEL]: true }),
            needsModelSection(withoutModel.failed),
          )
        : await writeProcedure(ctx, newProcedure(ctx, slug, draft, source, scope));
      engine.logger.log('info', `Created procedure: ${indexed.file}`);
      engine.emit('procedure:created', { procedure: indexed.procedure, file: indexed.file });
      return null;
    });
    if (!target) return;
    const merge = await mergeDrafts(ctx.model(), draftOf(target.entry.procedure), draft);
    if (merge.error) engine.logger.log('warn', `procedure merge fell back to a union of both: ${merge.error}`);
    const done = await locked(ctx, async () => {
      const current = await readProcedureFile(ctx.dir(), target.entry.procedure.id);
      if (!current || sha256(current.text) !== sha256(target.entry.text)) return false;
      await replaceWithMerge(ctx, target.entry, merge.draft, target.similarity, merge.byModel);
      return true;
    });
    if (done) return;
  }
}
