import type { Memory, Scope } from '../spec/memory.js';
import type { Entity, Session } from '../spec/records.js';
import type { CoreStore } from '../store/store-facade.js';
import { foldText } from '../text/analyze.js';

/** URL- and file-safe key of an entity name: `The Castle` → `the-castle`. */
export function entitySlug(name: string): string {
  const slug = foldText(name)
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return slug || 'entity';
}

/** Id of an entity record: its slug qualified by scope, so two users' "Peter" stay apart. */
export function entityId(scope: Scope, name: string): string {
  return `${scope.agentId ?? ''}/${scope.userId ?? ''}/${scope.namespace ?? ''}/${entitySlug(name)}`;
}

const scopePrefix = (scope: Scope) => `${scope.agentId ?? ''}/${scope.userId ?? ''}/${scope.namespace ?? ''}/`;
const hasScope = (scope: Scope) =>
  scope.agentId !== undefined || scope.userId !== undefined || scope.namespace !== undefined;

/**
 * Key of a session record: the session id qualified by scope, so two users who happen to
 * share a session id keep separate records and counts. A session of no scope keeps its bare id.
 */
export function sessionRecordId(scope: Scope, sessionId: string): string {
  return hasScope(scope) ? `${scopePrefix(scope)}${sessionId}` : sessionId;
}

/** The session id a record stands for: its key without the scope qualifier. */
export function sessionIdOf(record: Pick<Session, 'id' | 'scope'>): string {
  const prefix = scopePrefix(record.scope);
  return hasScope(record.scope) && record.id.startsWith(prefix) ? record.id.slice(prefix.length) : record.id;
}

function countBy<K>(keys: Iterable<K>): Map<K, number> {
  const counts = new Map<K, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
}

async function tallyEntities(store: CoreStore, memories: readonly Memory[], sign: 1 | -1, now: string) {
  const mentions = memories.flatMap((memory) =>
    memory.entities.map((name) => ({ id: entityId(memory.scope, name), name, scope: memory.scope })),
  );
  if (mentions.length === 0) return;
  const counts = countBy(mentions.map((mention) => mention.id));
  const firstMention = new Map<string, (typeof mentions)[number]>();
  for (const mention of mentions) if (!firstMention.has(mention.id)) firstMention.set(mention.id, mention);
  const existing = new Map((await store.entities.get([...counts.keys()])).map((entity) => [entity.id, entity]));
  const upserts: Entity[] = [];
  const deletes: string[] = [];
  for (const [id, count] of counts) {
    const mention = firstMention.get(id)!;
    const current = existing.get(id);
    const memoryCount = Math.max(0, (current?.memoryCount ?? 0) + sign * count);
    if (memoryCount === 0 && !current?.summary) {
      if (current) deletes.push(id);
      continue;
    }
    upserts.push({
      id,
      slug: entitySlug(mention.name),
      name: current?.name ?? mention.name,
      summary: current?.summary ?? null,
      memoryCount,
      scope: current?.scope ?? mention.scope,
      createdAt: current?.createdAt ?? now,
      updatedAt: now,
    });
  }
  if (upserts.length > 0) await store.entities.upsert(upserts);
  if (deletes.length > 0) await store.entities.delete(deletes);
}

async function tallySessions(store: CoreStore, memories: readonly Memory[], sign: 1 | -1, now: string) {
  const withSession = memories.filter((memory) => memory.sessionId !== null);
  if (withSession.length === 0) return;
  const keyOf = (memory: Memory) => sessionRecordId(memory.scope, memory.sessionId!);
  const counts = countBy(withSession.map(keyOf));
  const firstMemory = new Map<string, Memory>();
  for (const memory of withSession) if (!firstMemory.has(keyOf(memory))) firstMemory.set(keyOf(memory), memory);
  const existing = new Map((await store.sessions.get([...counts.keys()])).map((session) => [session.id, session]));
  const upserts: Session[] = [];
  for (const [id, count] of counts) {
    const current = existing.get(id);
    const first = firstMemory.get(id)!;
    upserts.push({
      id,
      scope: current?.scope ?? first.scope,
      startedAt: current?.startedAt ?? now,
      endedAt: sign > 0 ? now : (current?.endedAt ?? null),
      memoryCount: Math.max(0, (current?.memoryCount ?? 0) + sign * count),
      summary: current?.summary ?? null,
      metadata: current?.metadata ?? {},
    });
  }
  await store.sessions.upsert(upserts);
}

/**
 * Keep entity and session records in step with memories being added (`sign` 1) or
 * removed (`sign` -1). Runs inside the caller's transaction.
 */
export async function applyTallies(store: CoreStore, memories: readonly Memory[], sign: 1 | -1, now: string) {
  await tallyEntities(store, memories, sign, now);
  await tallySessions(store, memories, sign, now);
}
