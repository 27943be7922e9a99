/** Keeping the derived index in step with the Markdown files: incremental by content hash. */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { MemoryEngine } from '../engine/memory-engine.js';
import { buildMemory, deriveAbstract } from '../memories/memory-builder.js';
import { generatedBody } from '../reflect/generated-section.js';
import { parseOpinionSection } from '../reflect/opinion-state.js';
import type { Memory } from '../spec/memory.js';
import type { MemoryRecord } from '../spec/store.js';
import { embeddingText } from '../text/memory-text.js';
import { parseWorkspaceFile, type WorkspaceWarning } from './workspace-chunks.js';
import { fileDate, listWorkspaceFiles, type WorkspaceFile } from './workspace-files.js';

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
}

/** Where a workspace item's memory records its file. */
export interface WorkspaceMark {
  /** Workspace-relative path. */
  file: string;
  /** sha256 of the file's text when it was indexed. */
  hash: string;
}

/** The workspace mark of a memory, when it came from a workspace file. */
export function workspaceMark(memory: Memory): WorkspaceMark | undefined {
  const mark = memory.metadata.workspace;
  if (typeof mark !== 'object' || mark === null || Array.isArray(mark)) return undefined;
  const { file, hash } = mark as Record<string, unknown>;
  return typeof file === 'string' && typeof hash === 'string' ? { file, hash } : undefined;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

// The id depends only on where the item is and what it says, so a rebuilt index has the same ids.
function itemId(file: string, line: number, content: string): string {
  return `ws_${sha256(`${file}\n${line}\n${content}`).slice(0, 32)}`;
}

function memoriesOf(file: WorkspaceFile, text: string, hash: string, modifiedMs: number, engine: MemoryEngine) {
  const warnings: WorkspaceWarning[] = [];
  // A file touched "after" the clock (a test's fixed clock, a skewed one) still holds now.
  const day = fileDate(file, Math.min(modifiedMs, engine.clock.now()), warnings);
  const parsed = parseWorkspaceFile(file.path, text, file.role);
  warnings.push(...parsed.warnings);
  const now = engine.nowIso();
  const memories = parsed.items.map((item) => {
    const occurredAt = item.range?.start ?? day;
    const metadata = {
      workspace: { file: file.path, hash },
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
  });
  return { memories, warnings };
}

/**
 * Give opinion memories the confidence and evidence reflect last wrote into the generated
 * section of `bank/opinions.md`, so that a rebuilt index holds the same beliefs.
 */
async function applyOpinionStates(engine: MemoryEngine, root: string): Promise<void> {
  let text: string;
  try {
    text = readFileSync(join(root, 'bank', 'opinions.md'), 'utf8');
  } catch {
    return;
  }
  const body = generatedBody(text, 'opinions');
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
 * text and reported (and logged) as warnings.
 */
export async function indexWorkspace(
  engine: MemoryEngine,
  root: string,
  options: { rebuild: boolean },
): Promise<WorkspaceIndexReport> {
  await engine.ready('workspace.index');
  const files = listWorkspaceFiles(root);
  const existing = await engine.store.listMemories({
    filter: { scope: engine.scope },
    orderBy: 'createdAt',
    direction: 'asc',
  });
  const byFile = new Map<string, Memory[]>();
  for (const memory of existing) {
    const mark = workspaceMark(memory);
    if (!mark) continue;
    byFile.set(mark.file, [...(byFile.get(mark.file) ?? []), memory]);
  }
  const report: WorkspaceIndexReport = {
    files: files.length,
    changedFiles: [],
    removedFiles: [],
    indexed: 0,
    removed: 0,
    warnings: [],
  };
  const staleIds: string[] = [];
  const fresh: Memory[] = [];
  const present = new Set(files.map((file) => file.path));
  for (const [path, memories] of byFile) {
    if (present.has(path)) continue;
    report.removedFiles.push(path);
    staleIds.push(...memories.map((memory) => memory.id));
  }
  for (const file of files) {
    const text = readFileSync(file.absolute, 'utf8');
    const hash = sha256(text);
    const before = byFile.get(file.path) ?? [];
    if (!options.rebuild && before.length > 0 && before.every((memory) => workspaceMark(memory)?.hash === hash))
      continue;
    const { memories, warnings } = memoriesOf(file, text, hash, statSync(file.absolute).mtimeMs, engine);
    report.changedFiles.push(file.path);
    report.warnings.push(...warnings);
    const keep = new Set(memories.map((memory) => memory.id));
    staleIds.push(...before.filter((memory) => !keep.has(memory.id)).map((memory) => memory.id));
    fresh.push(...memories);
  }
  const vectors = fresh.length === 0 ? [] : await engine.embed(fresh.map(embeddingText), 'workspace.index');
  const records: MemoryRecord[] = fresh.map((memory, index) => ({ memory, embedding: vectors[index] ?? null }));
  await engine.store.transaction(async () => {
    if (staleIds.length > 0) report.removed = await engine.store.deleteMemories(staleIds);
    if (records.length > 0) await engine.store.upsertMemories(records);
  });
  report.indexed = records.length;
  await applyOpinionStates(engine, root);
  for (const warning of report.warnings) {
    engine.logger.log('warn', `workspace: ${warning.file}:${warning.line}: ${warning.message} (kept as plain text)`);
  }
  return report;
}
