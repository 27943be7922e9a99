import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { Memory, MemoryKind, memoryInputSchema, Scope, Source } from '../spec/memory.js';

/** A retain input after validation. */
export type ParsedMemoryInput = z.output<typeof memoryInputSchema>;

/** Defaults the client fills into each input. */
export interface BuildDefaults {
  /** Id for the new memory, used when the input has none. */
  id: string;
  /** Current time, ISO. */
  now: string;
  /** Client-wide scope. */
  scope: Scope | undefined;
  /** Client-wide session. */
  sessionId: string | undefined;
}

const ABSTRACT_MAX_CHARS = 240;

/** The first sentence of a text, cut at a word boundary near {@link ABSTRACT_MAX_CHARS}. */
export function deriveAbstract(content: string): string {
  const flat = content.replace(/\s+/g, ' ').trim();
  const sentence = /^(.+?[.!?。！？])(\s|$)/u.exec(flat)?.[1] ?? flat;
  if (sentence.length <= ABSTRACT_MAX_CHARS) return sentence;
  const cut = sentence.slice(0, ABSTRACT_MAX_CHARS);
  const space = cut.lastIndexOf(' ');
  return `${space > ABSTRACT_MAX_CHARS / 2 ? cut.slice(0, space) : cut}…`;
}

function canonicalScope(scope: Scope): [string | null, string | null, string | null] {
  return [scope.agentId ?? null, scope.userId ?? null, scope.namespace ?? null];
}

function canonicalSource(source: Source | null): unknown {
  return source ? [source.file ?? null, source.line ?? null, source.url ?? null, source.messageId ?? null] : null;
}

/**
 * Identity of a retained item: what it says, where it belongs and where it came from.
 * Retaining the same item twice (a retry, a re-import) yields the same fingerprint.
 */
export function fingerprintOf(fields: {
  kind: MemoryKind;
  category: string;
  content: string;
  scope: Scope;
  sessionId: string | null;
  source: Source | null;
  occurredAt: string | null;
}): string {
  const canonical = JSON.stringify([
    fields.kind,
    fields.category,
    fields.content,
    canonicalScope(fields.scope),
    fields.sessionId,
    canonicalSource(fields.source),
    fields.occurredAt,
  ]);
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 32);
}

/** Remove repeated entity names, case-insensitively, keeping the first spelling. */
export function uniqueEntities(entities: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const entity of entities) {
    const key = entity.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(entity);
  }
  return out;
}

// ISO timestamps in UTC compare correctly as strings.
function earlierOf(a: string, b: string): string {
  if (a <= b) return a;
  return b;
}

/** Turn a validated input into the memory to store. */
export function buildMemory(input: ParsedMemoryInput, defaults: BuildDefaults): Memory {
  const kind = input.kind ?? 'world';
  const category = input.category ?? 'note';
  const scope = input.scope ?? defaults.scope ?? {};
  const sessionId = input.sessionId ?? defaults.sessionId ?? null;
  const source = input.source ?? null;
  const occurredAt = input.occurredAt ?? defaults.now;
  return {
    id: input.id ?? defaults.id,
    kind,
    category,
    abstract: input.abstract || deriveAbstract(input.content),
    overview: input.overview ?? null,
    content: input.content,
    context: input.context ?? null,
    entities: uniqueEntities(input.entities ?? []),
    scope,
    sessionId,
    source,
    occurredAt,
    createdAt: defaults.now,
    updatedAt: defaults.now,
    // A fact about a future event is already true now; one about a past event has been true since then.
    validFrom: input.validFrom ?? earlierOf(occurredAt, defaults.now),
    validTo: null,
    invalidationReason: null,
    supersededBy: null,
    importance: input.importance ?? 0.5,
    bookmarked: input.bookmarked ?? false,
    accessCount: 0,
    lastAccessedAt: null,
    fingerprint: fingerprintOf({
      kind,
      category,
      content: input.content,
      scope,
      sessionId,
      source,
      occurredAt: input.occurredAt ?? null,
    }),
    metadata: input.metadata ?? {},
  };
}
