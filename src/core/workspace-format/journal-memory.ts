/** The memory a memoir-written bullet stands for, read back from a workspace file. */

import { buildMemory, deriveAbstract } from '../shared/memory-builder.js';
import { type Memory, memorySchema, type Scope } from '../spec/memory.js';
import type { WorkspaceItem } from './workspace-chunks.js';

// Whether a memory of `scope` is one a client of `client` scope sees (every field it names matches).
function within(client: Scope, scope: Scope): boolean {
  return (
    (client.userId === undefined || client.userId === scope.userId) &&
    (client.agentId === undefined || client.agentId === scope.agentId) &&
    (client.namespace === undefined || client.namespace === scope.namespace)
  );
}

// The metadata the index adds to an item of `file`.
function marks(item: WorkspaceItem, file: string, hash: string): Memory['metadata'] {
  return {
    workspace: { file, hash },
    retained: true,
    journal: true,
    ...(item.heading === null ? {} : { heading: item.heading }),
    ...(item.confidence === undefined ? {} : { confidence: item.confidence }),
  };
}

/**
 * The memory of a memoir-written bullet of `file`: its text, kind, mentions and confidence
 * from the Markdown, the rest from its marker, cited at its line. Undefined for a memory of
 * a scope the client does not see (another tenant's retain into the same workspace).
 */
export function journalMemory(
  file: string,
  item: WorkspaceItem,
  hash: string,
  day: string,
  now: string,
  clientScope: Scope | undefined,
): Memory | undefined {
  const journal = item.journal!;
  const fields = journal.fields;
  const scope = fields.scope ?? clientScope ?? {};
  if (clientScope !== undefined && !within(clientScope, scope)) return undefined;
  const base = buildMemory(
    { content: journal.content, kind: journal.kind, entities: journal.entities, occurredAt: day },
    { id: fields.id, now, scope, sessionId: undefined },
  );
  const { entities: _entities, metadata, source, abstract, ...rest } = fields;
  const candidate = {
    ...base,
    ...rest,
    id: fields.id,
    kind: journal.kind,
    content: journal.content,
    entities: base.entities,
    scope,
    // An abstract differing from the text's first sentence was written on purpose; otherwise it follows the text.
    abstract: abstract ?? deriveAbstract(journal.content),
    source: { ...(source ?? {}), file, line: item.line },
    metadata: { ...(metadata ?? {}), ...marks(item, file, hash) },
  };
  const checked = memorySchema.safeParse(candidate);
  // A marker edited into something that is no memory: the Markdown alone still is one.
  if (checked.success) return checked.data;
  return { ...base, source: { file, line: item.line }, metadata: marks(item, file, hash) };
}

/**
 * A bullet read again for a memory already in the index: it keeps what the index learned
 * since it was retained (superseded, recalled, re-extracted) and takes from the file what a
 * person may have edited there — the text, kind, mentions, confidence — and where it now is.
 */
export function mergedJournalMemory(before: Memory, read: Memory, now: string): Memory {
  const edited =
    before.content !== read.content ||
    before.kind !== read.kind ||
    before.entities.join('\u0000') !== read.entities.join('\u0000') ||
    before.metadata.confidence !== read.metadata.confidence;
  const abstractWasDerived = before.abstract === deriveAbstract(before.content);
  return {
    ...before,
    content: read.content,
    kind: read.kind,
    entities: read.entities,
    abstract: abstractWasDerived ? deriveAbstract(read.content) : before.abstract,
    source: read.source,
    metadata: { ...before.metadata, ...read.metadata },
    ...(edited ? { updatedAt: now } : {}),
  };
}
