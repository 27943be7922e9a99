import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import type { MemoryEngine } from '../engine/memory-engine.js';
import { type AsyncMembers, drained } from '../engine/track-calls.js';
import { narrowScope, scopeForWrite } from '../search/scope-boundary.js';
import { writeFileAtomic } from '../shared/files/atomic-write.js';
import { withDirectoryLock } from '../shared/files/directory-lock.js';
import { ValidationError } from '../spec/errors.js';
import { type Scope, scopeSchema } from '../spec/memory.js';
import {
  type ConfinementContext,
  confinedFolder,
  confinedWritePath,
  readConfined,
  realDirectoryIfAny,
} from '../utils/confined-path.js';
import { loadTokenCounter } from '../utils/token-counter.js';
import { parseInput } from '../utils/validate.js';
import { MAX_WORKSPACE_FILE_BYTES } from '../workspace-format/workspace-files.js';
import { indexWorkspace } from '../workspace-format/workspace-index.js';

const CONFINED: ConfinementContext = { component: 'core', field: 'workspace' };

/** The core block's default limit, tokens (o200k_base, as recall budgets count). */
export const DEFAULT_CORE_TOKENS = 2000;

const text = z.string().trim().min(1, 'expected a non-empty string').max(200_000);
const replaceSchema = z.object({ find: text, with: z.string().max(200_000) }).strict();
const insertSchema = z
  .object({
    /** The text to insert, one or more lines. */
    text,
    /** 0-based line it goes before; past the end appends. */
    line: z.number().int().min(0),
  })
  .strict();

const callOptionsSchema = z
  .object({
    /** Narrows the client's scope to one tenant's block (never widens it). */
    scope: scopeSchema.optional(),
  })
  .strict();

/**
 * Options of every core block call.
 *
 * @group Core block
 */
export interface CoreBlockCallOptions {
  /**
   * Whose block: narrows the client's scope (an unscoped client serving many users passes
   * each one's). A scope naming another tenant reads an empty block and cannot be written.
   */
  scope?: Scope;
}

/**
 * The core block as it stands.
 *
 * @group Core block
 */
export interface CoreBlockState {
  /** Its text (for a workspace, the whole of `memory.md`). */
  text: string;
  /** Its size in tokens, counted as recall budgets are. */
  tokens: number;
  /** The most tokens it may hold. */
  limit: number;
}

/**
 * A small block of durable facts and preferences that stays in the agent's context every
 * turn (Letta's core memory): `memory.md` in a workspace, a record in the store otherwise.
 * An edit that would take it past its token limit is refused with a ValidationError.
 *
 * @group Core block
 */
export interface CoreBlock {
  /** The block now. */
  get(options?: CoreBlockCallOptions): Promise<CoreBlockState>;
  /**
   * Add text at the end, on its own line.
   *
   * @example
   * ```ts
   * await memory.core.append('- W @Peter: Lives in Vienna.');
   * const system = `${memory.formatContext(response, { core: await memory.core.get() })}`;
   * ```
   */
  append(text: string, options?: CoreBlockCallOptions): Promise<CoreBlockState>;
  /** Replace the one occurrence of `find` with `with`; a `find` that is missing or not unique is a ValidationError. */
  replace(edit: { find: string; with: string }, options?: CoreBlockCallOptions): Promise<CoreBlockState>;
  /** Insert text before 0-based line `line` (past the end appends). */
  insert(edit: { text: string; line: number }, options?: CoreBlockCallOptions): Promise<CoreBlockState>;
}

/**
 * The core block slice of a client.
 *
 * @group Core block
 */
export interface CoreBlockApi {
  /** The core block: see {@link CoreBlock}. */
  readonly core: CoreBlock;
}

/**
 * The block read from inside another tracked call (recall): not tracked again, so a recall
 * that started before close() still reads it while close() waits for that recall.
 */
export interface CoreBlockReader {
  /** `core.get(options)` without the close() check. */
  readWithinCall(options?: CoreBlockCallOptions): Promise<CoreBlockState>;
}

// Every recall reads the block by this key: the hash of a scope is worked out once per process.
const scopeKeys = new Map<string, string>();
function scopeKey(scope: Scope): string {
  const key = JSON.stringify([scope.agentId ?? null, scope.userId ?? null, scope.namespace ?? null]);
  let hashed = scopeKeys.get(key);
  if (hashed === undefined) {
    hashed = `core-block:${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
    if (scopeKeys.size >= 1000) scopeKeys.clear();
    scopeKeys.set(key, hashed);
  }
  return hashed;
}

function invalid(field: string, message: string, suggestion?: string): ValidationError {
  return new ValidationError([{ field, message }], { component: 'core', ...(suggestion ? { suggestion } : {}) });
}

const sameScope = (a: Scope, b: Scope) =>
  a.agentId === b.agentId && a.userId === b.userId && a.namespace === b.namespace;

// Edits of one store-held block queue behind each other in this process, so two edits never
// lose one another (a workspace block is locked on disk instead).
const storeLocks = new Map<string, Promise<unknown>>();
function serially<T>(key: string, work: () => Promise<T>): Promise<T> {
  const previous = storeLocks.get(key) ?? Promise.resolve();
  const next = previous.then(work, work);
  const settled = next.then(
    () => undefined,
    () => undefined,
  );
  storeLocks.set(key, settled);
  void settled.then(() => {
    if (storeLocks.get(key) === settled) storeLocks.delete(key);
  });
  return next;
}

/**
 * The core block over an engine: `memory.md` of the workspace at `root` for the client's own
 * scope, else (and for any narrower scope a call names) a record in the store, one per scope.
 */
export function createCoreBlockApi(
  engine: MemoryEngine,
  settings: { root: string | undefined; limit?: number },
): CoreBlockApi & CoreBlockReader {
  const root = settings.root === undefined ? undefined : resolve(settings.root);
  const limit = settings.limit ?? DEFAULT_CORE_TOKENS;
  const own: Scope = engine.scope ?? {};
  const overCap = 'Shorten the text, or replace or remove lines that are no longer true, then try again.';

  /** Where the block of `scope` lives: the workspace file for the client's own scope, else a store record. */
  const inWorkspace = (scope: Scope) => root !== undefined && sameScope(scope, own);

  async function readFile(folder: string): Promise<string> {
    const realRoot = realDirectoryIfAny(folder);
    if (realRoot === undefined) return '';
    const file = readConfined(realRoot, join(folder, 'memory.md'), MAX_WORKSPACE_FILE_BYTES);
    if (file.status === 'ok') return file.text;
    if (file.status === 'missing') return '';
    // A link leaving the workspace is not read into the agent's context; a file too big to
    // read cannot be the core block.
    if (file.kind === 'too-big')
      throw invalid('memory.md', `${join(folder, 'memory.md')} ${file.reason}; the core block holds ${limit} tokens`);
    engine.logger.log('warn', `core: ${join(folder, 'memory.md')} ${file.reason}; it was not read`);
    return '';
  }

  async function read(scope: Scope): Promise<string> {
    if (root !== undefined && inWorkspace(scope)) return readFile(root);
    await engine.ready('core');
    const [record] = await engine.store.entities.get([scopeKey(scope)]);
    return record?.summary ?? '';
  }

  async function stateOf(value: string): Promise<CoreBlockState> {
    const count = await loadTokenCounter();
    return { text: value, tokens: count(value), limit };
  }

  async function write(value: string, field: string, scope: Scope): Promise<CoreBlockState> {
    const state = await stateOf(value);
    if (state.tokens > limit)
      throw invalid(field, `would make the core block ${state.tokens} tokens, over its limit of ${limit}`, overCap);
    if (root !== undefined && inWorkspace(scope)) {
      await writeFileAtomic(confinedWritePath(root, ['memory.md'], CONFINED), value);
      await indexWorkspace(engine, root, { rebuild: false });
      return state;
    }
    const id = scopeKey(scope);
    const now = engine.nowIso();
    const [existing] = await engine.store.entities.get([id]);
    await engine.store.entities.upsert([
      {
        id,
        slug: 'core-block',
        name: 'core block',
        summary: value,
        memoryCount: 0,
        scope,
        createdAt: existing?.createdAt ?? now,
        updatedAt: now,
      },
    ]);
    return state;
  }

  /** The scope a call reads: the client's, narrowed by the call's; null for another tenant's. */
  function readScope(options: unknown, method: string): Scope | null {
    const parsed = parseInput(callOptionsSchema, options ?? {}, `core.${method}`, 'options');
    const scope = narrowScope(engine.scope, parsed.scope);
    return scope === null ? null : (scope ?? {});
  }

  function writeScope(options: unknown, method: string): Scope {
    const parsed = parseInput(callOptionsSchema, options ?? {}, `core.${method}`, 'options');
    return scopeForWrite(engine.scope, parsed.scope, 'options.scope', 'core');
  }

  // Edits read, change and write under one lock, so two edits never lose one another.
  async function edit(change: (current: string) => string, field: string, scope: Scope): Promise<CoreBlockState> {
    const work = async () => write(change(await read(scope)), field, scope);
    if (root === undefined || !inWorkspace(scope)) return serially(scopeKey(scope), work);
    return withDirectoryLock(confinedFolder(root, ['.memory'], CONFINED), work, { component: 'core' });
  }

  const withNewline = (value: string) => (value === '' || value.endsWith('\n') ? value : `${value}\n`);

  async function readState(options?: unknown): Promise<CoreBlockState> {
    const scope = readScope(options, 'get');
    // Another tenant's block reads as empty, as recall finds nothing there.
    return stateOf(scope === null ? '' : await read(scope));
  }

  return {
    readWithinCall: readState,
    // Declared for the drain: the client runs each in engine.track, so close() waits for an edit.
    core: drained<AsyncMembers<CoreBlock>>({
      get: (options?: unknown) => readState(options),
      async append(input: unknown, options?: unknown) {
        const addition = parseInput(text, input, 'core.append', 'text');
        const scope = writeScope(options, 'append');
        return edit((current) => `${withNewline(current)}${addition}\n`, 'text', scope);
      },
      async replace(input: unknown, options?: unknown) {
        const parsed = parseInput(replaceSchema, input, 'core.replace', 'edit');
        const scope = writeScope(options, 'replace');
        return edit(
          (current) => {
            const first = current.indexOf(parsed.find);
            if (first < 0)
              throw invalid(
                'edit.find',
                'expected text that occurs in the core block',
                'Read the core block first and copy the exact text to replace.',
              );
            if (current.indexOf(parsed.find, first + 1) >= 0)
              throw invalid(
                'edit.find',
                'expected text that occurs once in the core block (it occurs more than once)',
                'Include more of the surrounding text so that it names one place.',
              );
            return `${current.slice(0, first)}${parsed.with}${current.slice(first + parsed.find.length)}`;
          },
          'edit.with',
          scope,
        );
      },
      async insert(input: unknown, options?: unknown) {
        const parsed = parseInput(insertSchema, input, 'core.insert', 'edit');
        const scope = writeScope(options, 'insert');
        return edit(
          (current) => {
            const lines = current === '' ? [] : withNewline(current).slice(0, -1).split('\n');
            lines.splice(Math.min(parsed.line, lines.length), 0, ...parsed.text.split('\n'));
            return `${lines.join('\n')}\n`;
          },
          'edit.text',
          scope,
        );
      },
    }),
  };
}
