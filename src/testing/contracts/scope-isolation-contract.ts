import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import {
  createMemory,
  type Memory,
  type MemoryClient,
  type MemoryRecord,
  type MemoryStore,
  NotFoundError,
  type RecordKind,
  type Scope,
  ValidationError,
} from '../../index.js';
import { createCounterIds, createFixedClock } from '../test-runtime.js';
import { type ContractSkip, contractTests } from './contract-skips.js';

/**
 * How to run {@link runScopeIsolationContract} against one store.
 *
 * @group Testing
 */
export interface ScopeIsolationContractOptions {
  /** The store's name, shown in the suite title. */
  name: string;
  /** A fresh, empty, unopened store; called once, and shared by the suite's clients. */
  create: () => MemoryStore;
  /** Tests the store cannot pass, each group with the reason; names are test titles. */
  skip?: readonly ContractSkip[];
  /**
   * How Alice's and Bob's clients are made: `'clients'` (default), each by `createMemory({ scope })`
   * over the shared store; `'views'`, as `admin.withScope(scope)`, views sharing the admin's engine.
   */
  tenants?: 'clients' | 'views';
}

// Scope is a tenant boundary. Two scoped clients (Alice, Bob) and an admin client share
// one store; every public method of Alice's client is called while a recording wrapper
// around the store notes every memory and record it hands back or is asked to change.
// Not one of them may be Bob's.

type Owner = 'alice' | 'bob' | 'none';

const ownerOf = (scope: Scope | undefined): Owner =>
  scope?.userId === 'alice' ? 'alice' : scope?.userId === 'bob' ? 'bob' : 'none';

/** Wraps a store so every memory or record crossing it is attributed to the acting client. */
function recordingStore(base: MemoryStore) {
  const owners = new Map<string, Owner>();
  const seen: Array<{ actor: string; owner: Owner; how: string }> = [];
  let actor = 'setup';
  const note = (how: string, owner: Owner) => seen.push({ actor, owner, how });
  const noteMemories = (how: string, memories: readonly Memory[]) => {
    for (const memory of memories) {
      owners.set(memory.id, ownerOf(memory.scope));
      note(how, ownerOf(memory.scope));
    }
    return memories;
  };
  const noteIds = (how: string, ids: Iterable<string>) => {
    for (const id of ids) note(how, owners.get(id) ?? 'none');
  };
  const noteRecords = <T extends { scope: Scope }>(how: string, records: readonly T[]) => {
    for (const record of records) note(how, ownerOf(record.scope));
    return records;
  };
  const recordsOf = (kind: RecordKind, records: readonly unknown[]): Array<{ id: string; scope: Scope }> =>
    kind === 'memory'
      ? (records as readonly MemoryRecord[]).map((record) => record.memory)
      : (records as Array<{ id: string; scope: Scope }>);
  const store = new Proxy(base, {
    get(target, property) {
      // A wrapper has an optional member only when the store it wraps has it.
      if (typeof property === 'string' && !(property in target)) return undefined;
      switch (property) {
        case 'get':
        case 'list':
          return async (kind: RecordKind, query: never) => {
            const found = await (target[property] as (kind: RecordKind, query: never) => Promise<unknown[]>)(
              kind,
              query,
            );
            if (kind === 'memory') noteMemories(`${property}(memory)`, found as Memory[]);
            else noteRecords(`${property}(${kind})`, found as Array<{ scope: Scope }>);
            return found;
          };
        case 'put':
          return async (kind: RecordKind, records: readonly never[]) => {
            const written = recordsOf(kind, records);
            if (kind === 'memory') noteMemories('put(memory)', written as unknown as Memory[]);
            else noteRecords(`put(${kind})`, written);
            return target.put(kind, records);
          };
        case 'delete':
          return async (kind: RecordKind, ids: readonly string[]) => {
            if (kind === 'memory') noteIds('delete(memory)', ids);
            else noteRecords(`delete(${kind})`, await target.get(kind, ids));
            return target.delete(kind, ids);
          };
        case 'searchLexical':
        case 'searchVector':
          return async (query: never) => {
            const hits = await (target[property] as (query: never) => Promise<Array<{ id: string }>>)(query);
            noteIds(
              property,
              hits.map((hit) => hit.id),
            );
            return hits;
          };
        case 'getEmbeddings':
          return async (ids: readonly string[]) => {
            const found = await target.getEmbeddings(ids);
            noteIds('getEmbeddings', found.keys());
            return found;
          };
        case 'recordAccess':
          return async (ids: readonly string[], at: string) => {
            noteIds(property, ids);
            return target.recordAccess!(ids, at);
          };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return {
    store,
    /** Run `work` as `who`, background work included, and return what crossed the store meanwhile. */
    async as<T>(who: string, client: MemoryClient, work: () => Promise<T>): Promise<T> {
      actor = who;
      try {
        const result = await work();
        await client.flush();
        return result;
      } finally {
        actor = 'setup';
      }
    },
    crossings: (who: string, other: Owner) =>
      seen.filter((entry) => entry.actor === who && entry.owner === other).map((entry) => entry.how),
  };
}

const rejectsNotFound = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(NotFoundError.isInstance(error), String(error)).toBe(true);
};

/**
 * Declare the scope-isolation contract for one store: scope is a tenant boundary. Two scoped
 * clients (Alice and Bob) and an admin client share one store; every public method of Alice's
 * client is called (reads, writes, changes, sessions, procedures, lifecycle, backup and
 * clear) while a recording wrapper around the store notes every memory and record it hands
 * back or is asked to change, and not one may be Bob's. Call it at the top level of a vitest
 * test file.
 *
 * @example
 * ```ts
 * import { runScopeIsolationContract } from 'memoir/testing/contracts';
 *
 * runScopeIsolationContract({ name: 'my store', create: () => createMyStore() });
 * ```
 *
 * @group Testing
 */
export function runScopeIsolationContract(options: ScopeIsolationContractOptions): void {
  const contract = options;
  const name = contract.tenants === 'views' ? `${options.name}, tenants as views` : options.name;
  const makeStore = options.create;
  const { test: it, checkSkipList } = contractTests(`scope isolation (${name})`, options.skip);
  describe(`scope isolation (${name})`, () => {
    const recorder = recordingStore(makeStore());
    const clock = createFixedClock('2025-11-27T09:00:00Z');
    const options = { store: recorder.store, clock, ids: createCounterIds(), logger: { log() {} } };
    const backupDirectory = mkdtempSync(join(tmpdir(), 'memoir-isolation-'));
    const views = contract.tenants === 'views';
    const tenantOptions = {
      ...options,
      sessionId: 'shared',
      backupDirectory,
      capture: { enabled: true, minIntervalSeconds: 0 },
    };
    // As views, the admin is made with what Alice's client is given, since a view keeps its client's settings.
    const admin = createMemory(views ? tenantOptions : { ...options, backupDirectory });
    const alice = views
      ? admin.withScope({ userId: 'alice' })
      : createMemory({ ...tenantOptions, scope: { userId: 'alice' } });
    const bob = views
      ? admin.withScope({ userId: 'bob' })
      : createMemory({ ...options, scope: { userId: 'bob' }, sessionId: 'shared', backupDirectory });
    const ids: Record<'alice' | 'bob', string[]> = { alice: [], bob: [] };
    // Background work the other clients started earlier (the admin's pass over unembedded
    // memories when it first opens, say) is theirs: it finishes before Alice's turn begins,
    // so a slower store cannot have it counted as Alice's.
    const asAlice = async <T>(work: () => Promise<T>) => {
      await Promise.all([bob.flush(), admin.flush()]);
      return recorder.as('alice', alice, work);
    };

    beforeAll(async () => {
      const facts = (who: string) => [
        { content: `${who} keeps the home server in the garage`, entities: ['Peter'], importance: 0.9 },
        { content: `${who} prefers dark mode in every editor`, entities: ['Editor'] },
        { content: `${who} keeps the home server in the garage`, kind: 'experience' as const },
        { content: `${who} old note about the garage`, occurredAt: '2020-01-01T00:00:00Z' },
      ];
      ids.alice = (await alice.retain(facts('Someone'))).ids;
      ids.bob = (await bob.retain(facts('Someone'))).ids;
      ids.bob.push(...(await bob.retain({ content: 'Bob only session note', sessionId: 'bob-only' })).ids);
      for (const [client, tool] of [
        [alice, 'deploy'],
        [bob, 'deploy'],
      ] as const) {
        for (let run = 0; run < 3; run++) {
          for (const step of ['build', tool]) {
            await client.retain({
              content: `ran ${step}`,
              kind: 'experience',
              category: 'action',
              entities: [step],
              sessionId: `${ownerOf(client === alice ? { userId: 'alice' } : { userId: 'bob' })}-run-${run}`,
              metadata: { tool: step, success: step === tool ? run !== 1 : true },
            });
            clock.advance(60_000);
          }
        }
      }
      await alice.flush();
      await bob.flush();
    });

    afterAll(async () => {
      await alice.close();
      await bob.close();
      await admin.close();
    });

    it('reads: recall, list, get and stats see only Alice’s memories, and a per-call scope only narrows', async () => {
      await asAlice(async () => {
        const recalled = await alice.recall('home server garage', { k: 50 });
        expect(recalled.results.length).toBeGreaterThan(0);
        expect(recalled.results.every((result) => result.memory.scope.userId === 'alice')).toBe(true);
        expect((await alice.recall('home server', { scope: { userId: 'bob' } })).results).toEqual([]);
        const narrowed = await alice.recall('home server', { scope: { agentId: 'x' } });
        expect(narrowed.results).toEqual([]);
        expect((await alice.list({ limit: 1000 })).every((memory) => memory.scope.userId === 'alice')).toBe(true);
        expect(await alice.list({ scope: { userId: 'bob' } })).toEqual([]);
        await rejectsNotFound(alice.get(ids.bob[0]!));
        const stats = await alice.stats();
        expect(stats.memories).toBe((await alice.list({ limit: 1000 })).length);
        expect(stats.byCategory.action).toBe(6);
      });
      expect((await alice.stats()).memories).toBe(
        (await admin.list({ scope: { userId: 'alice' }, limit: 1000 })).length,
      );
      expect(recorder.crossings('alice', 'bob')).toEqual([]);
    });

    it('writes: retain into another scope is refused; narrowing retains stay inside Alice’s scope', async () => {
      const bobBefore = (await admin.list({ scope: { userId: 'bob' }, limit: 1000 })).length;
      await asAlice(async () => {
        await expect(alice.retain({ content: 'sneaky', scope: { userId: 'bob' } })).rejects.toThrow(ValidationError);
        expect(() => alice.retainAsync({ content: 'sneaky', scope: { userId: 'bob' } })).toThrow(ValidationError);
        await expect(
          alice.retain({ messages: [{ role: 'user', content: 'hi' }], scope: { userId: 'bob' } }),
        ).rejects.toThrow(ValidationError);
        const { memories } = await alice.retain({ content: 'agent x note', scope: { agentId: 'x' } });
        expect(memories[0]?.scope).toEqual({ userId: 'alice', agentId: 'x' });
        expect((await alice.recall('agent x note', { scope: { agentId: 'x' } })).results).toHaveLength(1);
        alice.capture({ tool: 'browser.open', parameters: { url: 'https://example.com' }, success: true });
      });
      expect((await admin.list({ scope: { userId: 'bob' }, limit: 1000 })).length).toBe(bobBefore);
      expect(recorder.crossings('alice', 'bob')).toEqual([]);
    });

    it('changes: get, update, invalidate, forget and attach treat Bob’s ids as unknown', async () => {
      const target = ids.bob[0]!;
      const file = join(backupDirectory, 'note.txt');
      writeFileSync(file, 'attachment');
      await asAlice(async () => {
        await rejectsNotFound(alice.update(target, { content: 'changed' }));
        await rejectsNotFound(alice.invalidate(target, 'no longer true'));
        await rejectsNotFound(alice.invalidate(ids.alice[0]!, { reason: 'replaced', supersededBy: target }));
        await rejectsNotFound(alice.attach(target, file));
        await rejectsNotFound(alice.readAttachment(target, 'note.txt'));
        expect(await alice.forget([target, ...ids.bob])).toBe(0);
      });
      const stillThere = await admin.get(target);
      expect(stillThere.content).toContain('home server');
      expect(stillThere.validTo).toBeNull();
      expect(recorder.crossings('alice', 'bob')).toEqual([]);
    });

    it('sessions: a shared session id keeps one record per user; resume and delete touch only Alice’s', async () => {
      await asAlice(async () => {
        const sessions = await alice.listSessions();
        expect(sessions.every((session) => session.scope.userId === 'alice')).toBe(true);
        const shared = sessions.find((session) => session.id === 'shared');
        const aliceShared = (await alice.list({ sessionId: 'shared', limit: 1000 })).length;
        expect(shared?.memoryCount).toBe(aliceShared);
        await rejectsNotFound(alice.resumeSession('bob-only'));
        // Starting a session of Bob's id is Alice's own new session: his is not found, nor continued.
        expect(await alice.startSession('bob-only')).toEqual({ id: 'bob-only', resumed: false });
        expect((await alice.resumeSession('shared')).id).toBe('shared');
      });
      const bobShared = (await admin.list({ scope: { userId: 'bob' }, sessionId: 'shared', limit: 1000 })).length;
      const aliceSharedBefore = (await alice.list({ sessionId: 'shared', limit: 1000 })).length;
      expect(await bob.deleteSession('shared', { confirm: true })).toBe(bobShared);
      expect((await alice.list({ sessionId: 'shared', limit: 1000 })).length).toBe(aliceSharedBefore);
      expect((await alice.listSessions()).some((session) => session.id === 'shared')).toBe(true);
      expect(recorder.crossings('alice', 'bob')).toEqual([]);
    });

    it('procedures: workflows, suggestions, warnings and patterns come from Alice’s actions only', async () => {
      await asAlice(async () => {
        const detected = await alice.detectWorkflows({ minRepeats: 3 });
        for (const workflow of detected) expect(workflow.sessions.every((id) => id.startsWith('alice'))).toBe(true);
        const suggestions = await alice.suggest('deploy the build', { k: 20 });
        const mine = new Set((await alice.list({ limit: 1000 })).map((memory) => memory.id));
        expect(suggestions.every((suggestion) => mine.has(suggestion.memoryId))).toBe(true);
        const warning = await alice.warn({ tool: 'deploy' });
        expect(warning.attempts).toBe(3);
        expect((await alice.analyzePatterns()).tools.every((tool) => tool.attempts <= 6)).toBe(true);
        await alice.createWorkflowFromSession('alice-run-0', 'Deploy').then(
          (procedure) => expect(procedure.scope.userId).toBe('alice'),
          (error: unknown) => expect(MemoirErrorLike(error)).toBe(true),
        );
      });
      expect(recorder.crossings('alice', 'bob')).toEqual([]);
    });

    it('lifecycle: export, cleanup, consolidate and reindex never touch Bob’s memories', async () => {
      const bobBefore = (await admin.list({ scope: { userId: 'bob' }, limit: 1000 })).length;
      await asAlice(async () => {
        const lines: string[] = [];
        for await (const line of alice.export()) lines.push(line);
        expect(lines.some((line) => line.includes('"userId":"bob"'))).toBe(false);
        const mine = new Set((await alice.list({ limit: 1000 })).map((memory) => memory.id));
        const planned = await alice.consolidate({ threshold: 0.9, dryRun: true });
        const expiring = await alice.cleanup({ dryRun: true, retentionDays: 0.0001 });
        for (const id of [...planned.ids, ...planned.kept, ...expiring.ids]) expect(mine.has(id)).toBe(true);
        await alice.consolidate({ threshold: 0.9 });
        await alice.cleanup();
        await expect(alice.reindex()).rejects.toThrow(ValidationError);
      });
      expect((await admin.list({ scope: { userId: 'bob' }, limit: 1000 })).length).toBe(bobBefore);
      expect(recorder.crossings('alice', 'bob')).toEqual([]);
    });

    it('backup and clearAll of a scoped client cover its scope only; the admin sees every scope', async () => {
      const bobBefore = (await admin.list({ scope: { userId: 'bob' }, limit: 1000 })).length;
      await asAlice(async () => {
        const info = await alice.backup('alice-only');
        expect(info.counts.memories).toBe((await alice.list({ limit: 1000 })).length);
        await alice.clearAll({ confirm: true });
        expect(await alice.list()).toEqual([]);
      });
      expect((await admin.list({ scope: { userId: 'bob' }, limit: 1000 })).length).toBe(bobBefore);
      expect(bobBefore).toBeGreaterThan(0);
      expect((await admin.stats()).memories).toBeGreaterThanOrEqual(bobBefore);
      expect(recorder.crossings('alice', 'bob')).toEqual([]);
    });

    checkSkipList();
  });
}

function MemoirErrorLike(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error;
}
