import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import type { MemoryEngine } from '../engine/memory-engine.js';
import { type AsyncMembers, drained } from '../engine/track-calls.js';
import {
  fileOf,
  keepHistory,
  readProcedureFile,
  removeProcedureFile,
  slugTaken,
} from '../procedure-files/procedure-directory.js';
import {
  isSlug,
  ProcedureFileError,
  parseProcedureFile,
  renderProcedureFile,
  rewriteCounters,
  sha256,
  slugify,
} from '../procedure-files/procedure-file.js';
import type { ProcedureOutput } from '../prompts/procedure-prompt.js';
import type { RetainApi } from '../retain/retain-api.js';
import { scopeMatches } from '../search/memory-filter.js';
import { narrowScope, scopeForWrite } from '../search/scope-boundary.js';
import { cosineSimilarity } from '../search/vector-math.js';
import { writeFileAtomic } from '../shared/files/atomic-write.js';
import { withDirectoryLock } from '../shared/files/directory-lock.js';
import { ConfigError, NotFoundError, ValidationError } from '../spec/errors.js';
import type { LanguageModel } from '../spec/language-model.js';
import { type Scope, scopeSchema } from '../spec/memory.js';
import type { Procedure } from '../spec/records.js';
import { applyRenames, type RenamedOption, warnRenamed } from '../utils/renamed-options.js';
import { parseInput } from '../utils/validate.js';
import { type FormatProceduresOptions, formatProcedures } from './format-procedures.js';
import { type FormatRecordedStepsOptions, formatRecordedSteps } from './format-recorded-steps.js';
import {
  type BrokenProcedureFile,
  embeddedTexts,
  type IndexedProcedure,
  type IndexState,
  syncIndex,
} from './procedure-index.js';
import {
  type FindProceduresOptions,
  type FoundProcedure,
  findOptionsSchema,
  type LearnResult,
  type ParsedTaskTrace,
  type ProcedureInput,
  type ProcedureScopeOptions,
  procedureInputSchema,
  type ReflectCheck,
  reflectCheckSchema,
  scopeOptionsSchema,
  type TaskTrace,
  taskTraceSchema,
} from './procedure-inputs.js';
import {
  deterministicDraft,
  draftOf,
  mergeDrafts,
  needsModelSection,
  reflectOnTask,
  transcriptOf,
  withoutNeedsModel,
  withRequestTrigger,
} from './procedure-learning.js';
import { type ParsedProcedureOptions, resolveProcedureThresholds } from './procedure-options.js';
import { cachedRecordings, evidenceOf, withoutRecordingVectors } from './recording-cache.js';
import type { ParsedVideoOptions } from './recording-options.js';
import { stepsFromRecording } from './recording-steps.js';
import type { FromRecordingOptions, RecordingEvidence, RecordingProcedure } from './recording-types.js';

/**
 * Procedures learned from finished tasks, kept as Markdown files a person can edit
 * (`$MEMOIR_HOME/procedures/<slug>.md`): after a task with enough tool calls the agent
 * reflects in the background and saves a reusable procedure; on a similar request the best
 * matches go into the prompt. The files are the source of truth; the store keeps their
 * embeddings. Every method sees hand edits: a changed file is re-read (and re-embedded when
 * its title or triggers changed), and a file that does not parse is reported and left alone.
 *
 * @example
 * ```ts
 * const found = await memory.procedures.findRelevant(request);
 * const answer = await runAgent(`${memory.procedures.formatProcedures(found)}\n\n${request}`);
 * for (const { procedure } of found) await memory.procedures.recordUse(procedure.id, { success: answer.ok });
 * await memory.procedures.learn({ request, toolCalls: answer.toolCalls, narration: answer.narration, response: answer.text });
 * ```
 *
 * @group Procedures
 */
export interface ProcedureLibraryApi {
  /** The directory of the procedure files (absolute). */
  directory(): string;
  /**
   * True when a finished task is worth reflecting on: learning is enabled, at least
   * `minToolCalls` (default 3) tools ran, and the task did not fail.
   */
  shouldReflect(task: ReflectCheck): boolean;
  /**
   * When {@link shouldReflect}, queue a reflection on the task and resolve at once. In the
   * background the reflection model writes a procedure (zod-checked, repaired, retried once);
   * when a stored one is at least `updateThreshold` similar it is merged into that one (the
   * earlier version kept under `.history/`), otherwise a new file is written and
   * "Created procedure: <file>" logged. Without any model the task's tool calls become the
   * steps — only the calls that succeeded (a call with an error, or whose output says
   * `isError: true`, is left out) — and the file says in a "Needs a model" section that its
   * other sections need one. Failures never throw: a reply that stays unusable writes no file, emits
   * `procedure:failed` and keeps the task as an episode memory.
   */
  learn(task: TaskTrace, options?: ProcedureScopeOptions): Promise<LearnResult>;
  /**
   * The procedures closest to a request, best first: at most `k` (default `maxPerPrompt`,
   * 2) with a similarity of at least `threshold` (default `similarityThreshold`). Candidates
   * are the procedure files (when there is a directory) and the steps `fromRecording` cached
   * (source `recording`, compared by their query and by their steps; each result carries its
   * clip, wall-clock span and confidence as `recording`). `sources` narrows them:
   * `['recording']` finds recorded steps only.
   */
  findRelevant(query: string, options?: FindProceduresOptions): Promise<FoundProcedure[]>;
  /** The "Relevant Procedures" prompt section for what `findRelevant` found, escaped as untrusted data. */
  formatProcedures(found: ReadonlyArray<Procedure | FoundProcedure>, options?: FormatProceduresOptions): string;
  /**
   * The "Recorded Steps" prompt section for what `fromRecording` returned: per clip, "On Feb 10,
   * 2026 at 14:30 UTC, the user: 1) … 2) …", with its video range, wall-clock span and
   * confidence, escaped as untrusted data.
   */
  formatRecordedSteps(results: readonly RecordingProcedure[], options?: FormatRecordedStepsOptions): string;
  /**
   * Record that a procedure was followed: adds 1 to `success_count` (or to `failure_count`)
   * and sets `last_used`, rewriting only those front-matter keys. Rejects with a
   * NotFoundError for an unknown id.
   */
  recordUse(id: string, outcome: { success: boolean }): Promise<Procedure>;
  /** Procedures not used (nor created) for `days` (default `staleAfterDays`, 90), oldest first: candidates for review. */
  stale(options?: { days?: number }): Promise<Procedure[]>;
  /**
   * Write a procedure file (source `manual` unless given). With an existing id it replaces
   * that file, keeping the earlier version under `.history/`; without an id the slug of the
   * title names a new file.
   */
  save(procedure: ProcedureInput): Promise<Procedure>;
  /** The procedure of `<id>.md` (or the steps cached from a recording under that id), or null. */
  get(id: string, options?: ProcedureScopeOptions): Promise<Procedure | null>;
  /** Every readable procedure of the client's scope, by id. */
  list(): Promise<Procedure[]>;
  /** Delete a procedure file (a copy stays under `.history/`) and its embeddings; false when there was none. */
  delete(id: string): Promise<boolean>;
  /** Files in the directory that are not readable procedures, with the reason; they are left untouched. */
  invalidFiles(): Promise<BrokenProcedureFile[]>;
  /**
   * How the user did something on screen, from their recordings (needs `createMemory({ video })`):
   * the video provider's best clips for `query`, and for each the steps a vision model saw
   * between consecutive key frames, with timestamp, confidence, summary and the clip's
   * reference. Each result is cached as a Procedure (source `recording`, the clip as video
   * evidence), so a similar query later is answered from the store, with no search and no model
   * call, and retained as a memory (kind `experience`, category `recording`, `occurredAt` the
   * clip's start), so `recall` finds the steps too (`categories: ['recording']` for them only).
   * Without a video provider only the cache answers: the cached steps closest to the query (a
   * ConfigError when nothing was ever cached). `scope` narrows the client's scope for the call.
   */
  fromRecording(query: string, options?: FromRecordingOptions): Promise<RecordingProcedure[]>;
}

/** What the procedure library is built from. */
export interface ProcedureLibrarySettings {
  /** Parsed `procedures` options. */
  options: ParsedProcedureOptions;
  /** Keeps a task as an episode when its reflection fails. */
  retain: Pick<RetainApi, 'retain'>;
  /** Parsed `video` options, when recordings are configured. */
  video?: ParsedVideoOptions;
}

const COMPONENT = 'procedures';
/** The metadata key of a procedure written from tool calls alone, without a model. */
const WRITTEN_WITHOUT_MODEL = 'writtenWithoutModel';
const DAY_MS = 86_400_000;
// Attempts at merging into a file that keeps changing under us; the last one merges without the model, under the lock.
const MERGE_ATTEMPTS = 3;

const slugSchema = z
  .string()
  .min(1)
  .max(200)
  .refine(isSlug, 'expected a procedure id: the file name without .md (letters, digits, ".", "_", "-")');
const querySchema = z.string().trim().min(1, 'expected a non-empty request').max(20_000);
const outcomeSchema = z.object({ success: z.boolean() }).strict();
const staleSchema = z.object({ days: z.number().positive().max(100_000).optional() }).strict();
const fromRecordingSchema = z
  .object({
    k: z.number().int().min(1).max(20).default(3),
    refresh: z.boolean().default(false),
    search: z.boolean().default(true),
    scope: scopeSchema.optional(),
  })
  .strict();
// Old names of options (docs/vocabulary.md): a ranked answer's size is `k` at every door.
const FIND_RENAMES = [{ from: 'topK', to: 'k' }] as const;
const FROM_RECORDING_RENAMES = [{ from: 'limit', to: 'k' }] as const;
/** The sources whose procedures are files; `recording` ones live in the store. */
const FILE_SOURCES: ReadonlyArray<Procedure['source']> = ['reflection', 'session', 'manual'];

/** A procedure findRelevant may return, with the vectors that find it. */
interface Candidate {
  procedure: Procedure;
  file: string | null;
  vectors: readonly Float32Array[];
  recording?: RecordingEvidence;
}

function bestSimilarity(query: Float32Array, vectors: readonly Float32Array[]): number {
  let best = -1;
  for (const vector of vectors) best = Math.max(best, cosineSimilarity(query, vector));
  return best;
}

/** The procedure library over an engine. */
export function createProcedureLibraryApi(
  engine: MemoryEngine,
  settings: ProcedureLibrarySettings,
): ProcedureLibraryApi {
  const { options } = settings;
  let directory: string | undefined;
  const dir = () => {
    const configured = engine.procedureDirectory();
    if (configured === undefined) {
      throw new ConfigError('no directory for procedure files', {
        component: COMPONENT,
        field: 'procedures.directory',
        suggestion:
          'Pass createMemory({ home }) (files go to <home>/procedures) or createMemory({ procedures: { directory } }).',
      });
    }
    directory ??= resolve(configured);
    return directory;
  };
  let reflectionModel: LanguageModel | undefined;
  const model = (): LanguageModel | undefined => {
    if (!options.reflectionModel) return engine.languageModel;
    reflectionModel ??= engine.boundModel(options.reflectionModel);
    return reflectionModel;
  };
  const thresholds = () => resolveProcedureThresholds(options, engine.embedder);
  // Old option names move to the new ones; the client's logger says so once per name.
  const renamedOptions = (input: unknown, renames: readonly RenamedOption[], component: string) => {
    const renamed = applyRenames(input ?? {}, renames, { component, fieldPrefix: 'options' });
    warnRenamed(engine.logger, component, renamed.used);
    return renamed.input;
  };
  const embed = (texts: readonly string[]) => engine.embed(texts, COMPONENT);
  // Booting a client with a home creates the directory, as Subrosa's boot creates its table.
  engine.onOpen(() => {
    const configured = engine.procedureDirectory();
    if (configured !== undefined) mkdirSync(configured, { recursive: true });
  });
  // A broken file is reported once per content, not on every read.
  const reported = new Map<string, string>();

  async function sync(only?: readonly string[], scope: Scope | undefined = engine.scope): Promise<IndexState> {
    await engine.ready(COMPONENT);
    const state = await syncIndex(
      { store: engine.store, directory: dir(), scope, embedderId: engine.embedder.id, embed },
      only,
    );
    for (const broken of state.broken) {
      if (reported.get(broken.file) === broken.sha256) continue;
      reported.set(broken.file, broken.sha256);
      engine.logger.log(
        'warn',
        `procedure file ${broken.file} is not readable and was left as it is: ${broken.reason}`,
      );
      engine.emit('procedure:invalid', { file: broken.file, reason: broken.reason });
    }
    return state;
  }

  /** Run `work` under the directory's lock; a lock a live process keeps too long is a StoreError naming it. */
  const locked = <T>(work: () => Promise<T>): Promise<T> => withDirectoryLock(dir(), work, { component: COMPONENT });

  async function indexedOne(
    slug: string,
    scope: Scope | undefined = engine.scope,
  ): Promise<IndexedProcedure | undefined> {
    const state = await sync([slug], scope);
    return state.procedures.find((entry) => entry.procedure.id === slug);
  }

  async function freeSlug(title: string): Promise<string> {
    const base = slugify(title);
    for (let n = 1; ; n++) {
      const slug = n === 1 ? base : `${base}-${n}`;
      // Anything by that name (even a link memoir will not read) is taken: it is never replaced.
      if (!(await slugTaken(dir(), slug))) return slug;
    }
  }

  async function writeProcedure(procedure: Procedure, extraSections = ''): Promise<IndexedProcedure> {
    await writeFileAtomic(fileOf(dir(), procedure.id), renderProcedureFile(procedure, extraSections));
    const indexed = await indexedOne(procedure.id, procedure.scope);
    if (!indexed) throw new ProcedureFileError(`${fileOf(dir(), procedure.id)} was written but does not read back`);
    return indexed;
  }

  function newProcedure(
    slug: string,
    draft: ProcedureOutput,
    source: Procedure['source'],
    scope: Scope | undefined,
    metadata: Procedure['metadata'] = {},
  ): Procedure {
    const now = engine.nowIso();
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

  /** Replace a stored procedure's text parts with a merged draft, keeping its counters and history. */
  async function replaceWithMerge(
    existing: IndexedProcedure,
    draft: ProcedureOutput,
    similarity: number,
    byModel = false,
  ) {
    const now = engine.nowIso();
    const history = await keepHistory(dir(), existing.procedure.id, now);
    // A model's merge writes the sections a draft without one lacked: its note goes.
    const { [WRITTEN_WITHOUT_MODEL]: _note, ...metadata } = existing.procedure.metadata;
    const merged: Procedure = {
      ...existing.procedure,
      ...draft,
      ...(byModel ? { metadata } : {}),
      updatedAt: now,
    };
    const indexed = await writeProcedure(
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
  async function commitDraft(
    draft: ProcedureOutput,
    source: Procedure['source'],
    scope: Scope | undefined,
    withoutModel?: { failed: string[] },
  ): Promise<void> {
    await sync(undefined, scope);
    const [combined] = await embed(embeddedTexts(draft).slice(0, 1));
    for (let attempt = 1; attempt <= MERGE_ATTEMPTS; attempt++) {
      const last = attempt === MERGE_ATTEMPTS;
      const target = await locked(async () => {
        const state = await sync(undefined, scope);
        let best: { entry: IndexedProcedure; similarity: number } | undefined;
        for (const entry of state.procedures) {
          const similarity = entry.vectors[0] ? cosineSimilarity(combined!, entry.vectors[0]) : -1;
          if (!best || similarity > best.similarity) best = { entry, similarity };
        }
        if (best && best.similarity >= thresholds().update) {
          if (!last) return best;
          // The file kept changing: merge without the model, here, where nothing can change it.
          await replaceWithMerge(
            best.entry,
            (await mergeDrafts(undefined, draftOf(best.entry.procedure), draft)).draft,
            best.similarity,
          );
          return null;
        }
        const slug = await freeSlug(draft.title);
        const indexed = withoutModel
          ? await writeProcedure(
              newProcedure(slug, draft, source, scope, { [WRITTEN_WITHOUT_MODEL]: true }),
              needsModelSection(withoutModel.failed),
            )
          : await writeProcedure(newProcedure(slug, draft, source, scope));
        engine.logger.log('info', `Created procedure: ${indexed.file}`);
        engine.emit('procedure:created', { procedure: indexed.procedure, file: indexed.file });
        return null;
      });
      if (!target) return;
      const merge = await mergeDrafts(model(), draftOf(target.entry.procedure), draft);
      if (merge.error) engine.logger.log('warn', `procedure merge fell back to a union of both: ${merge.error}`);
      const done = await locked(async () => {
        const current = await readProcedureFile(dir(), target.entry.procedure.id);
        if (!current || sha256(current.text) !== sha256(target.entry.text)) return false;
        await replaceWithMerge(target.entry, merge.draft, target.similarity, merge.byModel);
        return true;
      });
      if (done) return;
    }
  }

  async function keepTaskAsEpisode(task: ParsedTaskTrace, reason: string, scope: Scope | undefined): Promise<void> {
    engine.logger.log('warn', `procedure reflection failed, no procedure written: ${reason}`);
    const stored = await settings.retain.retain({
      content: transcriptOf(task),
      ...(scope && scope !== engine.scope ? { scope } : {}),
      kind: 'experience',
      category: 'events',
      metadata: { episode: true, reason: `procedure reflection failed: ${reason}`, procedureReflection: true },
    });
    engine.emit('procedure:failed', { reason, input: task, episodeId: stored.ids[0] ?? null });
  }

  async function learnInBackground(task: ParsedTaskTrace, scope: Scope | undefined): Promise<void> {
    const reflector = model();
    if (reflector) {
      const reflection = await reflectOnTask(reflector, task);
      if (!reflection.ok) return keepTaskAsEpisode(task, reflection.error, scope);
      return commitDraft(withRequestTrigger(reflection.draft, task.request), 'reflection', scope);
    }
    const { draft, failed } = deterministicDraft(task);
    if (draft.steps.length === 0) return keepTaskAsEpisode(task, 'every tool call failed: no step to keep', scope);
    await commitDraft(withRequestTrigger(draft, task.request), 'reflection', scope, { failed });
  }

  /** The file of `slug` when it belongs to the client's scope; a NotFoundError otherwise. */
  async function ownFile(slug: string, component: string) {
    const snapshot = await readProcedureFile(dir(), slug);
    const notFound = () =>
      new NotFoundError('procedure', slug, {
        component,
        suggestion: `List the procedures with memory.procedures.list() or \`memoir procedures list\`; files live in ${dir()}.`,
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
    if (!scopeMatches(parsed.procedure.scope, engine.scope)) throw notFound();
    return { snapshot, parsed };
  }

  /** The steps cached from a recording under `id`, inside the client's scope: as stored, and as handed out. */
  async function recordedProcedure(
    id: string,
    scope: Scope | undefined = engine.scope,
  ): Promise<{ stored: Procedure; procedure: Procedure } | undefined> {
    await engine.ready(COMPONENT);
    const [stored] = await engine.store.procedures.get([id]);
    if (stored?.source !== 'recording' || !scopeMatches(stored.scope, scope)) return undefined;
    if (!evidenceOf(stored)) return undefined;
    return { stored, procedure: withoutRecordingVectors(stored) };
  }

  const api: ProcedureLibraryApi = {
    directory: dir,

    shouldReflect(task) {
      const parsed = parseInput(reflectCheckSchema, task, 'procedures.shouldReflect', 'task');
      const count = typeof parsed.toolCalls === 'number' ? parsed.toolCalls : parsed.toolCalls.length;
      const failed = (parsed.error !== undefined && parsed.error !== null) || parsed.success === false;
      return options.enabled && count >= options.minToolCalls && !failed;
    },

    formatProcedures: (found, formatOptions) => formatProcedures(found, formatOptions),

    formatRecordedSteps: (results, formatOptions) => formatRecordedSteps(results, formatOptions),

    // Every async method, declared for the drain: close() waits for calls started before it.
    ...drained<AsyncMembers<ProcedureLibraryApi>>({
      async learn(task, learnOptions) {
        const parsed = parseInput(taskTraceSchema, task, 'procedures.learn', 'task');
        const given = parseInput(scopeOptionsSchema, learnOptions ?? {}, 'procedures.learn', 'options');
        // A per-call scope narrows the client's (a door serving many users passes the caller's), never widens it.
        const scope = given.scope
          ? scopeForWrite(engine.scope, given.scope, 'options.scope', 'procedures.learn')
          : engine.scope;
        engine.assertOpen('procedures.learn');
        if (!options.enabled)
          return { scheduled: false, reason: 'procedure learning is disabled (procedures.enabled: false)' };
        if (!api.shouldReflect(parsed)) {
          const reason =
            parsed.toolCalls.length < options.minToolCalls
              ? `${parsed.toolCalls.length} tool call(s); reflection needs at least ${options.minToolCalls}`
              : 'the task failed';
          engine.logger.log('debug', `no reflection: ${reason}`);
          return { scheduled: false, reason };
        }
        engine.background('learnProcedure', () => learnInBackground(parsed, scope), parsed);
        return { scheduled: true, reason: null };
      },

      async findRelevant(query, findOptions) {
        const text = parseInput(querySchema, query, 'procedures.findRelevant', 'query');
        const parsed = parseInput(
          findOptionsSchema,
          renamedOptions(findOptions, FIND_RENAMES, 'procedures.findRelevant'),
          'procedures.findRelevant',
          'options',
        );
        // Another tenant's scope, asked of a scoped client, finds nothing, as if nothing were there.
        const scope = narrowScope(engine.scope, parsed.scope);
        if (scope === null) return [];
        const topK = parsed.k ?? options.maxPerPrompt;
        const threshold = parsed.threshold ?? thresholds().similarity;
        const sources = new Set(parsed.sources ?? [...FILE_SOURCES, 'recording']);
        const wantsRecordings = sources.has('recording');
        const candidates: Candidate[] = [];
        // Without a directory there are no files; recorded steps are still found, as they live in the store.
        if (
          FILE_SOURCES.some((source) => sources.has(source)) &&
          (engine.procedureDirectory() !== undefined || !wantsRecordings)
        ) {
          const state = await sync(undefined, scope);
          for (const entry of state.procedures) {
            if (sources.has(entry.procedure.source)) candidates.push(entry);
          }
        }
        if (wantsRecordings) {
          await engine.ready(COMPONENT);
          for (const entry of await cachedRecordings(engine, scope)) {
            const recording = evidenceOf(entry.procedure);
            candidates.push({
              procedure: withoutRecordingVectors(entry.procedure),
              file: null,
              vectors: entry.vectors,
              ...(recording ? { recording } : {}),
            });
          }
        }
        if (candidates.length === 0) return [];
        const [vector] = await embed([text]);
        const found = candidates
          .map((entry) => ({
            procedure: entry.procedure,
            file: entry.file,
            similarity: bestSimilarity(vector!, entry.vectors),
            ...(entry.recording ? { recording: entry.recording } : {}),
          }))
          .filter((entry) => entry.similarity >= threshold)
          .sort((a, b) => b.similarity - a.similarity || a.procedure.id.localeCompare(b.procedure.id))
          .slice(0, topK);
        for (const entry of found) {
          engine.logger.log(
            'info',
            `Relevant procedure: ${entry.file ?? `${entry.procedure.id} (recorded)`} (similarity ${entry.similarity.toFixed(2)})`,
          );
        }
        return found;
      },

      async recordUse(id, outcome) {
        const slug = parseInput(slugSchema, id, 'procedures.recordUse', 'id');
        const { success } = parseInput(outcomeSchema, outcome, 'procedures.recordUse', 'outcome');
        await engine.ready(COMPONENT);
        // Steps cached from a recording have no file: their counters live on the store record.
        const recorded = await recordedProcedure(slug);
        if (recorded && (engine.procedureDirectory() === undefined || !(await readProcedureFile(dir(), slug)))) {
          const updated: Procedure = {
            ...recorded.stored,
            successCount: recorded.stored.successCount + (success ? 1 : 0),
            failureCount: recorded.stored.failureCount + (success ? 0 : 1),
            lastUsedAt: engine.nowIso(),
            updatedAt: engine.nowIso(),
          };
          await engine.store.procedures.upsert([updated]);
          return withoutRecordingVectors(updated);
        }
        return locked(async () => {
          const { snapshot, parsed } = await ownFile(slug, 'procedures.recordUse');
          const before = parsed.procedure;
          const counters = {
            successCount: before.successCount + (success ? 1 : 0),
            failureCount: before.failureCount + (success ? 0 : 1),
            lastUsedAt: engine.nowIso(),
          };
          await writeFileAtomic(snapshot.path, rewriteCounters(snapshot.text, counters));
          const indexed = await indexedOne(slug);
          return indexed?.procedure ?? { ...before, ...counters };
        });
      },

      async stale(staleOptions) {
        const parsed = parseInput(staleSchema, staleOptions ?? {}, 'procedures.stale', 'options');
        const cutoff = engine.clock.now() - (parsed.days ?? options.staleAfterDays) * DAY_MS;
        const lastUse = (procedure: Procedure) => Date.parse(procedure.lastUsedAt ?? procedure.createdAt);
        const state = await sync();
        return state.procedures
          .map((entry) => entry.procedure)
          .filter((procedure) => lastUse(procedure) < cutoff)
          .sort((a, b) => lastUse(a) - lastUse(b) || a.id.localeCompare(b.id));
      },

      async save(input) {
        const parsed = parseInput(procedureInputSchema, input, 'procedures.save', 'procedure');
        // The schema's slug rule, plus the names no file system takes everywhere (con, nul, …).
        if (parsed.id !== undefined && !isSlug(parsed.id))
          throw new ValidationError(
            [{ field: 'procedure.id', message: `expected a slug that can name a file everywhere, got "${parsed.id}"` }],
            { component: 'procedures.save' },
          );
        const scope = scopeForWrite(engine.scope, parsed.scope, 'procedure.scope', 'procedures.save');
        await engine.ready(COMPONENT);
        return locked(async () => {
          const now = engine.nowIso();
          const existing = parsed.id ? await readProcedureFile(dir(), parsed.id) : null;
          let previous: ReturnType<typeof parseProcedureFile> | undefined;
          if (existing && parsed.id) {
            previous = (await ownFile(parsed.id, 'procedures.save')).parsed;
            await keepHistory(dir(), parsed.id, now);
          }
          const { id, createdAt, ...fields } = parsed;
          const procedure: Procedure = {
            ...fields,
            id: id ?? (await freeSlug(parsed.title)),
            scope,
            createdAt: createdAt ?? previous?.procedure.createdAt ?? now,
            updatedAt: now,
          };
          const indexed = await writeProcedure(procedure, previous?.extraSections);
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
      },

      async get(id, getOptions) {
        const slug = parseInput(slugSchema, id, 'procedures.get', 'id');
        const given = parseInput(scopeOptionsSchema, getOptions ?? {}, 'procedures.get', 'options');
        const scope = narrowScope(engine.scope, given.scope);
        if (scope === null) return null;
        const recorded = await recordedProcedure(slug, scope);
        if (recorded && engine.procedureDirectory() === undefined) return recorded.procedure;
        return (await indexedOne(slug, scope))?.procedure ?? recorded?.procedure ?? null;
      },

      async list() {
        return (await sync()).procedures.map((entry) => entry.procedure);
      },

      async delete(id) {
        const slug = parseInput(slugSchema, id, 'procedures.delete', 'id');
        await engine.ready(COMPONENT);
        return locked(async () => {
          const snapshot = await readProcedureFile(dir(), slug);
          if (!snapshot) return false;
          await ownFile(slug, 'procedures.delete');
          await keepHistory(dir(), slug, engine.nowIso());
          await removeProcedureFile(dir(), slug);
          await engine.store.procedures.delete([slug]);
          return true;
        });
      },

      async invalidFiles() {
        return (await sync()).broken;
      },

      async fromRecording(query, recordingOptions) {
        const text = parseInput(querySchema, query, 'procedures.fromRecording', 'query');
        const parsed = parseInput(
          fromRecordingSchema,
          renamedOptions(recordingOptions, FROM_RECORDING_RENAMES, 'procedures.fromRecording'),
          'procedures.fromRecording',
          'options',
        );
        // A per-call scope narrows the client's, never widens it; another tenant's is refused.
        const scope = parsed.scope
          ? scopeForWrite(engine.scope, parsed.scope, 'options.scope', 'procedures.fromRecording')
          : engine.scope;
        return stepsFromRecording(
          engine,
          { video: settings.video, retain: settings.retain, scope, similarityThreshold: thresholds().similarity },
          text,
          { limit: parsed.k, refresh: parsed.refresh, search: parsed.search },
        );
      },
    }),
  };
  return api;
}
