import { fileOf, readProcedureFile, slugTaken } from '../../procedure-files/procedure-directory.js';
import {
  ProcedureFileError,
  parseProcedureFile,
  renderProcedureFile,
  slugify,
} from '../../procedure-files/procedure-file.js';
import type { ProcedureOutput } from '../../prompts/procedure-prompt.js';
import { scopeMatches } from '../../search/memory-filter.js';
import { writeFileAtomic } from '../../shared/files/atomic-write.js';
import { withDirectoryLock } from '../../shared/files/directory-lock.js';
import { NotFoundError, ValidationError } from '../../spec/errors.js';
import type { Scope } from '../../spec/memory.js';
import type { Procedure } from '../../spec/records.js';
import type { IndexedProcedure } from '../procedure-index.js';
import { COMPONENT, type LibraryContext } from './library-context.js';
import { indexedOne } from './library-index.js';

/** Run `work` under the directory's lock; a lock a live process keeps too long is a StoreError naming it. */
export function locked<T>(ctx: LibraryContext, work: () => Promise<T>): Promise<T> {
  return withDirectoryLock(ctx.dir(), work, { component: COMPONENT });
}

/** The first free slug for a title: `<slug>`, `<slug>-2`, … */
export async function freeSlug(ctx: LibraryContext, title: string): Promise<string> {
  const base = slugify(title);
  for (let n = 1; ; n++) {
    const slug = n === 1 ? base : `${base}-${n}`;
    // Anything by that name (even a link memoir will not read) is taken: it is never replaced.
    if (!(await slugTaken(ctx.dir(), slug))) return slug;
  }
}

/** Write a procedure's file and read it back through the index. */
export async function writeProcedure(
  ctx: LibraryContext,
  procedure: Procedure,
  extraSections = '',
): Promise<IndexedProcedure> {
  await writeFileAtomic(fileOf(ctx.dir(), procedure.id), renderProcedureFile(procedure, extraSections));
  const indexed = await indexedOne(ctx, procedure.id, procedure.scope);
  if (!indexed) throw new ProcedureFileError(`${fileOf(ctx.dir(), procedure.id)} was written but does not read back`);
  return indexed;
}

/** A procedure new from a draft: used once, successfully, now. */
export function newProcedure(
  ctx: LibraryContext,
  slug: string,
  draft: ProcedureOutput,
  source: Procedure['source'],
  scope: Scope | undefined,
  metadata: Procedure['metadata'] = {},
): Procedure {
  const now = ctx.engine.nowIso();
  return {
    id: slug,
    ...draft,
    successCount: 1,
    failureCount: 0,
    lastUsedAt: now,
    source,
    videoEvidence: [],
    scope: scope ?? {},
    createdAt: now,
    updatedAt: now,
    metadata,
  };
}

/** The file of `slug` when it belongs to the client's scope; a NotFoundError otherwise. */
export async function ownFile(ctx: LibraryContext, slug: string, component: string) {
  const snapshot = await readProcedureFile(ctx.dir(), slug);
  const notFound = () =>
    new NotFoundError('procedure', slug, {
      component,
      suggestion: `List the procedures with memory.procedures.list() or \`memoir procedures list\`; files live in ${ctx.dir()}.`,
    });
  if (!snapshot) throw notFound();
  let parsed: ReturnType<typeof parseProcedureFile>;
  try {
    parsed = parseProcedureFile(snapshot.text, slug, snapshot.modifiedAt);
  } catch (error) {
    throw new ValidationError(
      [{ field: 'id', message: `${snapshot.path} is not a readable procedure: ${(error as Error).message}` }],
      {
        component,
        suggestion: 'Fix the file by hand (memoir never rewrites a file it cannot read).',
      },
    );
  }
  // Another tenant's procedure is reported exactly as a missing one.
  if (!scopeMatches(parsed.procedure.scope, ctx.engine.scope)) throw notFound();
  return { snapshot, parsed };
}
