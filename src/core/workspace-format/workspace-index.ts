/** Keeping the derived index in step with the Markdown files: incremental by content hash. */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { MemoryEngine } from '../engine/memory-engine.js';
import { buildMemory, deriveAbstract } from '../shared/memory-builder.js';
import type { Memory } from '../spec/memory.js';
import type { MemoryRecord } from '../spec/store.js';
import { findRuleSupersessions } from '../supersession/find-supersessions.js';
import { embeddingText } from '../text/memory-text.js';
import { readConfined, realDirectoryIfAny } from '../utils/confined-path.js';
import { UNDATED_AT } from '../utils/undated.js';
import { generatedBody } from './generated-section.js';
import { journalMemory, mergedJournalMemory } from './journal-memory.js';
import { parseOpinionSection } from './opinion-state.js';
import { parseWorkspaceFile, type WorkspaceItem, type WorkspaceWarning } from './workspace-chunks.js';
import {
  fileDate,
  listWorkspaceFiles,
  MAX_WORKSPACE_FILE_BYTES,
  MAX_WORKSPACE_FILE_ITEMS,
  roleOf,
  type SkippedWorkspaceFile,
  type WorkspaceFile,
} from './workspace-files.js';

// Items are built, embedded and written this many at a time, so a file of hundreds of
// thousands of bullets never holds all its memories and vectors at once.
const BATCH = 500;
// The index is read this many memories at a time, keeping only ids and hashes.
const PAGE = 50_000;

/** What one `index()` run did. */
export interface WorkspaceIndexReport {
  /** Files read, sorted. */
  files: number;
  /** Files re-read because their content changed (or they are new). */
  changedFiles: string[];
  /** Files whose items left the index because the file is gone. */
  removedFiles: string[];
  /** Items written. */
  indexed: number;
  /** Items that left the index (deleted files, removed or changed lines). */
  removed: number;
  /** Lines kept as plain text because they were malformed. */
  warnings: WorkspaceWarning[];
  /**
   * Files and folders that were not read, with the reason: a symbolic link leaving the
   * workspace (never followed; its items leave the index), a file over
   * `MAX_WORKSPACE_FILE_BYTES` (2 MiB) or `MAX_WORKSPACE_FILE_ITEMS` (20,000 items), one that
   * is not a regular file or may not be read (their items already in the index stay as they
   * were). The rest of the workspace is indexed all the same.
   */
  skipped: SkippedWorkspaceFile[];
}

/** Where a workspace item's memory records its file. */
export interface WorkspaceMark {
  /** Workspace-relative path. */
  file: string;
  /** sha256 of the file's text when it was indexed. */
  hash: string;
  /**
   * For an item memoir appended to the file: the hash of the text it was appended to. The items
   * indexed at that hash still hold (an append changes no line above it), so a file is up to date
   * when every item's hash is on the chain from its current hash back through these links.
   */
  after?: string;
}

/** The workspace mark of a memory, when it came from a workspace file. */
export function workspaceMark(memory: Memory): WorkspaceMark | undefined {
  const mark = memory.metadata.workspace;
  if (typeof mark !== 'object' || mark === null || Array.isArray(mark)) return undefined;
  const { file, hash, after } = mark as Record<string, unknown>;
  if (typeof file !== 'string' || typeof hash !== 'string') return undefined;
  return typeof after === 'string' ? { file, hash, after } : { file, hash };
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The id of a plain item: it depends only on where the item is and what it says, so a rebuilt index has the same ids. */
export function itemId(file: string, line: number, content: string): string {
  return `ws_${sha256(`${file}\n${line}\n${content}`).slice(0, 32)}`;
}

function memoryOf(
  file: WorkspaceFile,
  item: WorkspaceItem,
  hash: string,
  day: string,
  now: string,
  engine: MemoryEngine,
): Memory | undefined {
  if (item.journal) return journalMemory(file.path, item, hash, day, now, engine.scope);
  const occurredAt = item.range?.start ?? item.headingRange?.start ?? day;
  const metadata = {
    workspace: { file: file.path, hash },
    // No date of its own, in its heading or in its file's name: time filters leave it out.
    ...(occurredAt === UNDATED_AT ? { undated: true } : {}),
    retained: item.retained,
    ...(item.heading === null ? {} : { heading: item.heading }),
    ...(item.confidence === undefined ? {} : { confidence: item.confidence }),
    ...(item.range === undefined ? {} : { timeRange: { start: item.range.start, end: item.range.end } }),
  };
  return buildMemory(
    {
      id: itemId(file.path, item.line, item.content),
      content: item.content,
      abstract: deriveAbstract(item.content),
      kind: item.kind,
      category: file.role.category,
      entities: item.entities,
      context: item.heading,
      source: { file: file.path, line: item.line },
      occurredAt,
      validFrom: occurredAt,
      metadata,
    } as Parameters<typeof buildMemory>[0],
    { id: '', now, scope: engine.scope, sessionId: undefined },
  );
}

/** What the index holds of one file: its items' ids and the hashes they were indexed at. */
interface IndexedFile {
  ids: string[];
  hashes: Set<string>;
  /** Hash after an append → hash before it (see {@link WorkspaceMark.after}). */
  links: Map<string, string>;
}

/** Whether every item of a file was indexed at `hash` or at a text `hash` only appended to. */
function upToDate(file: IndexedFile, hash: string): boolean {
  const chain = new Set<string>([hash]);
  for (let at = file.links.get(hash); at !== undefined && !chain.has(at); at = file.links.get(at)) chain.add(at);
  for (const seen of file.hashes) if (!chain.has(seen)) return false;
  return true;
}

/** The workspace items of the index, by file, read a page at a time. */
async function indexedFiles(engine: MemoryEngine): Promise<Map<string, IndexedFile>> {
  const byFile = new Map<string, IndexedFile>();
  for (let offset = 0; ; offset += PAGE) {
    const page = await engine.store.listMemories({
      filter: { scope: engine.scope },
      orderBy: 'createdAt',
      direction: 'asc',
      limit: PAGE,
      offset,
    });
    for (const memory of page) {
      const mark = workspaceMark(memory);
      if (!mark) continue;
      let entry = byFile.get(mark.file);
      if (entry === undefined) {
        entry = { ids: [], hashes: new Set(), links: new Map() };
        byFile.set(mark.file, entry);
      }
      entry.ids.push(memory.id);
      entry.hashes.add(mark.hash);
      if (mark.after !== undefined) entry.links.set(mark.hash, mark.after);
    }
    if (page.length < PAGE) return byFile;
  }
}

/**
 * Embed and write memories, a batch at a time. A dated fact that states a new value of an
 * older one's attribute supersedes it, as retain does, in world time (the files' dates): a
 * re-index of the same files links the same chains.
 */
async function writeBatch(engine: MemoryEngine, built: readonly Memory[]): Promise<void> {
  if (built.length === 0) return;
  const stored = new Map((await engine.store.getMemories(built.map((memory) => memory.id))).map((m) => [m.id, m]));
  // A memory retained into the workspace is already in the index: it keeps what happened to it
  // since (superseded, recalled, re-extracted) and takes from the file only what a person edits.
  const memories = built.map((memory) => {
    const before = stored.get(memory.id);
    return before && isJournal(memory) ? mergedJournalMemory(before, memory, engine.nowIso()) : memory;
  });
  // A vector is reused when the text it was made of did not change: re-reading a file after an
  // append embeds only the new lines.
  const kept = await engine.store.getEmbeddings(
    memories.filter((memory) => stored.has(memory.id)).map((memory) => memory.id),
  );
  const reusable = (memory: Memory) => {
    const before = stored.get(memory.id);
    return before !== undefined && kept.has(memory.id) && embeddingText(before) === embeddingText(memory);
  };
  // A memory retain just stored for a background embedder stays unembedded here: its pending
  // pass embeds it after, as it would without a workspace.
  const later = (memory: Memory) =>
    engine.embedder.background === true &&
    isJournal(memory) &&
    stored.get(memory.id)?.content === memory.content &&
    !kept.has(memory.id);
  const fresh = memories.filter((memory) => !reusable(memory) && !later(memory));
  const vectors = fresh.length > 0 ? await engine.embed(fresh.map(embeddingText), 'workspace.index') : [];
  const vectorOf = new Map(fresh.map((memory, index) => [memory.id, vectors[index] ?? null]));
  // A retained memory already indexed went through supersession when it was retained.
  const ruled = await findRuleSupersessions(
    engine,
    memories.filter((memory) => !(isJournal(memory) && stored.has(memory.id))),
  );
  const records: MemoryRecord[] = memories.map((memory) => ({
    memory: ruled.batch.get(memory.id) ?? memory,
    embedding: vectorOf.get(memory.id) ?? kept.get(memory.id) ?? null,
  }));
  await engine.store.upsertMemories([...records, ...ruled.stored]);
}

function isJournal(memory: Memory): boolean {
  return memory.metadata.journal === true;
}

/**
 * Replace the items of one file: its new items are written a batch at a time, then the ones
 * no longer in it leave. A small file is replaced in one transaction; a run stopped part-way
 * through a big one leaves items of both versions, which the next run replaces (their
 * hashes differ from the file's).
 */
async function replaceFile(
  engine: MemoryEngine,
  file: WorkspaceFile,
  items: readonly WorkspaceItem[],
  hash: string,
  day: string,
  before: readonly string[],
): Promise<{ indexed: number; removed: number }> {
  const now = engine.nowIso();
  const keep = new Set<string>();
  const run = async () => {
    for (let start = 0; start < items.length; start += BATCH) {
      const memories = items
        .slice(start, start + BATCH)
        .map((item) => memoryOf(file, item, hash, day, now, engine))
        .filter((memory): memory is Memory => memory !== undefined);
      for (const memory of memories) keep.add(memory.id);
      await writeBatch(engine, memories);
    }
    const stale = before.filter((id) => !keep.has(id));
    return { indexed: items.length, removed: stale.length > 0 ? await engine.store.deleteMemories(stale) : 0 };
  };
  return items.length <= BATCH ? engine.store.transaction(run) : run();
}

/**
 * Give opinion memories the confidence and evidence reflect last wrote into the generated
 * section of `bank/opinions.md`, so that a rebuilt index holds the same beliefs.
 */
async function applyOpinionStates(engine: MemoryEngine, root: string): Promise<void> {
  const realRoot = realDirectoryIfAny(root);
  if (realRoot === undefined) return;
  const read = readConfined(realRoot, join(root, 'bank', 'opinions.md'), MAX_WORKSPACE_FILE_BYTES);
  if (read.status !== 'ok') return;
  const body = generatedBody(read.text, 'opinions');
  if (body === undefined) return;
  const states = parseOpinionSection(body);
  if (states.size === 0) return;
  const memories = await engine.store.getMemories([...states.keys()]);
  const changed = memories.filter((memory) => {
    const state = states.get(memory.id)!;
    return (
      memory.metadata.confidence !== state.confidence ||
      JSON.stringify([memory.metadata.supporting, memory.metadata.contradicting]) !==
        JSON.stringify([state.supporting, state.contradicting])
    );
  });
  if (changed.length === 0) return;
  const vectors = await engine.store.getEmbeddings(changed.map((memory) => memory.id));
  await engine.store.upsertMemories(
    changed.map((memory) => {
      const state = states.get(memory.id)!;
      const metadata = {
        ...memory.metadata,
        confidence: state.confidence,
        supporting: state.supporting,
        contradicting: state.contradicting,
      };
      return { memory: { ...memory, metadata }, embedding: vectors.get(memory.id) ?? null };
    }),
  );
}

/**
 * Bring the index up to date with the workspace at `root`: files whose text hash changed
 * (or that are new) are re-read and their items replaced; items of deleted files leave the
 * index; unchanged files are not read past their hash. Malformed lines are indexed as plain
 * text and reported (and logged) as warnings. A file that cannot be read (a link leaving
 * the workspace, over the size limit, vanished meanwhile) is reported, never fatal: the rest
 * of the workspace is indexed.
 */
export async function indexWorkspace(
  engine: MemoryEngine,
  root: string,
  options: { rebuild: boolean; only?: readonly string[] },
): Promise<WorkspaceIndexReport> {
  await engine.ready('workspace.index');
  const whole = listWorkspaceFiles(root);
  // Only these files (a retain appended to a day file): the rest of the index is left alone.
  const only = options.only === undefined ? undefined : new Set(options.only);
  const listing =
    only === undefined
      ? whole
      : {
          files: whole.files.filter((file) => only.has(file.path)),
          skipped: whole.skipped.filter((skip) => only.has(skip.file)),
        };
  const byFile = await indexedFiles(engine);
  if (only !== undefined) for (const path of [...byFile.keys()]) if (!only.has(path)) byFile.delete(path);
  const report: WorkspaceIndexReport = {
    files: listing.files.length,
    changedFiles: [],
    removedFiles: [],
    indexed: 0,
    removed: 0,
    warnings: [],
    skipped: [...listing.skipped],
  };
  const realRoot = realDirectoryIfAny(root);
  const present = new Set(listing.files.map((file) => file.path));
  const gone: string[] = [];
  for (const path of byFile.keys()) if (!present.has(path)) gone.push(path);
  for (const file of listing.files) {
    const before = byFile.get(file.path);
    const read =
      realRoot === undefined
        ? ({ status: 'missing' } as const)
        : readConfined(realRoot, file.absolute, MAX_WORKSPACE_FILE_BYTES);
    if (read.status === 'missing') {
      // Deleted while this run was under way: it is gone, like a file deleted before it.
      report.files -= 1;
      if (before !== undefined) gone.push(file.path);
      continue;
    }
    if (read.status === 'refused') {
      const limit = read.kind === 'too-big' ? ' (MAX_WORKSPACE_FILE_BYTES); split it into smaller files' : '';
      report.skipped.push({ file: file.path, reason: `${read.reason}${limit}` });
      // A link that now leads outside is not part of the workspace; anything else keeps its items.
      if (read.kind === 'outside' && before !== undefined) gone.push(file.path);
      continue;
    }
    const hash = sha256(read.text);
    if (!options.rebuild && before !== undefined && upToDate(before, hash)) continue;
    const parsed = parseWorkspaceFile(file.path, read.text, file.role, MAX_WORKSPACE_FILE_ITEMS);
    if ('tooMany' in parsed) {
      report.skipped.push({
        file: file.path,
        reason: `holds more than ${MAX_WORKSPACE_FILE_ITEMS} items, over the limit (MAX_WORKSPACE_FILE_ITEMS); split it into smaller files`,
      });
      continue;
    }
    const warnings: WorkspaceWarning[] = [];
    const day = fileDate(file, warnings);
    for (const warning of warnings) report.warnings.push(warning);
    for (const warning of parsed.warnings) report.warnings.push(warning);
    const result = await replaceFile(engine, file, parsed.items, hash, day, before?.ids ?? []);
    report.changedFiles.push(file.path);
    report.indexed += result.indexed;
    report.removed += result.removed;
  }
  for (const path of gone.sort()) {
    const ids = byFile.get(path)?.ids ?? [];
    report.removedFiles.push(path);
    if (ids.length > 0) report.removed += await engine.store.deleteMemories(ids);
  }
  await applyOpinionStates(engine, root);
  for (const warning of report.warnings) {
    const where = warning.line > 0 ? `${warning.file}:${warning.line}` : warning.file;
    engine.logger.log('warn', `workspace: ${where}: ${warning.message} (kept as plain text)`);
  }
  for (const skipped of report.skipped) {
    engine.logger.log('warn', `workspace: ${skipped.file} ${skipped.reason}; it was not indexed`);
  }
  return report;
}

/**
 * Index what memoir just appended to `file` (workspace-relative), from `previous` to `text`,
 * without re-reading the rest of the file or listing the index: the new bullets are written,
 * marked as appended to `previous`. Only when the index held the file exactly at `previous`
 * and the append changed no item above it; otherwise resolves false and the caller indexes
 * the file as a whole.
 */
export async function indexAppended(
  engine: MemoryEngine,
  file: string,
  previous: string,
  text: string,
): Promise<boolean> {
  const role = roleOf(file);
  const before = parseWorkspaceFile(file, previous, role, MAX_WORKSPACE_FILE_ITEMS);
  const after = parseWorkspaceFile(file, text, role, MAX_WORKSPACE_FILE_ITEMS);
  if ('tooMany' in before || 'tooMany' in after) return false;
  const idOf = (item: WorkspaceItem) => item.journal?.fields.id ?? itemId(file, item.line, item.content);
  const kept = after.items.slice(0, before.items.length);
  if (kept.some((item, index) => idOf(item) !== idOf(before.items[index]!))) return false;
  const added = after.items.slice(before.items.length);
  if (added.some((item) => item.journal === undefined)) return false;
  const previousHash = sha256(previous);
  if (before.items.length > 0) {
    // A file of up to BATCH items is indexed in one transaction, all or nothing: its first and
    // last items tell its state (an edit by hand changes an id or leaves an older hash). A
    // bigger one may be half indexed: every item is looked at.
    const all = before.items.map(idOf);
    const probe = all.length <= BATCH ? [...new Set([all[0]!, all[all.length - 1]!])] : all;
    const indexed = await engine.store.getMemories(probe);
    if (indexed.length !== probe.length) return false;
    const held: IndexedFile = { ids: [], hashes: new Set(), links: new Map() };
    for (const memory of indexed) {
      const mark = workspaceMark(memory);
      if (mark === undefined || mark.file !== file) return false;
      held.hashes.add(mark.hash);
      if (mark.after !== undefined) held.links.set(mark.hash, mark.after);
    }
    if (!upToDate(held, previousHash)) return false;
  }
  const hash = sha256(text);
  const workspaceFile: WorkspaceFile = { path: file, absolute: file, role };
  const dated = /^memory\/(\d{4}-\d{2}-\d{2})/.exec(file)?.[1];
  const now = engine.nowIso();
  const day = dated === undefined ? now : `${dated}T00:00:00.000Z`;
  const memories = added
    .map((item) => memoryOf(workspaceFile, item, hash, day, now, engine))
    .filter((memory): memory is Memory => memory !== undefined)
    .map((memory) => ({
      ...memory,
      metadata: { ...memory.metadata, workspace: { file, hash, after: previousHash } },
    }));
  await engine.store.transaction(() => writeBatch(engine, memories));
  return true;
}
